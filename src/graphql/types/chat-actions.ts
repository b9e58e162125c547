import type { ChatAction } from '../../domain/conversations/conversations.service.js';
import { builder } from '../builder.js';
import { chatNodeId, chatView, contactView, type ChatView, type ContactView } from '../conversation-ids.js';
import { visible } from '../visible.js';
import { ChatType, ContactType } from './chats.js';
import { MutationPayload, type Payload, payloadOf } from './errors.js';

/**
 * The chat and contact actions (docs/graphql.md "Conversations"): the same service and rules as the
 * REST paths. Each answers with the chat or contact as it is now, so a client cache updates itself;
 * another tenant's instance is as absent as an unknown one (not_found).
 */

const ChatActionInput = builder.inputType('ChatActionInput', {
  description: 'A chat of an instance.',
  fields: (t) => ({
    instanceId: t.id({ required: true, description: 'The instance.' }),
    chatId: t.string({ required: true, description: 'Phone digits, a group id (<digits>@g.us) or <lid>@lid.' }),
  }),
});

const MuteChatInput = builder.inputType('MuteChatInput', {
  description: 'A chat to mute, and until when.',
  fields: (t) => ({
    instanceId: t.id({ required: true, description: 'The instance.' }),
    chatId: t.string({ required: true, description: 'Phone digits, a group id (<digits>@g.us) or <lid>@lid.' }),
    until: t.string({ required: true, description: 'An ISO 8601 instant in the future, or "forever".' }),
  }),
});

const RequestChatHistoryInput = builder.inputType('RequestChatHistoryInput', {
  description: 'A chat whose older messages to ask the phone for.',
  fields: (t) => ({
    instanceId: t.id({ required: true, description: 'The instance (connected, on an engine with the history capability).' }),
    chatId: t.string({ required: true, description: 'Phone digits, a group id (<digits>@g.us) or <lid>@lid.' }),
    count: t.int({ description: 'How many older messages, 1 to 500; 50 when omitted.' }),
  }),
});

const ContactActionInput = builder.inputType('ContactActionInput', {
  description: 'A person, by phone, as an instance knows them.',
  fields: (t) => ({
    instanceId: t.id({ required: true, description: 'The instance.' }),
    phone: t.string({ required: true, description: 'Digits with the country code.' }),
  }),
});

const ChatPayload = builder.objectRef<Payload<{ chat: ChatView }>>('ChatPayload').implement({
  description: 'The chat as it is after the action, or why nothing changed.',
  interfaces: [MutationPayload],
  fields: (t) => ({ chat: t.field({ type: ChatType, nullable: true, description: 'The chat; null when refused.', resolve: (p) => p.chat ?? null }) }),
});

const DeleteChatPayload = builder.objectRef<Payload<{ deletedChatId: string }>>('DeleteChatPayload').implement({
  description: 'The Node id of the chat forgotten, or why nothing was.',
  interfaces: [MutationPayload],
  fields: (t) => ({
    deletedChatId: t.id({ nullable: true, description: 'The Node id of the chat, gone with its messages (remove it from a cached list); null when refused.', resolve: (p) => p.deletedChatId ?? null }),
  }),
});

const RequestChatHistoryPayload = builder.objectRef<Payload<{ requested: true }>>('RequestChatHistoryPayload').implement({
  description: 'Whether the phone was asked; the messages arrive later, as history.',
  interfaces: [MutationPayload],
  fields: (t) => ({ requested: t.boolean({ description: 'True once the phone was asked; false when refused (see userErrors).', resolve: (p) => p.requested === true }) }),
});

const ContactPayload = builder.objectRef<Payload<{ contact: ContactView }>>('ContactPayload').implement({
  description: 'The contact as it is after the action, or why nothing changed.',
  interfaces: [MutationPayload],
  fields: (t) => ({ contact: t.field({ type: ContactType, nullable: true, description: 'The contact; null when refused.', resolve: (p) => p.contact ?? null }) }),
});

/** A conversation action as a mutation runs it: refusals are userErrors, another tenant's instance not_found. */
const conversationWork = <T extends object>(work: () => Promise<T>) => payloadOf(() => visible(work(), 'Instance'));

const CHAT_ACTIONS: Array<{ name: string; action: Exclude<ChatAction, 'mute'>; description: string }> = [
  { name: 'markChatRead', action: 'read', description: 'Same rules as POST /v1/chat/instances/<id>/chats/<chatId>/read: unread count 0, its received messages read (the phone is told when it can be).' },
  { name: 'markChatUnread', action: 'unread', description: 'Same rules as POST /v1/chat/instances/<id>/chats/<chatId>/unread: marked unread, as a phone does.' },
  { name: 'archiveChat', action: 'archive', description: 'Same rules as POST /v1/chat/instances/<id>/chats/<chatId>/archive.' },
  { name: 'unarchiveChat', action: 'unarchive', description: 'Same rules as POST /v1/chat/instances/<id>/chats/<chatId>/unarchive.' },
  { name: 'pinChat', action: 'pin', description: 'Same rules as POST /v1/chat/instances/<id>/chats/<chatId>/pin.' },
  { name: 'unpinChat', action: 'unpin', description: 'Same rules as POST /v1/chat/instances/<id>/chats/<chatId>/unpin.' },
  { name: 'unmuteChat', action: 'unmute', description: 'Same rules as POST /v1/chat/instances/<id>/chats/<chatId>/unmute.' },
];

for (const { name, action, description } of CHAT_ACTIONS) {
  builder.mutationField(name, (t) =>
    t.field({
      type: ChatPayload,
      description,
      args: { input: t.arg({ type: ChatActionInput, required: true, description: 'The chat.' }) },
      resolve: async (_root, { input }, ctx) => {
        const actor = await ctx.actor();
        return conversationWork(async () => ({ chat: chatView(await ctx.services.conversations.act(actor, String(input.instanceId), input.chatId, action)) }));
      },
    }),
  );
}

builder.mutationField('muteChat', (t) =>
  t.field({
    type: ChatPayload,
    description: 'Same rules as POST /v1/chat/instances/<id>/chats/<chatId>/mute.',
    args: { input: t.arg({ type: MuteChatInput, required: true, description: 'The chat and until when.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      return conversationWork(async () => ({ chat: chatView(await ctx.services.conversations.act(actor, String(input.instanceId), input.chatId, 'mute', { until: input.until })) }));
    },
  }),
);

builder.mutationField('deleteChat', (t) =>
  t.field({
    type: DeleteChatPayload,
    description: 'Same rules as DELETE /v1/chat/instances/<id>/chats/<chatId>: forgets the chat and its messages here (the phone keeps them).',
    args: { input: t.arg({ type: ChatActionInput, required: true, description: 'The chat.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      const instanceId = String(input.instanceId);
      return conversationWork(async () => {
        await ctx.services.conversations.deleteChat(actor, instanceId, input.chatId);
        return { deletedChatId: chatNodeId(instanceId, input.chatId.replace(/^\+/, '')) };
      });
    },
  }),
);

builder.mutationField('requestChatHistory', (t) =>
  t.field({
    type: RequestChatHistoryPayload,
    description: 'Same rules as POST /v1/chat/instances/<id>/chats/<chatId>/history: asks the phone for older messages of the chat.',
    args: { input: t.arg({ type: RequestChatHistoryInput, required: true, description: 'The chat and how many.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      const body = input.count != null ? { count: input.count } : {};
      return conversationWork(async () => (await ctx.services.conversations.backfill(actor, String(input.instanceId), input.chatId, body), { requested: true as const }));
    },
  }),
);

for (const [name, blocked] of [['blockContact', true], ['unblockContact', false]] as const) {
  builder.mutationField(name, (t) =>
    t.field({
      type: ContactPayload,
      description: `Same rules as POST /v1/chat/instances/<id>/contacts/<phone>/${blocked ? 'block' : 'unblock'}.`,
      args: { input: t.arg({ type: ContactActionInput, required: true, description: 'The person.' }) },
      resolve: async (_root, { input }, ctx) => {
        const actor = await ctx.actor();
        return conversationWork(async () => ({ contact: contactView(await ctx.services.conversations.block(actor, String(input.instanceId), input.phone, blocked)) }));
      },
    }),
  );
}
