import type { GroupInfo, GroupOp, GroupOpResult } from '../../domain/groups/group-ops.js';
import type { NetworkEvent } from '../../domain/network/network-events.js';
import { NetworkError, NotFound } from '../../domain/errors.js';
import type { SandboxDirectory } from './directory.js';
import { isAdmin, isMember, type SandboxGroup, type SandboxGroups } from './groups.js';
import type { SandboxReports } from './reports.js';

/** A group as the API shows it: everything but its invite code. */
export const groupInfo = ({ inviteCode: _code, ...group }: SandboxGroup): GroupInfo => group;

/** A group as groups.upsert shows it (docs/webhooks.md): people as `{phone}`. */
export const groupSummary = (group: SandboxGroup) => ({
  id: group.id,
  subject: group.subject,
  description: group.description,
  owner: { phone: group.owner },
  participants: group.participants.map(({ phone, admin }) => ({ phone, admin })),
  createdAt: group.createdAt,
});

const refused = (reason: string) => new NetworkError(`The network refused: not_authorized (${reason}).`);

/**
 * `group_admin` on the sandbox's own groups. Every change comes back to the instances of the members (and
 * of removed phones) as the network's groups.upsert / groups.update, which the domain keeps for the
 * instances whose variant has group events.
 */
export function createSandboxGroupAdmin(deps: { groups: SandboxGroups; directory: SandboxDirectory; reports: SandboxReports }) {
  const { groups, directory, reports } = deps;

  /** Tells the connected instances linked to `phones` of a change, as the network tells their devices. */
  async function tell(phones: string[], event: NetworkEvent) {
    for (const instanceId of await directory.connectedOn(phones)) await reports.once(() => reports.events.network(instanceId, event));
  }
  const phonesOf = (...lists: SandboxGroup[]) => [...new Set(lists.flatMap((group) => group.participants.map((p) => p.phone)))];

  /** The group, as a member sees it: a group the phone is not in is as unknown to it as one that does not exist. */
  async function memberOf(groupId: string, phone: string) {
    const group = await groups.get(groupId);
    if (!group || !isMember(group, phone)) throw new NotFound('Group');
    return group;
  }

  return async function manageGroup(phone: string, op: GroupOp): Promise<GroupOpResult> {
    const author = { phone };
    switch (op.op) {
      case 'list':
        return { groups: (await groups.of(phone)).map(groupInfo) };
      case 'create': {
        const group = await groups.create(phone, op.subject, op.participants, op.description ?? null);
        await tell(phonesOf(group), { event: 'groups.upsert', data: { groups: [groupSummary(group)] } });
        return { group: groupInfo(group) };
      }
      case 'get':
        return { group: groupInfo(await memberOf(op.group, phone)) };
      case 'update': {
        const { group: groupId, op: _op, ...change } = op;
        const before = await memberOf(groupId, phone);
        const settings = change.announce !== undefined || change.restrict !== undefined;
        if ((settings || before.restrict) && !isAdmin(before, phone)) throw refused("only the group's admins change it");
        const group = await groups.update(groupId, change);
        if (!group) throw new NotFound('Group');
        const told = { ...change, ...(change.description !== undefined ? { description: change.description || null } : {}) };
        await tell(phonesOf(group), { event: 'groups.update', data: { id: group.id, author, ...told } });
        return { group: groupInfo(group) };
      }
      case 'participants': {
        await memberOf(op.group, phone);
        const result = await groups.participants(op.group, op.action, op.phones, (group) => isAdmin(group, phone));
        if (!result) throw new NotFound('Group');
        if (result.refused) throw refused("only the group's admins change its participants");
        if (result.changed.length) {
          const event: NetworkEvent = { event: 'groups.update', data: { id: op.group, author, participants: { action: op.action, members: result.changed.map((p) => ({ phone: p })) } } };
          await tell(phonesOf(result.before, result.group), event);
        }
        return { participants: result.statuses };
      }
      case 'invite': {
        const group = await memberOf(op.group, phone);
        if (!isAdmin(group, phone)) throw refused("only the group's admins see its invite code");
        return { code: group.inviteCode };
      }
      case 'leave': {
        const group = await memberOf(op.group, phone);
        if (!(await groups.leave(group.id, phone))) throw new NotFound('Group');
        await tell(phonesOf(group), { event: 'groups.update', data: { id: group.id, author, participants: { action: 'remove', members: [author] } } });
        return {};
      }
    }
  };
}
