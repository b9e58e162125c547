import { builder } from '../builder.js';
import { chatFeed, CHAT_STATE_PAGE, type ChatUpdateShape } from '../chat-feed.js';
import { toGraphQLError } from '../graphql-error.js';
import { ChatType } from './chats.js';

/**
 * `chatUpdated` keeps an inbox live from its events alone (docs/graphql.md "Conversations"). A
 * forgotten chat comes as `deleted: true` with `chat: null`, as a deleted instance does in
 * `instanceUpdated`.
 */

const ChatUpdate = builder.objectRef<ChatUpdateShape>('ChatUpdate').implement({
  description: "One of the caller's chats as it is now, or the news that it was deleted.",
  fields: (t) => ({
    id: t.exposeID('id', { description: "The chat's Node id (the `id` of `chat`), present even once it is deleted." }),
    instanceId: t.exposeID('instanceId', { description: 'The instance of the chat.' }),
    chatId: t.exposeString('chatId', { description: 'The chat as REST names it: phone digits, a group id or <lid>@lid.' }),
    deleted: t.exposeBoolean('deleted', { description: 'The chat was deleted (with its messages); `chat` is null.' }),
    chat: t.field({
      type: ChatType,
      nullable: true,
      description: 'The chat as it is when the event is delivered (its unread count, newest message, state), so a client cache updates itself; null once deleted.',
      resolve: (update) => update.chat,
    }),
  }),
});

builder.subscriptionField('chatUpdated', (t) =>
  t.field({
    type: ChatUpdate,
    description: `The chats of the instance (or, without \`instanceId\`, of each of the caller's instances): first the first ${CHAT_STATE_PAGE} of each list, then every chat as it changes — a new message, its status or edit, read, archived, pinned, muted, or deleted.`,
    args: { instanceId: t.arg.id({ description: "Only this instance's chats; every instance's when omitted." }) },
    subscribe: async (_root, { instanceId }, ctx) => {
      const id = instanceId == null ? null : String(instanceId);
      try {
        const actor = await ctx.actor();
        if (id !== null) await ctx.services.instances.ownedInstance(actor, id);
        return chatFeed(ctx, actor, id);
      } catch (error) {
        throw toGraphQLError(error);
      }
    },
    resolve: (update) => update,
  }),
);
