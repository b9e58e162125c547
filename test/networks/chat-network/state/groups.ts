import { randomBytes, randomInt } from 'node:crypto';
import type { BinaryNode } from 'baileys';
import type { Account } from './accounts.js';
import type { NetworkContext } from './context.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { normalizePhone, unixSeconds } from '../protocol/jids.js';

type Role = 'superadmin' | 'admin' | null;

/** A group as the network keeps it: LID-addressed, as new groups are. */
export interface Group {
  id: string;
  jid: string;
  subject: string;
  subjectOwner: Account;
  subjectTime: number;
  description: { id: string; text: string; owner: Account; time: number } | null;
  creator: Account;
  creation: number;
  members: Map<string, { account: Account; role: Role }>;
  /** Only admins send messages (`announcement`); only admins change subject, description and settings (`locked`). */
  announce: boolean;
  restrict: boolean;
  inviteCode: string;
}

export interface GroupSummary {
  jid: string;
  subject: string;
  description: string | null;
  creator: string;
  participants: { phone: string; lid: string; role: Role }[];
  announce: boolean;
  restrict: boolean;
  inviteCode: string;
}

export type ParticipantAction = 'add' | 'remove' | 'promote' | 'demote';

/**
 * One phone's outcome of a participant change, as the network answers it per participant: `200`
 * done, `403` the phone's privacy settings refuse adds (it would need an invite), `404` not on the
 * network (add) or not a member (the others), `409` already a member (add).
 */
export interface ParticipantResult {
  phone: string;
  account: Account;
  status: '200' | '403' | '404' | '409';
}

export interface GroupSettings {
  announce?: boolean;
  restrict?: boolean;
}

const newInviteCode = () => randomBytes(16).toString('base64url').slice(0, 22);

/**
 * Groups: created and changed by phones (or by linked devices through `w:g2` queries, see
 * group-queries.ts), announced to every member's linked devices as `w:gp2` notifications, and
 * described by the metadata node clients read.
 */
export class Groups {
  private readonly groups = new Map<string, Group>();

  constructor(private readonly ctx: NetworkContext) {}

  summary(group: Group): GroupSummary {
    return {
      jid: group.jid,
      subject: group.subject,
      description: group.description?.text ?? null,
      creator: group.creator.phone,
      participants: [...group.members.values()].map(({ account, role }) => ({ phone: account.phone, lid: account.lid, role })),
      announce: group.announce,
      restrict: group.restrict,
      inviteCode: group.inviteCode,
    };
  }

  get(jid: string): Group | undefined {
    return this.groups.get(jid.includes('@') ? jid : `${jid}@g.us`);
  }

  find(jid: string): Group {
    const group = this.get(jid);
    if (!group) throw notFound('unknown_group', `no group ${jid}`);
    return group;
  }

  byInviteCode(code: string): Group | undefined {
    return [...this.groups.values()].find((group) => group.inviteCode === code);
  }

  /** Makes a group; participants that are off the network or refuse adds are left out, as the network does. */
  create(ownerInput: string, subject: string, participantInputs: string[]): Group {
    const owner = this.ctx.accounts.get(normalizePhone(ownerInput));
    if (!subject.trim()) throw badRequest('invalid_subject', 'a group needs a subject');
    const now = Math.floor(Date.now() / 1000);
    const id = `120363${randomInt(10 ** 11, 10 ** 12)}${randomInt(10, 100)}`;
    const group: Group = {
      id,
      jid: `${id}@g.us`,
      subject,
      subjectOwner: owner,
      subjectTime: now,
      description: null,
      creator: owner,
      creation: now,
      members: new Map([[owner.phone, { account: owner, role: 'superadmin' as Role }]]),
      announce: false,
      restrict: false,
      inviteCode: newInviteCode(),
    };
    for (const input of participantInputs) {
      const account = this.ctx.accounts.get(normalizePhone(input));
      if (account.registered && account.acceptsGroupAdds && !group.members.has(account.phone)) group.members.set(account.phone, { account, role: null });
    }
    this.groups.set(group.jid, group);
    this.announce(group, owner, [{ tag: 'create', attrs: { reason: 'create', method: 'create' }, content: [this.metadata(group)] }]);
    return group;
  }

  /**
   * Adds, removes, promotes or demotes, as an admin may: each phone gets its own result, and the
   * members hear of those that took effect in one notification.
   */
  changeParticipants(actorInput: string, jid: string, action: ParticipantAction, inputs: string[]): ParticipantResult[] {
    const group = this.find(jid);
    const actor = this.admin(group, actorInput);
    const results = inputs.map((input) => this.outcome(group, action, this.ctx.accounts.get(normalizePhone(input))));
    const done = results.filter((result) => result.status === '200').map((result) => result.account);
    if (!done.length) return results;
    if (action === 'add') for (const account of done) group.members.set(account.phone, { account, role: null });
    if (action === 'promote' || action === 'demote') {
      for (const account of done) group.members.get(account.phone)!.role = action === 'promote' ? 'admin' : null;
    }
    // The removed hear of it too, then no more.
    this.announce(group, actor, [{ tag: action, attrs: {}, content: done.map((account) => this.participant(account)) }]);
    if (action === 'remove') for (const account of done) group.members.delete(account.phone);
    return results;
  }

  addParticipants(actorInput: string, jid: string, inputs: string[]): Account[] {
    return this.accountsDone(this.changeParticipants(actorInput, jid, 'add', inputs));
  }

  removeParticipants(actorInput: string, jid: string, inputs: string[]): Account[] {
    return this.accountsDone(this.changeParticipants(actorInput, jid, 'remove', inputs));
  }

  /** A member leaves: the others (and its own devices) hear it removed by itself. */
  leave(memberInput: string, jid: string): void {
    const group = this.find(jid);
    const member = this.member(group, memberInput);
    this.announce(group, member, [{ tag: 'remove', attrs: {}, content: [this.participant(member)] }]);
    group.members.delete(member.phone);
    // A group whose last admin left gets a new one, as the network picks one.
    const members = [...group.members.values()];
    if (members.length && !members.some((item) => item.role)) {
      members[0]!.role = 'admin';
      this.announce(group, member, [{ tag: 'promote', attrs: {}, content: [this.participant(members[0]!.account)] }]);
    }
  }

  /** A phone joins by the group's invite code. */
  join(phoneInput: string, code: string): Group {
    const group = this.byInviteCode(code);
    if (!group) throw notFound('unknown_invite', `no group has invite code ${code}`);
    const account = this.ctx.accounts.get(normalizePhone(phoneInput));
    if (!group.members.has(account.phone)) {
      group.members.set(account.phone, { account, role: null });
      this.announce(group, account, [{ tag: 'add', attrs: { reason: 'invite' }, content: [this.participant(account)] }]);
    }
    return group;
  }

  /** A new invite code; the old one stops working. */
  revokeInvite(actorInput: string, jid: string): string {
    const group = this.find(jid);
    const actor = this.admin(group, actorInput);
    group.inviteCode = newInviteCode();
    this.announce(group, actor, [{ tag: 'invite', attrs: { code: group.inviteCode } }]);
    return group.inviteCode;
  }

  setSubject(actorInput: string, jid: string, subject: string): void {
    const group = this.find(jid);
    const actor = this.editor(group, actorInput);
    if (!subject.trim()) throw badRequest('invalid_subject', 'a group needs a subject');
    group.subject = subject;
    group.subjectOwner = actor;
    group.subjectTime = Math.floor(Date.now() / 1000);
    this.announce(group, actor, [
      { tag: 'subject', attrs: { subject, s_o: actor.jid('lid'), s_o_pn: actor.jid('pn'), s_t: `${group.subjectTime}` } },
    ]);
  }

  /** Sets the description, or removes it with an empty text. */
  setDescription(actorInput: string, jid: string, text: string): void {
    const group = this.find(jid);
    const actor = this.editor(group, actorInput);
    const description = { id: randomBytes(8).toString('hex').toUpperCase(), text, owner: actor, time: Math.floor(Date.now() / 1000) };
    group.description = text ? description : null;
    this.announce(group, actor, [
      text
        ? { tag: 'description', attrs: { id: description.id }, content: [{ tag: 'body', attrs: {}, content: Buffer.from(text) }] }
        : { tag: 'description', attrs: { id: description.id, delete: 'true' } },
    ]);
  }

  /** Announcement (only admins send) and locked (only admins edit the group's info); admins only. */
  setSettings(actorInput: string, jid: string, settings: GroupSettings): void {
    const group = this.find(jid);
    const actor = this.admin(group, actorInput);
    const changes: BinaryNode[] = [];
    if (settings.announce !== undefined && settings.announce !== group.announce) {
      group.announce = settings.announce;
      changes.push({ tag: settings.announce ? 'announcement' : 'not_announcement', attrs: {} });
    }
    if (settings.restrict !== undefined && settings.restrict !== group.restrict) {
      group.restrict = settings.restrict;
      changes.push({ tag: settings.restrict ? 'locked' : 'unlocked', attrs: {} });
    }
    if (changes.length) this.announce(group, actor, changes);
  }

  /** Groups `account` is a member of. */
  of(account: Account): Group[] {
    return [...this.groups.values()].filter((group) => group.members.has(account.phone));
  }

  isAdmin(group: Group, account: Account): boolean {
    return !!group.members.get(account.phone)?.role;
  }

  /** The `<group>` node clients read metadata from. */
  metadata(group: Group): BinaryNode {
    const content: BinaryNode[] = [...group.members.values()].map(({ account, role }) => ({
      ...this.participant(account),
      attrs: { ...this.participant(account).attrs, ...(role ? { type: role } : {}) },
    }));
    if (group.description) {
      content.push({
        tag: 'description',
        attrs: {
          id: group.description.id,
          participant: group.description.owner.jid('lid'),
          participant_pn: group.description.owner.jid('pn'),
          t: `${group.description.time}`,
        },
        content: [{ tag: 'body', attrs: {}, content: Buffer.from(group.description.text) }],
      });
    }
    if (group.announce) content.push({ tag: 'announcement', attrs: {} });
    if (group.restrict) content.push({ tag: 'locked', attrs: {} });
    return {
      tag: 'group',
      attrs: {
        id: group.id,
        creator: group.creator.jid('lid'),
        creator_pn: group.creator.jid('pn'),
        creation: `${group.creation}`,
        subject: group.subject,
        s_t: `${group.subjectTime}`,
        s_o: group.subjectOwner.jid('lid'),
        s_o_pn: group.subjectOwner.jid('pn'),
        size: `${group.members.size}`,
        addressing_mode: 'lid',
      },
      content,
    };
  }

  participant(account: Account): BinaryNode {
    return { tag: 'participant', attrs: { jid: account.jid('lid'), phone_number: account.jid('pn') } };
  }

  member(group: Group, input: string): Account {
    const member = group.members.get(normalizePhone(input));
    if (!member) throw badRequest('not_a_member', `${input} is not a member of ${group.jid}`);
    return member.account;
  }

  private admin(group: Group, input: string): Account {
    const account = this.member(group, input);
    if (!this.isAdmin(group, account)) throw forbidden('not_an_admin', `${account.phone} is not an admin of ${group.jid}`);
    return account;
  }

  /** Who may change subject and description: any member, or only admins once the group is locked. */
  private editor(group: Group, input: string): Account {
    return group.restrict ? this.admin(group, input) : this.member(group, input);
  }

  private outcome(group: Group, action: ParticipantAction, account: Account): ParticipantResult {
    const result = (status: ParticipantResult['status']) => ({ phone: account.phone, account, status });
    const member = group.members.get(account.phone);
    if (action === 'add') {
      if (!account.registered) return result('404');
      if (member) return result('409');
      return result(account.acceptsGroupAdds ? '200' : '403');
    }
    if (!member) return result('404');
    return result('200');
  }

  private accountsDone(results: ParticipantResult[]): Account[] {
    return results.filter((result) => result.status === '200').map((result) => result.account);
  }

  /** A `w:gp2` notification to every linked device of every member. */
  private announce(group: Group, actor: Account, content: BinaryNode[]) {
    for (const { account } of group.members.values()) {
      for (const device of account.linkedDevices()) {
        const id = `${randomInt(10 ** 9, 2 ** 31)}`;
        device.hold({
          key: `n:${id}`,
          node: {
            tag: 'notification',
            attrs: {
              from: group.jid,
              type: 'w:gp2',
              id,
              t: unixSeconds(),
              participant: actor.jid('lid'),
              participant_pn: actor.jid('pn'),
              notify: actor.pushName,
              addressing_mode: 'lid',
            },
            content,
          },
        });
      }
    }
    this.ctx.journal.changed();
  }
}
