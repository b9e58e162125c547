import { getAllBinaryNodeChildren, getBinaryNodeChild, getBinaryNodeChildren, type BinaryNode } from 'baileys';
import type { Account } from '../state/accounts.js';
import type { ClientConnection } from '../state/client-connection.js';
import type { NetworkContext } from '../state/context.js';
import { ChatNetworkError } from '../errors.js';
import type { Groups, ParticipantAction } from '../state/groups.js';

const PARTICIPANT_ACTIONS = new Set<string>(['add', 'remove', 'promote', 'demote']);
const SETTINGS: Record<string, { announce?: boolean; restrict?: boolean }> = {
  announcement: { announce: true },
  not_announcement: { announce: false },
  locked: { restrict: true },
  unlocked: { restrict: false },
};

const error = (code: number, text: string): BinaryNode => ({ tag: 'error', attrs: { code: `${code}`, text } });

/** A refusal of the network's group rules, as the iq error the client turns into a rejected promise. */
function asIqError(failure: unknown): BinaryNode {
  if (!(failure instanceof ChatNetworkError)) throw failure;
  if (failure.status === 403) return error(401, 'not-authorized');
  if (failure.status === 404) return error(404, 'item-not-found');
  return error(400, 'bad-request');
}

/**
 * `w:g2` queries from linked devices, answered as the client's group functions read them: the groups
 * an account is in, metadata, creation, participant changes with a result per participant, subject,
 * description, settings, invite codes (get, revoke, join by code) and leaving.
 */
export class GroupQueries {
  constructor(
    private readonly ctx: NetworkContext,
    private readonly groups: Groups,
  ) {}

  answer(iq: BinaryNode, connection: ClientConnection): BinaryNode | BinaryNode[] | undefined {
    const account = connection.device!.account;
    const [request] = getAllBinaryNodeChildren(iq);
    if (!request) return error(400, 'bad-request');
    try {
      return (iq.attrs.to ?? '') === '@g.us' ? this.toAll(iq, request, account) : this.toGroup(iq, request, account);
    } catch (failure) {
      return asIqError(failure);
    }
  }

  /** Queries to `@g.us` itself: about no one group in particular. */
  private toAll(iq: BinaryNode, request: BinaryNode, account: Account): BinaryNode | BinaryNode[] | undefined {
    switch (request.tag) {
      case 'participating':
        return { tag: 'groups', attrs: {}, content: this.groups.of(account).map((group) => this.groups.metadata(group)) };
      case 'create':
        if (iq.attrs.type !== 'set') return error(400, 'bad-request');
        return this.groups.metadata(this.groups.create(account.phone, request.attrs.subject ?? '', this.phones(request)));
      case 'leave':
        for (const { attrs } of getBinaryNodeChildren(request, 'group')) {
          const group = attrs.id && this.groups.get(attrs.id);
          if (group && group.members.has(account.phone)) this.groups.leave(account.phone, group.jid);
        }
        return undefined;
      case 'invite': {
        const code = request.attrs.code ?? '';
        const group = this.groups.byInviteCode(code);
        if (!group) return error(404, 'item-not-found');
        if (iq.attrs.type === 'get') return this.groups.metadata(group);
        this.groups.join(account.phone, code);
        return { tag: 'group', attrs: { jid: group.jid } };
      }
      default:
        return error(501, 'feature-not-implemented');
    }
  }

  private toGroup(iq: BinaryNode, request: BinaryNode, account: Account): BinaryNode | BinaryNode[] | undefined {
    const group = this.groups.get(iq.attrs.to ?? '');
    if (!group) return error(404, 'item-not-found');
    if (!group.members.has(account.phone)) return error(403, 'forbidden');
    if (PARTICIPANT_ACTIONS.has(request.tag)) {
      const results = this.groups.changeParticipants(account.phone, group.jid, request.tag as ParticipantAction, this.phones(request));
      return {
        tag: request.tag,
        attrs: {},
        content: results.map(({ account: member, status }) => ({
          tag: 'participant',
          attrs: { jid: member.jid('lid'), phone_number: member.jid('pn'), ...(status === '200' ? {} : { error: status }) },
        })),
      };
    }
    if (request.tag in SETTINGS) {
      this.groups.setSettings(account.phone, group.jid, SETTINGS[request.tag]!);
      return undefined;
    }
    switch (request.tag) {
      case 'query':
        return this.groups.metadata(group);
      case 'subject':
        this.groups.setSubject(account.phone, group.jid, Buffer.from((request.content as Uint8Array | undefined) ?? []).toString('utf8'));
        return undefined;
      case 'description': {
        const body = getBinaryNodeChild(request, 'body')?.content;
        const text = request.attrs.delete === 'true' ? '' : Buffer.from((body as Uint8Array | undefined) ?? []).toString('utf8');
        this.groups.setDescription(account.phone, group.jid, text);
        return undefined;
      }
      case 'invite':
        if (iq.attrs.type === 'get') {
          if (!this.groups.isAdmin(group, account)) return error(401, 'not-authorized');
          return { tag: 'invite', attrs: { code: group.inviteCode } };
        }
        return { tag: 'invite', attrs: { code: this.groups.revokeInvite(account.phone, group.jid) } };
      default:
        return error(501, 'feature-not-implemented');
    }
  }

  /** The phones a request names (`<participant jid>`), by phone jid or LID; jids the network cannot place are left out. */
  private phones(request: BinaryNode): string[] {
    return getBinaryNodeChildren(request, 'participant').flatMap(({ attrs }) => {
      const resolved = this.ctx.accounts.resolve(attrs.jid);
      return resolved ? [resolved.account.phone] : [];
    });
  }
}
