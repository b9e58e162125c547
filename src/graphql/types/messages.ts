import { MEDIA_TYPES, MESSAGE_DIRECTIONS, MESSAGE_MODES, MESSAGE_STATUSES, MESSAGE_TYPES } from '../../domain/messages/message-values.js';
import { type GraphQLResolveInfo, Kind } from 'graphql';
import type { JsonValue, MessageRecord, SendResult } from '../../domain/messages/messages.ports.js';
import type { InboundContact } from '../../domain/network/engine-messages.js';
import { type MessageError, messageErrorOf } from '../../domain/messages/message-error.js';
import { kindFields, messageMedia } from '../../domain/messages/message-fields.js';
import { signMedia } from '../../domain/media/signed-media.js';
import { Invalid } from '../../domain/errors.js';
import { isUuid } from '../../infra/db/prisma-errors.js';
import { builder } from '../builder.js';
import { messageList } from '../../infra/db/list-scopes.js';
import { checkPageSize } from '../page-size.js';
import { visible } from '../visible.js';
import { entityConnection } from './connections.js';
import { MutationPayload, type Payload, payloadOf } from './errors.js';
import { NodeInterface } from './nodes.js';
import { ContactCardInput, LocationInput, MediaFileInput, PollInput, ReactionInput, SendMediaTypeEnum } from './message-kinds.js';

export const MessageStatusEnum = builder.enumType('MessageStatus', {
  values: MESSAGE_STATUSES,
  description: 'Where a message is: queued → sent → delivered → read, or failed.',
});
const MessageModeEnum = builder.enumType('MessageMode', {
  values: MESSAGE_MODES,
  description: 'test: sent with a test key (text prefixed [TEST], counted against the test quota); production otherwise.',
});
const MessageDirectionEnum = builder.enumType('MessageDirection', {
  values: MESSAGE_DIRECTIONS,
  description: 'out: sent through the gateway; in: received from the chat network.',
});
const MessageTypeEnum = builder.enumType('MessageType', { values: MESSAGE_TYPES, description: 'What the message carries.' });
const MediaTypeEnum = builder.enumType('MediaType', { values: MEDIA_TYPES, description: 'The kind of media send-media takes.' });

const MessageErrorType = builder.objectRef<MessageError>('MessageError').implement({
  description: 'Why a message failed, for a program to act on.',
  fields: (t) => ({
    code: t.exposeString('code', {
      description: "Stable: the API's own code on CHAT-CLOUD (\"131047\": outside the 24-hour window, send a template); elsewhere expired, template_unsupported, media_unavailable or network_refused.",
    }),
    message: t.exposeString('message', { description: 'What went wrong, in words.' }),
  }),
});

const MessageTimestamps = builder
  .objectRef<Pick<MessageRecord, 'queuedAt' | 'sentAt' | 'deliveredAt' | 'readAt' | 'failedAt'>>('MessageTimestamps')
  .implement({
    description: 'When the message reached each status; null for a status it has not reached.',
    fields: (t) => ({
      queued: t.expose('queuedAt', { type: 'DateTime', nullable: true, description: 'Accepted by the gateway.' }),
      sent: t.expose('sentAt', { type: 'DateTime', nullable: true, description: 'Handed to the chat network.' }),
      delivered: t.expose('deliveredAt', { type: 'DateTime', nullable: true, description: "Reached the recipient's phone." }),
      read: t.expose('readAt', { type: 'DateTime', nullable: true, description: 'Read by the recipient.' }),
      failed: t.expose('failedAt', { type: 'DateTime', nullable: true, description: 'Given up on; see `error`.' }),
    }),
  });

const MediaKeepErrorType = builder.objectRef<{ code: string; message: string }>('MediaKeepError').implement({
  description: 'Why the gateway could not keep a file (the message itself is kept and served as before).',
  fields: (t) => ({
    code: t.exposeString('code', { description: 'media_too_large, media_store_failed, media_expired, media_invalid, media_unavailable or media_missing.' }),
    message: t.exposeString('message', { description: 'What went wrong, in words.' }),
  }),
});

type SignedMedia = NonNullable<ReturnType<typeof messageMedia>> & { expiresAt: string };

const MessageMedia = builder.objectRef<SignedMedia>('MessageMedia').implement({
  description: 'A file a message carries: received or sent; kept by the gateway when `stored`.',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'image, video, audio, document or sticker.' }),
    mimetype: t.exposeString('mimetype', { nullable: true, description: 'Its MIME type; null for a sent file whose type was not recorded.' }),
    size: t.exposeInt('size', { nullable: true, description: 'Bytes of the file, when known.' }),
    caption: t.exposeString('caption', { nullable: true, description: 'The caption sent with it.' }),
    fileName: t.exposeString('fileName', { nullable: true, description: "The sender's name for it, when it gave one." }),
    url: t.exposeString('url', {
      description: 'A signed link, GET it without a key until `expiresAt` (an <img> or <audio> can use it): /media/<id>?expires=…&signature=…, relative to the gateway unless PUBLIC_URL is set.',
    }),
    expiresAt: t.field({ type: 'DateTime', description: 'When `url` stops working (MEDIA_LINK_TTL after the answer, rounded up to a minute).', resolve: (m) => new Date(m.expiresAt) }),
    stored: t.exposeBoolean('stored', { description: 'Whether the gateway keeps its bytes (served from its store; byte ranges too).' }),
    sha256: t.exposeString('sha256', { nullable: true, description: 'SHA-256 (hex) of the kept bytes; null unless stored.' }),
    error: t.field({ type: MediaKeepErrorType, nullable: true, description: 'Why keeping it failed; null unless it did.', resolve: (m) => m.error ?? null }),
  }),
});
const MessageContact = builder.objectRef<InboundContact>('MessageContact').implement({
  description: 'A contact card received.',
  fields: (t) => ({ displayName: t.exposeString('displayName', { description: 'The name the card shows.' }), vcard: t.exposeString('vcard', { description: 'vCard 3.0 as the sender made it.' }) }),
});
const MessageReference = builder.objectRef<{ messageId: string | null; networkMessageId: string }>('MessageReference').implement({
  description: 'Another message, named by the network: messageId is null when the gateway does not have it.',
  fields: (t) => ({
    messageId: t.exposeString('messageId', { nullable: true, description: "The gateway's id of the message; null when it does not have it." }),
    networkMessageId: t.exposeString('networkMessageId', { description: "The network's id of the message." }),
  }),
});
const MessageReaction = builder.objectRef<{ emoji: string; messageId: string | null; networkMessageId: string }>('MessageReaction').implement({
  description: "A reaction received: the emoji ('' takes it back) and the message reacted to.",
  fields: (t) => ({
    emoji: t.exposeString('emoji', { description: "The emoji; '' when the reaction was taken back." }),
    messageId: t.exposeString('messageId', { nullable: true, description: "The gateway's id of the message reacted to; null when it does not have it." }),
    networkMessageId: t.exposeString('networkMessageId', { description: "The network's id of the message reacted to." }),
  }),
});

const PollOption = builder.objectRef<{ name: string; votes: number; voters: string[] }>('PollOption').implement({
  description: "A poll's option and who chose it.",
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The option.' }),
    votes: t.exposeInt('votes', { description: 'How many chose it.' }),
    voters: t.exposeStringList('voters', { description: 'Phone digits of those who chose it.' }),
  }),
});
const Poll = builder.objectRef<{ name: string; selectableCount: number; options: Array<{ name: string; votes: number; voters: string[] }> }>('Poll').implement({
  description: 'A poll with its current tally.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The question.' }),
    selectableCount: t.exposeInt('selectableCount', { description: 'How many options a voter may choose.' }),
    options: t.field({ type: [PollOption], description: 'Each option with its votes.', resolve: (poll) => poll.options }),
  }),
});
const MessageGroup = builder.objectRef<{ id: string; subject: string | null }>('MessageGroup').implement({
  description: 'The group a message was written in.',
  fields: (t) => ({ id: t.exposeString('id', { description: 'The group id (<digits>@g.us).' }), subject: t.exposeString('subject', { nullable: true, description: "The group's subject, when known." }) }),
});
const MessageLocation = builder.objectRef<{ latitude?: number; longitude?: number; name?: string; address?: string }>('MessageLocation').implement({
  description: 'A point on the map.',
  fields: (t) => ({
    latitude: t.float({ nullable: true, description: '-90 to 90.', resolve: (l) => l.latitude ?? null }),
    longitude: t.float({ nullable: true, description: '-180 to 180.', resolve: (l) => l.longitude ?? null }),
    name: t.string({ nullable: true, description: 'A place name.', resolve: (l) => l.name ?? null }),
    address: t.string({ nullable: true, description: 'Its address.', resolve: (l) => l.address ?? null }),
  }),
});

export const MessageType = builder.prismaObject('Message', {
  description: 'A message sent through the gateway or received by one of its instances.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    to: t.exposeString('to', { description: 'The recipient: digits with the country code, as sent.' }),
    from: t.exposeString('from', { nullable: true, description: 'The sender of a received message; null for sent ones.' }),
    direction: t.expose('direction', { type: MessageDirectionEnum, description: 'Sent or received.' }),
    networkMessageId: t.exposeString('networkMessageId', { nullable: true, description: "The chat network's own id of it, once it has one; webhooks and answers use `id`." }),
    type: t.field({ type: MessageTypeEnum, description: 'What it carries.', resolve: (m) => m.type as (typeof MESSAGE_TYPES)[number] }),
    text: t.exposeString('text', { nullable: true, description: 'The text as the recipient sees it; null for media without text.' }),
    mediaUrl: t.exposeString('mediaUrl', { nullable: true, description: 'Where its media was fetched from.' }),
    caption: t.exposeString('caption', { nullable: true, description: "The media's caption." }),
    media: t.field({ type: MessageMedia, nullable: true, description: 'Its file, received or sent; null for none.', resolve: (m, _args, ctx) => {
        const media = messageMedia(m as MessageRecord);
        return media && signMedia(media, (m as MessageRecord).id, ctx.services.mediaLinks);
      },
    }),
    contacts: t.field({ type: [MessageContact], nullable: true, description: 'Contact cards received; null for other messages.', resolve: (m) => m.contacts as InboundContact[] | null }),
    reaction: t.field({ type: MessageReaction, nullable: true, description: 'A reaction, sent or received; null for other messages.', resolve: (m) => kindFields(m as MessageRecord).reaction ?? null }),
    quoted: t.field({ type: MessageReference, nullable: true, description: 'The message a reply quotes.', resolve: (m) => kindFields(m as MessageRecord).quoted ?? null }),
    location: t.field({ type: MessageLocation, nullable: true, description: 'A location message\'s point; null for other messages.', resolve: (m) => m.location as never }),
    mentions: t.stringList({ nullable: true, description: 'Phones the text names as @<digits>.', resolve: (m) => m.mentions as string[] | null }),
    poll: t.field({ type: Poll, nullable: true, description: 'A poll with its current tally; null for other messages.', resolve: (m) => m.poll as never }),
    group: t.field({ type: MessageGroup, nullable: true, description: 'The group of a group message; null for direct ones.', resolve: (m) => m.group as never }),
    editedAt: t.expose('editedAt', { type: 'DateTime', nullable: true, description: 'When the text was last edited; null when never.' }),
    deletedAt: t.expose('deletedAt', { type: 'DateTime', nullable: true, description: 'When it was deleted for everyone; null when it was not.' }),
    fromLid: t.exposeString('fromLid', { nullable: true, description: "The sender's LID when the network hid its phone number and no mapping was known (`from` is then null)." }),
    status: t.expose('status', { type: MessageStatusEnum, description: 'Where it is now.' }),
    mode: t.expose('mode', { type: MessageModeEnum, description: 'Sent with a test or a live key.' }),
    instanceId: t.exposeString('instanceId', { nullable: true, description: 'The instance carrying it; null while a routed message waits for one.' }),
    chatId: t.exposeString('chatId', { nullable: true, description: 'The chat it belongs to (phone digits, a group id or <lid>@lid); null while a routed message waits for an instance.' }),
    history: t.exposeBoolean('history', { description: "Taken from the phone's history sync (never announced as a new message)." }),
    instance: t.relation('instance', { nullable: true, description: 'The instance carrying it; null while a routed message waits for one.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the gateway accepted it.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    timestamps: t.field({ type: MessageTimestamps, description: 'When it reached each status.', resolve: (message) => message }),
    error: t.field({ type: MessageErrorType, nullable: true, description: 'Why it failed; null unless failed.', resolve: (m) => messageErrorOf(m.error as JsonValue) }),
  }),
});

export const MessageConnection = entityConnection(MessageType, 'Message', 'messages');

const MessageFilter = builder.inputType('MessageFilter', {
  description: 'Narrows a message list; every field given must match.',
  fields: (t) => ({
    instanceId: t.id({ description: 'Only the messages of this instance.' }),
    status: t.field({ type: MessageStatusEnum, description: 'Only messages in this status.' }),
    since: t.field({ type: 'DateTime', description: 'Only messages accepted at or after this instant.' }),
  }),
});

function checkedFilter(filter: typeof MessageFilter.$inferInput | null | undefined) {
  if (filter?.instanceId != null && !isUuid(String(filter.instanceId))) throw Invalid.at('filter.instanceId', 'must be an instance id');
  return filter ?? {};
}

builder.queryField('messages', (t) =>
  t.prismaConnection(
    {
      type: 'Message',
      cursor: 'id',
      description: "The tenant's messages, newest first.",
      args: { filter: t.arg({ type: MessageFilter, description: 'Only the messages that match.' }) },
      resolve: async (query, _root, args, ctx) => {
        checkPageSize(args);
        return ctx.prisma.message.findMany({ ...query, ...messageList((await ctx.actor()).tenantId, checkedFilter(args.filter)) });
      },
      totalCount: async (_connection, args, ctx) =>
        ctx.prisma.message.count({ where: messageList((await ctx.actor()).tenantId, checkedFilter(args.filter)).where }),
    },
    MessageConnection,
  ),
);

builder.queryField('message', (t) =>
  t.field({
    type: MessageType,
    nullable: true,
    description: "One of the tenant's messages; null with a not_found error when there is none.",
    args: { id: t.arg.id({ required: true, description: 'The message id.' }) },
    resolve: async (_root, { id }, ctx) => visible(ctx.services.messages.get(await ctx.actor(), String(id)), 'Message'),
  }),
);

/** Send mutations answer with the stored message (its status, mode and timestamps). */
/** What the send itself knows of the message it accepted: enough for a client that asks only this, without reading it back. */
const KNOWN_AT_SEND = new Set(['__typename', 'id', 'status', 'mode', 'createdAt']);

function asksOnly(info: GraphQLResolveInfo, known: Set<string>): boolean {
  return info.fieldNodes.every((node) => node.selectionSet?.selections.every((s) => s.kind === Kind.FIELD && known.has(s.name.value)) ?? true);
}

const SendPayload = builder.objectRef<Payload<{ sent: SendResult }>>('SendMessagePayload').implement({
  description: 'The answer of a send: the accepted message, or why it was refused.',
  interfaces: [MutationPayload],
  fields: (t) => ({
    // A plain field, not a prismaField: that would plan a Prisma selection from the document on every
    // send, and the hot path below reads nothing. A client asking for relations has them loaded by type.
    message: t.field({
      type: MessageType,
      nullable: true,
      description: 'The accepted message as it was accepted (the same one on a replay with the same idempotency key); null when refused.',
      resolve: ({ sent }, _args, ctx, info) => {
        if (!sent) return null;
        // The hot path: the answer a REST send gives, with no read (status as accepted, as REST shows it).
        if (asksOnly(info, KNOWN_AT_SEND)) return { id: sent.id, status: sent.status, mode: sent.mode, createdAt: new Date(sent.timestamp) } as MessageRecord;
        return ctx.prisma.message.findUnique({ where: { id: sent.id } });
      },
    }),
  }),
});

const idempotencyKeyField = 'The same key with the same input answers with the first message instead of sending again (24 h).';

export const TemplateInput = builder.inputType('TemplateInput', {
  description: 'A pre-approved template of the business API (CHAT-CLOUD): the only kind of message it delivers outside the 24-hour window.',
  fields: (t) => ({
    name: t.string({ required: true, description: "The template's name: lowercase letters, digits and underscores." }),
    language: t.string({ required: true, description: 'Its language code, e.g. en or en_US.' }),
    components: t.field({ type: ['JSON'], description: 'Header, body and button parameters, as the API takes them.' }),
  }),
});

const SendMessageInput = builder.inputType('SendMessageInput', {
  description:
    "A message: through the instance `instanceId` names, of any kind (as POST /v1/chat/instances/<id>/messages: exactly one of text, media, location, contacts, reaction, poll, template), or without it a text or template routed to one of the tenant's connected instances (as POST /v1/messages/send).",
  fields: (t) => ({
    instanceId: t.id({ description: 'The instance to send through; when omitted, the least recently used connected one (text and templates only).' }),
    to: t.string({ required: true, description: 'Digits with the country code, no +; through a named instance also a group id (<digits>@g.us).' }),
    text: t.string({ description: '1 to 4096 characters.' }),
    mentions: t.stringList({ description: 'With text: phones the text names as @<digits>.' }),
    media: t.field({ type: MediaFileInput, description: 'A file, with mediaType.' }),
    mediaType: t.field({ type: SendMediaTypeEnum, description: 'With media: what the file is.' }),
    caption: t.string({ description: 'With media: at most 1024 characters.' }),
    voice: t.boolean({ description: 'With audio: send it as a voice note.' }),
    location: t.field({ type: LocationInput, description: 'A point on the map.' }),
    contacts: t.field({ type: [ContactCardInput], description: '1 to 10 contact cards.' }),
    reaction: t.field({ type: ReactionInput, description: 'A reaction to a message of the chat.' }),
    poll: t.field({ type: PollInput, description: 'A poll.' }),
    template: t.field({ type: TemplateInput, description: 'In place of the text (CHAT-CLOUD instances); never given the [TEST] prefix.' }),
    quotedMessageId: t.id({ description: 'A reply: the message of the same chat it quotes (any kind but reaction).' }),
    idempotencyKey: t.string({ description: idempotencyKeyField }),
  }),
});

/** GraphQL gives null for what a client wrote as null; the REST body simply leaves such a field out. */
function withoutNulls(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input)
      .filter(([, value]) => value !== null && value !== undefined)
      .map(([key, value]) => [key, value !== null && typeof value === 'object' && !Array.isArray(value) ? withoutNulls(value as Record<string, unknown>) : value]),
  );
}

const SendTextInput = builder.inputType('SendTextInput', {
  description: 'A text message through one instance (as POST /chat/instances/<id>/send-text).',
  fields: (t) => ({
    instanceId: t.id({ required: true, description: 'The instance to send through.' }),
    to: t.string({ required: true, description: 'Digits with the country code, no +.' }),
    message: t.string({ description: '1 to 4096 characters; required unless a template is given.' }),
    template: t.field({ type: TemplateInput, description: 'In place of the message, through a CHAT-CLOUD instance.' }),
    idempotencyKey: t.string({ description: idempotencyKeyField }),
  }),
});

const SendMediaInput = builder.inputType('SendMediaInput', {
  description: 'A media message through one instance (as POST /chat/instances/<id>/send-media).',
  fields: (t) => ({
    instanceId: t.id({ required: true, description: 'The instance to send through.' }),
    to: t.string({ required: true, description: 'Digits with the country code, no +.' }),
    mediaUrl: t.string({ required: true, description: 'https, on a public address; at most 16 MiB.' }),
    mediaType: t.field({ type: MediaTypeEnum, required: true, description: 'What the URL serves.' }),
    caption: t.string({ description: 'At most 1024 characters.' }),
    idempotencyKey: t.string({ description: idempotencyKeyField }),
  }),
});

builder.mutationField('sendMessage', (t) =>
  t.field({
    type: SendPayload,
    description:
      'Same rules as POST /v1/chat/instances/<id>/messages (with instanceId) or POST /v1/messages/send (without), including the test-key prefix, idempotency and not_supported.',
    args: { input: t.arg({ type: SendMessageInput, required: true, description: 'The message.' }) },
    resolve: async (_root, { input }, ctx) => {
      const { idempotencyKey, instanceId, ...fields } = input;
      const body = withoutNulls(fields);
      const actor = await ctx.actor();
      const key = idempotencyKey ?? undefined;
      return payloadOf(async () => {
        if (instanceId == null) {
          const kind = ROUTED_NEVER.find((field) => body[field] !== undefined);
          if (kind) throw Invalid.at('instanceId', `is required with ${kind}: only a text or a template is routed`);
          return { sent: await ctx.services.messages.send(actor, body, key) };
        }
        return { sent: await ctx.services.messages.sendThrough(actor, String(instanceId), body, key) };
      });
    },
  }),
);

/** What only a send through a named instance carries. */
const ROUTED_NEVER = ['media', 'location', 'contacts', 'reaction', 'poll', 'quotedMessageId', 'mentions'];

builder.mutationField('sendText', (t) =>
  t.field({
    type: SendPayload,
    description: 'Same rules as POST /chat/instances/<id>/send-text.',
    args: { input: t.arg({ type: SendTextInput, required: true, description: 'The message.' }) },
    resolve: async (_root, { input }, ctx) => {
      const { instanceId, idempotencyKey, ...body } = input;
      const actor = await ctx.actor();
      return payloadOf(async () => ({ sent: await ctx.services.messages.sendText(actor, String(instanceId), body, idempotencyKey ?? undefined) }));
    },
  }),
);

builder.mutationField('sendMedia', (t) =>
  t.field({
    type: SendPayload,
    description: 'Same rules as POST /chat/instances/<id>/send-media.',
    args: { input: t.arg({ type: SendMediaInput, required: true, description: 'The message.' }) },
    resolve: async (_root, { input }, ctx) => {
      const { instanceId, idempotencyKey, ...body } = input;
      const actor = await ctx.actor();
      return payloadOf(async () => ({ sent: await ctx.services.messages.sendMedia(actor, String(instanceId), body, idempotencyKey ?? undefined) }));
    },
  }),
);
