import { randomBytes, randomInt } from 'node:crypto';
import { getAllBinaryNodeChildren, getBinaryNodeChild, getBinaryNodeChildren, type BinaryNode } from 'baileys';
import type { Account } from './accounts.js';
import type { Connection } from './connection.js';
import type { NetworkContext } from './context.js';
import { badRequest, notFound } from './errors.js';
import { normalizePhone, unixSeconds } from './jids.js';

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
}

export interface GroupSummary {
  jid: string;
  subject: string;
  creator: string;
  participants: { phone: string; lid: string; role: Role }[];
}

/**
 * Groups: created and changed by phones (or by linked devices through `w:g2` queries), announced to
 * every member's linked devices as `w:gp2` notifications, and described by the metadata answer the
 * clients ask for.
 */
export class Groups {
  private readonly groups = new Map<string, Group>();

  constructor(private readonly ctx: NetworkContext) {}

  summary(group: Group): GroupSummary {
    return {
      jid: group.jid,
      subject: group.subject,
      creator: group.creator.phone,
      participants: [...group.members.values()].map(({ account, role }) => ({ phone: account.phone, lid: account.lid, role })),
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
    };
    for (const input of participantInputs) {
      const account = this.ctx.accounts.get(normalizePhone(input));
      if (!group.members.has(account.phone)) group.members.set(account.phone, { account, role: null });
    }
    this.groups.set(group.jid, group);
    this.announce(group, owner, [{ tag: 'create', attrs: { reason: 'create', method: 'create' }, content: [this.metadata(group)] }]);
    return group;
  }

  addParticipants(actorInput: string, jid: string, inputs: string[]): Account[] {
    const group = this.find(jid);
    const actor = this.member(group, actorInput);
    const added = inputs
      .map((input) => this.ctx.accounts.get(normalizePhone(input)))
      .filter((account) => !group.members.has(account.phone));
    for (const account of added) group.members.set(account.phone, { account, role: null });
    if (added.length) this.announce(group, actor, [{ tag: 'add', attrs: {}, content: added.map((account) => this.participant(account)) }]);
    return added;
  }

  removeParticipants(actorInput: string, jid: string, inputs: string[]): Account[] {
    const group = this.find(jid);
    const actor = this.member(group, actorInput);
    const removed = inputs.flatMap((input) => group.members.get(normalizePhone(input))?.account ?? []);
    // The removed hear of it too, then no more.
    if (removed.length) this.announce(group, actor, [{ tag: 'remove', attrs: {}, content: removed.map((account) => this.participant(account)) }]);
    for (const account of removed) group.members.delete(account.phone);
    return removed;
  }

  setSubject(actorInput: string, jid: string, subject: string): void {
    const group = this.find(jid);
    const actor = this.member(group, actorInput);
    if (!subject.trim()) throw badRequest('invalid_subject', 'a group needs a subject');
    group.subject = subject;
    group.subjectOwner = actor;
    group.subjectTime = Math.floor(Date.now() / 1000);
    this.announce(group, actor, [
      { tag: 'subject', attrs: { subject, s_o: actor.jid('lid'), s_o_pn: actor.jid('pn'), s_t: `${group.subjectTime}` } },
    ]);
  }

  setDescription(actorInput: string, jid: string, text: string): void {
    const group = this.find(jid);
    const actor = this.member(group, actorInput);
    const description = { id: randomBytes(8).toString('hex').toUpperCase(), text, owner: actor, time: Math.floor(Date.now() / 1000) };
    group.description = description;
    this.announce(group, actor, [
      { tag: 'description', attrs: { id: description.id }, content: [{ tag: 'body', attrs: {}, content: Buffer.from(text) }] },
    ]);
  }

  /** Groups `account` is a member of. */
  of(account: Account): Group[] {
    return [...this.groups.values()].filter((group) => group.members.has(account.phone));
  }

  /** `w:g2` queries from linked devices: metadata, the groups they are in, and changes they make. */
  iq(iq: BinaryNode, connection: Connection): BinaryNode | BinaryNode[] | undefined {
    const account = connection.device!.account;
    const [request] = getAllBinaryNodeChildren(iq);
    const to = iq.attrs.to ?? '';
    if (!request) return this.error(400, 'bad-request');
    if (request.tag === 'participating') {
      return { tag: 'groups', attrs: {}, content: this.of(account).map((group) => this.metadata(group)) };
    }
    if (request.tag === 'create' && iq.attrs.type === 'set') {
      const phones = getBinaryNodeChildren(request, 'participant').flatMap(({ attrs }) => {
        const resolved = this.ctx.accounts.resolve(attrs.jid);
        return resolved ? [resolved.account.phone] : [];
      });
      return this.metadata(this.create(account.phone, request.attrs.subject ?? '', phones));
    }
    const group = this.groups.get(to);
    if (!group) return this.error(404, 'item-not-found');
    if (!group.members.has(account.phone)) return this.error(403, 'forbidden');
    switch (request.tag) {
      case 'query':
        return this.metadata(group);
      case 'subject':
        this.setSubject(account.phone, group.jid, Buffer.from((request.content as Uint8Array | undefined) ?? []).toString('utf8'));
        return undefined;
      case 'description': {
        const body = getBinaryNodeChild(request, 'body')?.content;
        this.setDescription(account.phone, group.jid, Buffer.from((body as Uint8Array | undefined) ?? []).toString('utf8'));
        return undefined;
      }
      case 'add':
      case 'remove': {
        const phones = getBinaryNodeChildren(request, 'participant').flatMap(({ attrs }) => {
          const resolved = this.ctx.accounts.resolve(attrs.jid);
          return resolved ? [resolved.account.phone] : [];
        });
        const changed = request.tag === 'add' ? this.addParticipants(account.phone, group.jid, phones) : this.removeParticipants(account.phone, group.jid, phones);
        return {
          tag: request.tag,
          attrs: {},
          content: changed.map((member) => ({ tag: 'participant', attrs: { jid: member.jid('lid'), phone_number: member.jid('pn'), error: '200' } })),
        };
      }
      case 'leave':
        this.removeParticipants(account.phone, group.jid, [account.phone]);
        return undefined;
      default:
        return this.error(501, 'feature-not-implemented');
    }
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

  private participant(account: Account): BinaryNode {
    return { tag: 'participant', attrs: { jid: account.jid('lid'), phone_number: account.jid('pn') } };
  }

  private member(group: Group, input: string): Account {
    const member = group.members.get(normalizePhone(input));
    if (!member) throw badRequest('not_a_member', `${input} is not a member of ${group.jid}`);
    return member.account;
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

  private error(code: number, text: string): BinaryNode {
    return { tag: 'error', attrs: { code: `${code}`, text } };
  }
}
