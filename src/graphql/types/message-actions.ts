import { CAPABILITIES } from '../../domain/network/capabilities.js';
import { PRESENCE_STATES, type NumberCheck } from '../../domain/network/engine.port.js';
import type { Integration } from '../../domain/network/integrations.js';
import type { MessageRecord } from '../../domain/messages/messages.ports.js';
import { builder } from '../builder.js';
import { MutationPayload, type Payload, payloadOf } from './errors.js';

/** Actions on an instance's messages and chats (docs/messaging.md): the same services as the REST paths. */

const CapabilityEnum = builder.enumType('Capability', { values: CAPABILITIES, description: 'Something an engine can carry (docs/messaging.md).' });

const IntegrationType = builder.objectRef<Integration>('Integration').implement({
  description: 'A chat network engine this gateway offers, and what it can carry.',
  fields: (t) => ({
    integration: t.exposeString('integration', { description: 'e.g. CHAT-SANDBOX; what `integration` of an instance names.' }),
    capabilities: t.field({ type: [CapabilityEnum], description: 'What it can carry; anything else is refused with not_supported.', resolve: (i) => i.capabilities }),
  }),
});

builder.queryField('integrations', (t) =>
  t.field({
    type: [IntegrationType],
    description: 'The chat network engines this gateway offers (ENGINES), the default for new instances first, each with its capabilities.',
    resolve: async (_root, _args, ctx) => {
      await ctx.actor();
      return ctx.services.integrations();
    },
  }),
);

const PresenceStateEnum = builder.enumType('PresenceState', { values: PRESENCE_STATES, description: 'typing (composing), recording a voice note, stopped (paused), online (available) or away (unavailable).' });

const MessageActionInput = builder.inputType('MessageActionInput', {
  description: 'A message of an instance.',
  fields: (t) => ({
    instanceId: t.id({ required: true, description: 'The instance.' }),
    messageId: t.id({ required: true, description: 'One of its messages.' }),
  }),
});

const EditMessageInput = builder.inputType('EditMessageInput', {
  description: 'A new text for a text (or caption) this instance sent, within 15 minutes of sending.',
  fields: (t) => ({
    instanceId: t.id({ required: true, description: 'The instance.' }),
    messageId: t.id({ required: true, description: 'The message it sent.' }),
    text: t.string({ required: true, description: '1 to 4096 characters.' }),
  }),
});

const SendPresenceInput = builder.inputType('SendPresenceInput', {
  description: 'What a chat (or, for available/unavailable, the network) is told of the user.',
  fields: (t) => ({
    instanceId: t.id({ required: true, description: 'The instance.' }),
    chat: t.string({ required: true, description: 'Phone digits or a group id.' }),
    state: t.field({ type: PresenceStateEnum, required: true, description: 'The state.' }),
  }),
});

const CheckNumbersInput = builder.inputType('CheckNumbersInput', {
  description: 'Phones to look up on the network.',
  fields: (t) => ({
    instanceId: t.id({ required: true, description: 'The instance that asks.' }),
    phones: t.stringList({ required: true, description: '1 to 50 phones, digits with the country code.' }),
  }),
});

const EditMessagePayload = builder.objectRef<Payload<{ edited: MessageRecord }>>('EditMessagePayload').implement({
  description: 'The edited message, or why it was not edited.',
  interfaces: [MutationPayload],
  fields: (t) => ({
    message: t.prismaField({
      type: 'Message',
      nullable: true,
      description: 'The message with its new text; null when refused.',
      resolve: (query, { edited }, _args, ctx) => (edited ? ctx.prisma.message.findUnique({ ...query, where: { id: edited.id } }) : null),
    }),
  }),
});

const DonePayload = builder.objectRef<Payload<{ done: true }>>('MessageActionPayload').implement({
  description: 'Whether the action happened on the network.',
  interfaces: [MutationPayload],
  fields: (t) => ({ done: t.boolean({ description: 'True once the network took it; false when refused (see userErrors).', resolve: (p) => p.done === true }) }),
});

const NumberCheckType = builder.objectRef<NumberCheck>('NumberCheck').implement({
  description: 'Whether a phone has an account on the network.',
  fields: (t) => ({
    phone: t.exposeString('phone', { description: 'The phone asked about.' }),
    exists: t.exposeBoolean('exists', { description: 'Whether it has an account.' }),
    lid: t.string({ nullable: true, description: "The network's hidden id of the account, when it gave one.", resolve: (n) => n.lid ?? null }),
  }),
});

const CheckNumbersPayload = builder.objectRef<Payload<{ numbers: NumberCheck[] }>>('CheckNumbersPayload').implement({
  description: 'The answer for each phone, or why there is none.',
  interfaces: [MutationPayload],
  fields: (t) => ({ numbers: t.field({ type: [NumberCheckType], nullable: true, description: 'One per phone, in the order asked; null when refused.', resolve: (p) => p.numbers ?? null }) }),
});

builder.mutationField('editMessage', (t) =>
  t.field({
    type: EditMessagePayload,
    description: 'Same rules as PATCH /v1/chat/instances/<id>/messages/<messageId>.',
    args: { input: t.arg({ type: EditMessageInput, required: true, description: 'The edit.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      return payloadOf(async () => ({ edited: await ctx.services.messageActions.edit(actor, String(input.instanceId), String(input.messageId), { text: input.text }) }));
    },
  }),
);

builder.mutationField('deleteMessage', (t) =>
  t.field({
    type: DonePayload,
    description: 'Same rules as DELETE /v1/chat/instances/<id>/messages/<messageId>: deletes a sent message for everyone.',
    args: { input: t.arg({ type: MessageActionInput, required: true, description: 'The message.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      return payloadOf(async () => (await ctx.services.messageActions.deleteForEveryone(actor, String(input.instanceId), String(input.messageId)), { done: true as const }));
    },
  }),
);

builder.mutationField('markMessageRead', (t) =>
  t.field({
    type: DonePayload,
    description: 'Same rules as POST /v1/chat/instances/<id>/messages/<messageId>/read.',
    args: { input: t.arg({ type: MessageActionInput, required: true, description: 'The received message.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      return payloadOf(async () => (await ctx.services.messageActions.markRead(actor, String(input.instanceId), String(input.messageId)), { done: true as const }));
    },
  }),
);

builder.mutationField('sendPresence', (t) =>
  t.field({
    type: DonePayload,
    description: 'Same rules as POST /v1/chat/instances/<id>/chats/<chat>/presence.',
    args: { input: t.arg({ type: SendPresenceInput, required: true, description: 'The chat and the state.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      return payloadOf(async () => (await ctx.services.messageActions.presence(actor, String(input.instanceId), input.chat, { state: input.state }), { done: true as const }));
    },
  }),
);

builder.mutationField('checkNumbers', (t) =>
  t.field({
    type: CheckNumbersPayload,
    description: 'Same rules as POST /v1/chat/instances/<id>/contacts/check.',
    args: { input: t.arg({ type: CheckNumbersInput, required: true, description: 'The phones.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      return payloadOf(async () => ({ numbers: await ctx.services.messageActions.checkNumbers(actor, String(input.instanceId), { phones: input.phones }) }));
    },
  }),
);
