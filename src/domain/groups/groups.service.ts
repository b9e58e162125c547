import type { Actor } from '../actor.js';
import type { Capability } from '../network/capabilities.js';
import type { InstancesService } from '../instances/instances.service.js';
import type { Ownership } from '../ownership/ownership.js';
import { NotFound } from '../errors.js';
import { actingInstance } from '../instances/acting-instance.js';
import { allValid, parseInput } from '../validation.js';
import { createGroupInput, type GroupInfo, type GroupOp, type GroupOpResult, groupIdInput, participantsInput, updateGroupInput } from './group-ops.js';

export type GroupsService = ReturnType<typeof createGroupsService>;

/** The network's invite link for a group's code. */
const inviteUrl = (code: string) => `https://chat.whatsapp.com/${code}`;

/**
 * Group management through an instance (docs/messaging.md "Groups and polls"): each operation is
 * carried out on the network by the instance's owner, and the answer is what the network answered.
 * The changes come back as groups.upsert / groups.update events like the network's own.
 */
export function createGroupsService(deps: {
  instances: Pick<InstancesService, 'ownedInstance'>;
  ownership: Pick<Ownership, 'perform'>;
  capabilitiesOf: (integration: string) => readonly Capability[];
}) {
  const connectedInstance = actingInstance(deps);

  async function run(actor: Actor, instanceId: string, op: GroupOp): Promise<GroupOpResult> {
    const instance = await connectedInstance(actor, instanceId, 'group_admin');
    const { group = {} } = await deps.ownership.perform(instance.id, { kind: 'group', group: op });
    return group;
  }
  // The id comes from the path (REST) or an argument (GraphQL): its refusal names it `groupId`.
  const groupId = (value: string) => parseInput(groupIdInput, { groupId: value }).groupId;
  const one = (result: GroupOpResult): GroupInfo => {
    if (!result.group) throw new NotFound('Group');
    return result.group;
  };

  return {
    async list(actor: Actor, instanceId: string): Promise<GroupInfo[]> {
      return (await run(actor, instanceId, { op: 'list' })).groups ?? [];
    },
    async create(actor: Actor, instanceId: string, input: unknown): Promise<GroupInfo> {
      const data = parseInput(createGroupInput, input);
      return one(await run(actor, instanceId, { op: 'create', ...data, participants: [...new Set(data.participants)] }));
    },
    async get(actor: Actor, instanceId: string, group: string): Promise<GroupInfo> {
      return one(await run(actor, instanceId, { op: 'get', group: groupId(group) }));
    },
    async update(actor: Actor, instanceId: string, group: string, input: unknown): Promise<GroupInfo> {
      const [id, data] = await allValid(() => groupId(group), () => parseInput(updateGroupInput, input));
      return one(await run(actor, instanceId, { op: 'update', group: id, ...data }));
    },
    async participants(actor: Actor, instanceId: string, group: string, input: unknown) {
      const [id, { action, phones }] = await allValid(() => groupId(group), () => parseInput(participantsInput, input));
      return (await run(actor, instanceId, { op: 'participants', group: id, action, phones: [...new Set(phones)] })).participants ?? [];
    },
    async invite(actor: Actor, instanceId: string, group: string): Promise<{ code: string; url: string }> {
      const { code } = await run(actor, instanceId, { op: 'invite', group: groupId(group) });
      if (!code) throw new NotFound('Group');
      return { code, url: inviteUrl(code) };
    },
    async leave(actor: Actor, instanceId: string, group: string): Promise<void> {
      await run(actor, instanceId, { op: 'leave', group: groupId(group) });
    },
  };
}
