import type { GroupMetadata, WASocket } from 'baileys';
import type { GroupInfo, GroupOp, GroupOpResult } from '../../domain/groups/group-ops.js';
import { NetworkError } from '../../domain/errors.js';
import { phoneJid, userJidDigits } from './message-refs.js';
import { onTheNetwork } from './on-the-network.js';
import { personOf, type PhoneOfLid } from './session-events.js';

/** The network's answers to a change of one participant, by its status code. */
const PARTICIPANT_STATUS: Record<string, string> = {
  '200': 'ok',
  '401': 'not_authorized',
  '403': 'refused',
  '404': 'not_found',
  '408': 'recently_left',
  '409': 'already_member',
};

async function infoOf(group: GroupMetadata, phoneOfLid: PhoneOfLid): Promise<GroupInfo> {
  const owner = await personOf(group.owner, group.ownerPn, phoneOfLid);
  return {
    id: group.id,
    subject: group.subject,
    description: group.desc ?? null,
    owner: owner?.phone ?? null,
    participants: await Promise.all(
      group.participants.map(async (participant) => {
        const person = (await personOf(participant.id, participant.phoneNumber, phoneOfLid)) ?? { phone: null };
        const admin = participant.admin ?? (participant.isSuperAdmin ? 'superadmin' : participant.isAdmin ? 'admin' : null);
        return { ...person, admin } as GroupInfo['participants'][number];
      }),
    ),
    announce: group.announce === true,
    restrict: group.restrict === true,
    createdAt: group.creation ? new Date(group.creation * 1000).toISOString() : null,
  };
}

/** `group_admin` on CHAT-BAILEYS: the library's group functions on the instance's live socket. */
export function baileysGroupActions(sockOf: () => WASocket) {
  return {
    async groups(op: GroupOp): Promise<GroupOpResult> {
      const sock = sockOf();
      const phoneOfLid: PhoneOfLid = (jid) => sock.signalRepository.lidMapping.getPNForLID(jid);
      const read = async (group: string) => infoOf(await onTheNetwork('answer the group query', () => sock.groupMetadata(group)), phoneOfLid);
      switch (op.op) {
        case 'list': {
          const all = await onTheNetwork('list the groups', () => sock.groupFetchAllParticipating());
          return { groups: await Promise.all(Object.values(all).map((group) => infoOf(group, phoneOfLid))) };
        }
        case 'create': {
          const created = await onTheNetwork('create the group', () => sock.groupCreate(op.subject, op.participants.map(phoneJid)));
          if (op.description) await onTheNetwork('take the description', () => sock.groupUpdateDescription(created.id, op.description));
          return { group: op.description ? await read(created.id) : await infoOf(created, phoneOfLid) };
        }
        case 'get':
          return { group: await read(op.group) };
        case 'update':
          if (op.subject !== undefined) await onTheNetwork('take the subject', () => sock.groupUpdateSubject(op.group, op.subject!));
          if (op.description !== undefined) await onTheNetwork('take the description', () => sock.groupUpdateDescription(op.group, op.description || undefined));
          if (op.announce !== undefined) await onTheNetwork('take the setting', () => sock.groupSettingUpdate(op.group, op.announce ? 'announcement' : 'not_announcement'));
          if (op.restrict !== undefined) await onTheNetwork('take the setting', () => sock.groupSettingUpdate(op.group, op.restrict ? 'locked' : 'unlocked'));
          return { group: await read(op.group) };
        case 'participants': {
          const answers = await onTheNetwork('change the participants', () => sock.groupParticipantsUpdate(op.group, op.phones.map(phoneJid), op.action));
          // The network may answer by LID: the phone it gave beside it, or the LID mapping's, names the participant.
          const phones = await Promise.all(
            answers.map(async (answer) => {
              const given = userJidDigits(answer.jid) ?? userJidDigits(answer.content?.attrs?.phone_number);
              if (given || !answer.jid) return given;
              return userJidDigits(await phoneOfLid(answer.jid).catch(() => null));
            }),
          );
          const byPhone = new Map(answers.map((answer, n) => [phones[n], PARTICIPANT_STATUS[answer.status] ?? `error_${answer.status}`]));
          return { participants: op.phones.map((phone) => ({ phone, status: byPhone.get(phone) ?? 'no_answer' })) };
        }
        case 'invite': {
          const code = await onTheNetwork('give the invite code', () => sock.groupInviteCode(op.group));
          if (!code) throw new NetworkError('The network gave no invite code.');
          return { code };
        }
        case 'leave':
          await onTheNetwork('take the leave', () => sock.groupLeave(op.group));
          return {};
      }
    },
  };
}
