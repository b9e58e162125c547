import { type GroupInfo, PARTICIPANT_ACTIONS } from '../../domain/groups/group-ops.js';
import { builder } from '../builder.js';
import { callsEngine } from '../cost.js';
import { visible } from '../visible.js';
import { MutationPayload, type Payload, payloadOf } from './errors.js';
import { InstanceType } from './instances.js';

/**
 * Group management through an instance (docs/graphql.md "Groups"): the same service and rules as the
 * REST group paths. Another tenant's instance is as absent as an unknown one (not_found).
 */

const GroupParticipantType = builder.objectRef<GroupInfo['participants'][number]>('GroupParticipant').implement({
  description: 'A member of a group.',
  fields: (t) => ({
    phone: t.exposeString('phone', { nullable: true, description: 'Phone digits; null when the network named the member by LID alone.' }),
    lid: t.string({ nullable: true, description: "The network's hidden id of the member, when it gave one.", resolve: (p) => p.lid ?? null }),
    admin: t.string({ nullable: true, description: 'admin, superadmin (the creator) or null for a plain member.', resolve: (p) => p.admin }),
  }),
});

const GroupType = builder.objectRef<GroupInfo>('Group').implement({
  description: 'A group the linked number is in, as the network answered.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'The group id (<digits>@g.us or <digits>-<digits>@g.us).' }),
    subject: t.exposeString('subject', { description: 'Its name, 1 to 100 characters.' }),
    description: t.exposeString('description', { nullable: true, description: 'Its description; null when there is none.' }),
    owner: t.exposeString('owner', { nullable: true, description: "The creator's phone digits; null when the network named it by LID alone." }),
    participants: t.field({ type: [GroupParticipantType], description: 'Its members.', resolve: (g) => g.participants }),
    announce: t.exposeBoolean('announce', { description: 'Only admins write (announcement-only).' }),
    restrict: t.exposeBoolean('restrict', { description: "Only admins change the group's subject and description." }),
    createdAt: t.exposeString('createdAt', { nullable: true, description: 'When it was created (ISO 8601), when the network says.' }),
  }),
});

builder.objectFields(InstanceType, (t) => ({
  groups: t.field({
    type: [GroupType],
    nullable: true,
    // One network round trip per instance it is read on: costed as such (docs/graphql.md "Cost").
    extensions: callsEngine,
    description: 'The groups the linked number is in, asked of the network (as GET /v1/chat/instances/<id>/groups); an error (instance_unavailable, not_supported) leaves it null.',
    resolve: async (instance, _args, ctx) => ctx.services.groups.list(await ctx.actor(), instance.id),
  }),
  group: t.field({
    type: GroupType,
    nullable: true,
    extensions: callsEngine,
    description: 'One group, asked of the network (as GET /v1/chat/instances/<id>/groups/<groupId>); null with not_found when the number is not in it.',
    args: { id: t.arg.string({ required: true, description: 'The group id (<digits>@g.us).' }) },
    resolve: async (instance, { id }, ctx) => ctx.services.groups.get(await ctx.actor(), instance.id, id),
  }),
}));

const GroupParticipantActionEnum = builder.enumType('GroupParticipantAction', {
  values: PARTICIPANT_ACTIONS,
  description: 'add or remove members; promote to admin or demote to member.',
});

const CreateGroupInput = builder.inputType('CreateGroupInput', {
  description: 'A new group, created by the linked number (its admin).',
  fields: (t) => ({
    instanceId: t.id({ required: true, description: 'The instance.' }),
    subject: t.string({ required: true, description: '1 to 100 characters.' }),
    participants: t.stringList({ required: true, description: '1 to 256 phones, digits with the country code.' }),
    description: t.string({ description: 'At most 2048 characters.' }),
  }),
});

const UpdateGroupInput = builder.inputType('UpdateGroupInput', {
  description: 'What to change of a group; at least one of subject, description, announce, restrict.',
  fields: (t) => ({
    instanceId: t.id({ required: true, description: 'The instance.' }),
    groupId: t.string({ required: true, description: 'The group id.' }),
    subject: t.string({ description: '1 to 100 characters.' }),
    description: t.string({ description: 'At most 2048 characters.' }),
    announce: t.boolean({ description: 'Only admins write.' }),
    restrict: t.boolean({ description: 'Only admins change the subject and description.' }),
  }),
});

const GroupParticipantsInput = builder.inputType('GroupParticipantsInput', {
  description: "A change to a group's members.",
  fields: (t) => ({
    instanceId: t.id({ required: true, description: 'The instance.' }),
    groupId: t.string({ required: true, description: 'The group id.' }),
    action: t.field({ type: GroupParticipantActionEnum, required: true, description: 'What to do to each phone.' }),
    phones: t.stringList({ required: true, description: '1 to 256 phones, digits with the country code.' }),
  }),
});

const GroupActionInput = builder.inputType('GroupActionInput', {
  description: 'A group of an instance.',
  fields: (t) => ({
    instanceId: t.id({ required: true, description: 'The instance.' }),
    groupId: t.string({ required: true, description: 'The group id.' }),
  }),
});

const GroupPayload = builder.objectRef<Payload<{ group: GroupInfo }>>('GroupPayload').implement({
  description: 'The group as the network answered, or why nothing changed.',
  interfaces: [MutationPayload],
  fields: (t) => ({ group: t.field({ type: GroupType, nullable: true, description: 'The group; null when refused.', resolve: (p) => p.group ?? null }) }),
});

const ParticipantResultType = builder.objectRef<{ phone: string; status: string }>('GroupParticipantResult').implement({
  description: "The network's answer for one phone of a participants change.",
  fields: (t) => ({
    phone: t.exposeString('phone', { description: 'The phone.' }),
    status: t.exposeString('status', { description: 'ok, or the reason the network gave (already_member, not_member, forbidden, not_on_network, …).' }),
  }),
});

const GroupParticipantsPayload = builder.objectRef<Payload<{ results: Array<{ phone: string; status: string }> }>>('GroupParticipantsPayload').implement({
  description: 'A result per phone, or why nothing was asked of the network.',
  interfaces: [MutationPayload],
  fields: (t) => ({ results: t.field({ type: [ParticipantResultType], nullable: true, description: 'One per phone, as the network answered; null when refused.', resolve: (p) => p.results ?? null }) }),
});

const GroupInviteType = builder.objectRef<{ code: string; url: string }>('GroupInvite').implement({
  description: "A group's invite code and its link.",
  fields: (t) => ({
    code: t.exposeString('code', { description: 'The invite code.' }),
    url: t.exposeString('url', { description: 'The link that joins by it.' }),
  }),
});

const GroupInvitePayload = builder.objectRef<Payload<{ invite: { code: string; url: string } }>>('GroupInvitePayload').implement({
  description: "The group's invite code, or why there is none.",
  interfaces: [MutationPayload],
  fields: (t) => ({ invite: t.field({ type: GroupInviteType, nullable: true, description: 'The code and link; null when refused.', resolve: (p) => p.invite ?? null }) }),
});

const LeaveGroupPayload = builder.objectRef<Payload<{ done: true }>>('LeaveGroupPayload').implement({
  description: 'Whether the number left the group.',
  interfaces: [MutationPayload],
  fields: (t) => ({ done: t.boolean({ description: 'True once the network took it; false when refused (see userErrors).', resolve: (p) => p.done === true }) }),
});

/** A group operation as a mutation runs it: refusals are userErrors, another tenant's instance not_found. */
const groupWork = <T extends object>(work: () => Promise<T>) => payloadOf(() => visible(work(), 'Instance'));

builder.mutationField('createGroup', (t) =>
  t.field({
    type: GroupPayload,
    description: 'Same rules as POST /v1/chat/instances/<id>/groups.',
    args: { input: t.arg({ type: CreateGroupInput, required: true, description: 'The group.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      const { instanceId, description, ...body } = input;
      return groupWork(async () => ({ group: await ctx.services.groups.create(actor, String(instanceId), { ...body, ...(description != null ? { description } : {}) }) }));
    },
  }),
);

builder.mutationField('updateGroup', (t) =>
  t.field({
    type: GroupPayload,
    description: 'Same rules as PATCH /v1/chat/instances/<id>/groups/<groupId>.',
    args: { input: t.arg({ type: UpdateGroupInput, required: true, description: 'The changes.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      const { instanceId, groupId, ...changes } = input;
      const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value != null));
      return groupWork(async () => ({ group: await ctx.services.groups.update(actor, String(instanceId), groupId, given) }));
    },
  }),
);

builder.mutationField('changeGroupParticipants', (t) =>
  t.field({
    type: GroupParticipantsPayload,
    description: 'Same rules as POST /v1/chat/instances/<id>/groups/<groupId>/participants.',
    args: { input: t.arg({ type: GroupParticipantsInput, required: true, description: 'The change.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      const { instanceId, groupId, action, phones } = input;
      return groupWork(async () => ({ results: await ctx.services.groups.participants(actor, String(instanceId), groupId, { action, phones }) }));
    },
  }),
);

builder.mutationField('groupInviteCode', (t) =>
  t.field({
    type: GroupInvitePayload,
    description: 'Same rules as GET /v1/chat/instances/<id>/groups/<groupId>/invite: the network makes a code when the group has none.',
    args: { input: t.arg({ type: GroupActionInput, required: true, description: 'The group.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      return groupWork(async () => ({ invite: await ctx.services.groups.invite(actor, String(input.instanceId), input.groupId) }));
    },
  }),
);

builder.mutationField('leaveGroup', (t) =>
  t.field({
    type: LeaveGroupPayload,
    description: 'Same rules as POST /v1/chat/instances/<id>/groups/<groupId>/leave.',
    args: { input: t.arg({ type: GroupActionInput, required: true, description: 'The group.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      return groupWork(async () => (await ctx.services.groups.leave(actor, String(input.instanceId), input.groupId), { done: true as const }));
    },
  }),
);
