import { CHAT_FILTERS, MUTED_FOREVER, type ChatRecord, type ContactRecord } from '../../domain/conversations/conversations.ports.js';
import { chatCursor, contactCursor, messageCursor } from '../../domain/conversations/cursors.js';
import { builder } from '../builder.js';
import { callsEngine } from '../cost.js';
import { DEFAULT_PAGE_SIZE, checkPageSize } from '../page-size.js';
import { chatView, contactView, type ChatView, type ContactView } from '../conversation-ids.js';
import { asGraphQLArgs, found, pageOf } from '../conversation-pages.js';
import { entityConnection } from './connections.js';
import { MessageConnection, MessageType } from './messages.js';
import { InstanceType } from './instances.js';
import { NodeInterface } from './nodes.js';

/**
 * An instance's conversations (docs/graphql.md "Conversations"): its chats, their messages and its
 * contacts, read through the conversations service as REST reads them.
 */

export const ChatKindEnum = builder.enumType('ChatKind', {
  values: { direct: { value: 'direct', description: 'With one person.' }, group: { value: 'group', description: 'A group.' } } as const,
  description: 'With one person or a group.',
});

export const ChatFilterEnum = builder.enumType('ChatFilter', {
  values: CHAT_FILTERS,
  description: 'Which chats a list shows: all, unread (unreadCount > 0), archived, groups or direct.',
});

/** An instant as the chat shows its mute: ISO, "forever", or null once it passed. */
function mutedUntilOf(chat: ChatRecord): string | null {
  const until = chat.mutedUntil;
  if (!until || until <= new Date()) return null;
  return until.getTime() >= MUTED_FOREVER.getTime() ? 'forever' : until.toISOString();
}

const instanceField = (description: string) => ({
  type: 'Instance' as const,
  description,
});

export const ChatType = builder.objectRef<ChatView>('Chat').implement({
  description: "A chat of an instance, as the phone shows it: with one person (their phone digits) or a group.",
  interfaces: [NodeInterface],
  fields: (t) => ({
    chatId: t.string({ description: 'The chat as REST names it: phone digits, a group id (<digits>@g.us), or <lid>@lid while the number is hidden.', resolve: (v) => v.chat.id }),
    instanceId: t.exposeID('instanceId', { description: 'The instance it belongs to.' }),
    instance: t.prismaField({
      ...instanceField('The instance it belongs to.'),
      resolve: (query, v, _args, ctx) => ctx.prisma.instance.findUniqueOrThrow({ ...query, where: { id: v.instanceId } }),
    }),
    kind: t.field({ type: ChatKindEnum, description: 'With one person or a group.', resolve: (v) => v.chat.kind }),
    name: t.string({ description: 'The saved contact name, else the push name, else the group subject, else the digits.', resolve: (v) => v.chat.name }),
    lastMessage: t.field({ type: MessageType, nullable: true, description: 'Its newest message; null when it has none stored.', resolve: (v) => v.chat.lastMessage as never }),
    unreadCount: t.int({ description: 'Received messages not yet read.', resolve: (v) => v.chat.unreadCount }),
    archived: t.boolean({ description: 'Archived on the phone or through the gateway.', resolve: (v) => v.chat.archived }),
    pinned: t.boolean({ description: 'Pinned: listed before the others.', resolve: (v) => v.chat.pinned }),
    mutedUntil: t.string({ nullable: true, description: 'Muted until this ISO 8601 instant, or "forever"; null when not muted.', resolve: (v) => mutedUntilOf(v.chat) }),
    updatedAt: t.field({ type: 'DateTime', description: 'When it last changed.', resolve: (v) => v.chat.updatedAt }),
    messages: t.field({
      type: MessageConnection,
      description: 'Its messages, oldest first within a page (newest last): `last` n before `before`; page back with pageInfo.startCursor while hasPreviousPage.',
      args: {
        last: t.arg.int({ description: `The newest n messages before \`before\`; ${DEFAULT_PAGE_SIZE} when omitted, at most 100.` }),
        before: t.arg.string({ description: 'A cursor from a previous page (its startCursor): the messages older than it.' }),
      },
      resolve: async (v, args, ctx) => {
        checkPageSize(args);
        const actor = await ctx.actor();
        const query = { limit: args.last ?? DEFAULT_PAGE_SIZE, ...(args.before != null ? { before: args.before } : {}) };
        const page = await asGraphQLArgs(ctx.services.conversations.messages(actor, v.instanceId, v.chat.id, query), { limit: 'last' });
        // The service pages newest first; a Relay page backwards lists its items oldest first.
        const items = [...page.items].reverse();
        const edges = items.map((message) => ({ cursor: messageCursor(message), node: message }));
        return {
          edges,
          pageInfo: { hasPreviousPage: page.next !== null, hasNextPage: false, startCursor: edges[0]?.cursor ?? null, endCursor: edges.at(-1)?.cursor ?? null },
          totalCount: () => ctx.services.conversations.messageCount(actor, v.instanceId, v.chat.id),
        } as never;
      },
    }),
  }),
});

const ContactPictureType = builder.objectRef<{ url: string; expiresAt: Date }>('ContactPicture').implement({
  description: "A contact's profile picture as the network showed it.",
  fields: (t) => ({
    url: t.exposeString('url', { description: "The network's address of the picture; it stops working after a while." }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'When this copy goes stale and is fetched again.' }),
  }),
});

export const ContactType = builder.objectRef<ContactView>('Contact').implement({
  description: "A person an instance's phone knows.",
  interfaces: [NodeInterface],
  fields: (t) => ({
    contactId: t.string({ description: 'The contact as the gateway keys it: phone digits, or <lid>@lid while only the LID is known.', resolve: (v) => v.contact.id }),
    instanceId: t.exposeID('instanceId', { description: 'The instance whose phone knows them.' }),
    instance: t.prismaField({
      ...instanceField('The instance whose phone knows them.'),
      resolve: (query, v, _args, ctx) => ctx.prisma.instance.findUniqueOrThrow({ ...query, where: { id: v.instanceId } }),
    }),
    phone: t.string({ nullable: true, description: 'Phone digits; null while the network shows only their LID.', resolve: (v) => v.contact.phone }),
    lid: t.string({ nullable: true, description: "The network's hidden id of the person, when known.", resolve: (v) => v.contact.lid }),
    name: t.string({ nullable: true, description: "The name the phone's owner saved.", resolve: (v) => v.contact.name }),
    pushName: t.string({ nullable: true, description: 'The name the person gave themselves.', resolve: (v) => v.contact.pushName }),
    onNetwork: t.boolean({ nullable: true, description: 'Whether the number has an account; null when never checked.', resolve: (v) => v.contact.onNetwork }),
    business: t.boolean({ description: 'A business account.', resolve: (v) => v.contact.business }),
    about: t.string({ nullable: true, description: 'Their about text, when fetched.', resolve: (v) => v.contact.about }),
    blocked: t.boolean({ description: 'Blocked by the linked phone.', resolve: (v) => v.contact.blocked }),
    picture: t.field({
      type: ContactPictureType,
      nullable: true,
      description: 'Their profile picture, when fetched and shown; null otherwise.',
      resolve: ({ contact }: { contact: ContactRecord }) => (contact.pictureUrl && contact.profileExpiresAt ? { url: contact.pictureUrl, expiresAt: contact.profileExpiresAt } : null),
    }),
  }),
});

export const ChatConnection = entityConnection(ChatType, 'Chat', 'chats');
export const ContactConnection = entityConnection(ContactType, 'Contact', 'contacts');

builder.objectFields(InstanceType, (t) => ({
  chats: t.field({
    type: ChatConnection,
    description: 'Its chats, pinned first, then by newest activity (as GET /v1/chat/instances/<id>/chats).',
    args: {
      first: t.arg.int({ description: `The first n chats after \`after\`; ${DEFAULT_PAGE_SIZE} when omitted, at most 100.` }),
      after: t.arg.string({ description: 'A cursor from a previous page (its endCursor): the chats after it.' }),
      filter: t.arg({ type: ChatFilterEnum, description: 'Which chats; all when omitted.' }),
      search: t.arg.string({ description: 'Only chats whose name or id contains this (at most 100 characters).' }),
    },
    resolve: async (instance, args, ctx) => {
      checkPageSize(args);
      const actor = await ctx.actor();
      const query = {
        limit: args.first ?? DEFAULT_PAGE_SIZE,
        ...(args.after != null ? { cursor: args.after } : {}),
        ...(args.filter != null ? { filter: args.filter } : {}),
        ...(args.search != null ? { search: args.search } : {}),
      };
      const page = await asGraphQLArgs(ctx.services.conversations.chats(actor, instance.id, query), { limit: 'first', cursor: 'after' });
      const { limit: _limit, cursor: _cursor, ...counted } = query;
      return pageOf(page.items.map((chat) => ({ node: chatView(chat), cursor: chatCursor(chat) })), page.next, () => ctx.services.conversations.chatCount(actor, instance.id, counted)) as never;
    },
  }),
  chat: t.field({
    type: ChatType,
    nullable: true,
    description: 'One of its chats (as GET /v1/chat/instances/<id>/chats/<chatId>); null with not_found when it has none with this id.',
    args: { chatId: t.arg.string({ required: true, description: 'Phone digits, a group id or <lid>@lid.' }) },
    resolve: async (instance, { chatId }, ctx) => chatView(await found(ctx.services.conversations.chat(await ctx.actor(), instance.id, chatId), 'Chat')),
  }),
  contacts: t.field({
    type: ContactConnection,
    description: 'The people its phone knows, by id (as GET /v1/chat/instances/<id>/contacts).',
    args: {
      first: t.arg.int({ description: `The first n contacts after \`after\`; ${DEFAULT_PAGE_SIZE} when omitted, at most 100.` }),
      after: t.arg.string({ description: 'A cursor from a previous page (its endCursor): the contacts after it.' }),
      search: t.arg.string({ description: 'Only contacts whose name, push name or phone contains this (at most 100 characters).' }),
    },
    resolve: async (instance, args, ctx) => {
      checkPageSize(args);
      const actor = await ctx.actor();
      const query = { limit: args.first ?? DEFAULT_PAGE_SIZE, ...(args.after != null ? { cursor: args.after } : {}), ...(args.search != null ? { search: args.search } : {}) };
      const page = await asGraphQLArgs(ctx.services.conversations.contacts(actor, instance.id, query), { limit: 'first', cursor: 'after' });
      const { limit: _limit, cursor: _cursor, ...counted } = query;
      return pageOf(page.items.map((contact) => ({ node: contactView(contact), cursor: contactCursor(contact.id) })), page.next, () => ctx.services.conversations.contactCount(actor, instance.id, counted)) as never;
    },
  }),
  contact: t.field({
    type: ContactType,
    nullable: true,
    // Fetches a stale profile from the network: costed as an engine call (docs/graphql.md "Cost").
    extensions: callsEngine,
    description: 'One contact by phone (as GET /v1/chat/instances/<id>/contacts/<phone>), its profile fetched from the network when stale; null with not_found when unknown.',
    args: { phone: t.arg.string({ required: true, description: 'Digits with the country code.' }) },
    resolve: async (instance, { phone }, ctx) => contactView(await found(ctx.services.conversations.contact(await ctx.actor(), instance.id, phone), 'Contact')),
  }),
}));
