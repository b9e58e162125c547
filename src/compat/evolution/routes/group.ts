import type { Router } from '@koa/router';
import { Invalid } from '../../../domain/errors.js';
import type { GroupInfo } from '../../../domain/groups/group-ops.js';
import type { AppState } from '../../../http/context.js';
import { jidOf, recipientOf } from '../numbers.js';
import { type EvolutionDeps, operation } from '../operation.js';

const phonesOf = (value: unknown, field: string) => {
  if (!Array.isArray(value)) throw Invalid.at(field, 'must be a list of phone numbers');
  return value.map((number: unknown, index) => recipientOf(number, `${field}.${index}`));
};

/** A group as Evolution's group operations describe it. */
export function presentGroup(group: GroupInfo, withParticipants = true) {
  const created = group.createdAt ? Math.floor(Date.parse(group.createdAt) / 1000) : null;
  return {
    id: group.id,
    subject: group.subject,
    subjectOwner: group.owner ? jidOf(group.owner) : null,
    subjectTime: created,
    pictureUrl: null,
    size: group.participants.length,
    creation: created,
    owner: group.owner ? jidOf(group.owner) : null,
    desc: group.description ?? undefined,
    restrict: group.restrict,
    announce: group.announce,
    ...(withParticipants ? { participants: participantsOf(group) } : {}),
  };
}

const participantsOf = (group: GroupInfo) => group.participants.map((person) => ({ id: person.phone ? jidOf(person.phone) : `${person.lid}@lid`, admin: person.admin }));

/** The group a query names (`?groupJid=`), as Evolution's group operations take it. */
function groupJidOf(query: Record<string, unknown>): string {
  const jid = query.groupJid;
  if (typeof jid !== 'string' || jid === '') throw Invalid.at('groupJid', 'is required: the group id (<digits>@g.us)');
  return jid;
}

const SETTINGS: Record<string, { announce?: boolean; restrict?: boolean }> = {
  announcement: { announce: true },
  not_announcement: { announce: false },
  locked: { restrict: true },
  unlocked: { restrict: false },
};

/** /group/*: each through the gateway's group operations (docs/messaging.md "Groups and polls"). */
export function groupRoutes(router: Router<AppState>, deps: EvolutionDeps) {
  const { groups } = deps.services;

  operation(router, deps, 'post', '/group/create', { named: true }, async ({ actor, instance, body }) => {
    const participants = phonesOf(body.participants, 'participants');
    const group = await groups.create(actor, instance.id, { subject: body.subject, participants, ...(body.description !== undefined ? { description: body.description } : {}) });
    return { status: 201, body: presentGroup(group) };
  });

  operation(router, deps, 'post', '/group/updateGroupSubject', { named: true, names: { groupId: 'groupJid' } }, async ({ actor, instance, body, query }) => {
    await groups.update(actor, instance.id, groupJidOf(query), { subject: body.subject });
    return { status: 201, body: { update: 'success' } };
  });

  operation(router, deps, 'post', '/group/updateGroupDescription', { named: true, names: { groupId: 'groupJid' } }, async ({ actor, instance, body, query }) => {
    await groups.update(actor, instance.id, groupJidOf(query), { description: body.description });
    return { status: 201, body: { update: 'success' } };
  });

  operation(router, deps, 'get', '/group/inviteCode', { named: true, names: { groupId: 'groupJid' } }, async ({ actor, instance, query }) => {
    const invite = await groups.invite(actor, instance.id, groupJidOf(query));
    return { body: { inviteUrl: invite.url, inviteCode: invite.code } };
  });

  operation(router, deps, 'get', '/group/findGroupInfos', { named: true, names: { groupId: 'groupJid' } }, async ({ actor, instance, query }) => ({
    body: presentGroup(await groups.get(actor, instance.id, groupJidOf(query))),
  }));

  operation(router, deps, 'get', '/group/fetchAllGroups', { named: true }, async ({ actor, instance, query }) => {
    if (query.getParticipants !== 'true' && query.getParticipants !== 'false') throw Invalid.at('getParticipants', 'is required: true or false');
    const list = await groups.list(actor, instance.id);
    return { body: list.map((group) => presentGroup(group, query.getParticipants === 'true')) };
  });

  operation(router, deps, 'get', '/group/participants', { named: true, names: { groupId: 'groupJid' } }, async ({ actor, instance, query }) => ({
    body: { participants: participantsOf(await groups.get(actor, instance.id, groupJidOf(query))) },
  }));

  operation(router, deps, 'post', '/group/updateParticipant', { named: true, names: { groupId: 'groupJid', phones: 'participants' } }, async ({ actor, instance, body, query }) => {
    const phones = phonesOf(body.participants, 'participants');
    const results = await groups.participants(actor, instance.id, groupJidOf(query), { action: body.action, phones });
    return { status: 201, body: { updateParticipants: results.map((result) => ({ status: result.status === 'ok' ? '200' : result.status, jid: jidOf(result.phone) })) } };
  });

  operation(router, deps, 'post', '/group/updateSetting', { named: true, names: { groupId: 'groupJid' } }, async ({ actor, instance, body, query }) => {
    const change = typeof body.action === 'string' ? SETTINGS[body.action] : undefined;
    if (!change) throw Invalid.at('action', `must be one of ${Object.keys(SETTINGS).join(', ')}`);
    await groups.update(actor, instance.id, groupJidOf(query), change);
    return { status: 201, body: { updateSetting: true } };
  });

  operation(router, deps, 'delete', '/group/leaveGroup', { named: true, names: { groupId: 'groupJid' } }, async ({ actor, instance, query }) => {
    const group = groupJidOf(query);
    await groups.leave(actor, instance.id, group);
    return { body: { groupJid: group, leave: true } };
  });
}
