import { asDescriptor } from './media.js';
import { messageErrorOf } from './message-error.js';
import type { MessageRecord, OutboxEventInput } from './messages.ports.js';

const iso = (date: Date | null) => date?.toISOString();

const isMediaKind = (type: string) => ['image', 'video', 'audio', 'document', 'sticker'].includes(type);

/** Where a message's media is downloaded (GET, with an API key); events carry it relative to the gateway's address. */
export const mediaPath = (messageId: string) => `/v1/messages/${messageId}/media`;

/** The media a message carries, received (the network's descriptor) or sent (the URL it was sent from), as events and answers show it. */
export function messageMedia(message: MessageRecord): { type: string; mimetype: string | null; size: number | null; caption: string | null; fileName: string | null; url: string } | null {
  const descriptor = asDescriptor(message.media);
  if (descriptor) {
    return { type: descriptor.type, mimetype: descriptor.mimetype, size: descriptor.size, caption: message.caption, fileName: descriptor.fileName, url: mediaPath(message.id) };
  }
  if (message.direction === 'out' && message.mediaUrl) {
    return { type: message.type, mimetype: message.mediaType, size: null, caption: message.caption, fileName: null, url: mediaPath(message.id) };
  }
  // A file uploaded with the send (no URL): the gateway keeps its bytes.
  if (message.direction === 'out' && message.mediaType && isMediaKind(message.type)) {
    return { type: message.type, mimetype: message.mediaType, size: null, caption: message.caption, fileName: message.fileName, url: mediaPath(message.id) };
  }
  return null;
}

/** A message another one names (a reply's quote, a reaction's target), as answers show it: without what only the engine needs. */
const target = (value: unknown) => {
  if (!value) return undefined;
  const { messageId, networkMessageId } = value as { messageId: string | null; networkMessageId: string };
  return { messageId, networkMessageId };
};

/**
 * What only some kinds of message carry (docs/messaging.md), shown only on them, the same in answers
 * and events: a text message keeps the spec's shape.
 */
export function kindFields(message: MessageRecord) {
  const reaction = message.reaction as { emoji: string } | null;
  const fields = {
    location: message.location ?? undefined,
    contacts: message.contacts ?? undefined,
    reaction: reaction ? { emoji: reaction.emoji, ...target(reaction)! } : undefined,
    quoted: target(message.quoted),
    mentions: (message.mentions as string[] | null) ?? undefined,
    poll: message.poll ?? undefined,
    group: message.group ?? undefined,
    edited: message.editedAt ? { text: message.text ?? message.caption ?? '', at: message.editedAt.toISOString() } : undefined,
    deleted: message.deletedAt ? { at: message.deletedAt.toISOString() } : undefined,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<typeof fields>;
}

const mediaFields = (message: MessageRecord) => {
  const media = messageMedia(message);
  return media ? { media } : {};
};

/** messages.upsert, spec 6.2: the message as it enters the network (sent) or arrives (received). */
export function upsertEvent(message: MessageRecord, extra: { pushName?: string | null } = {}): OutboxEventInput {
  return {
    event: 'messages.upsert',
    data: {
      messageId: message.id,
      // A sender known only by its LID has no phone: null, and the LID in fromLid.
      from: message.direction === 'in' ? message.from : (message.from ?? ''),
      to: message.to,
      fromMe: message.direction === 'out',
      type: message.type,
      text: message.text ?? message.caption ?? '',
      timestamp: (message.direction === 'out' ? message.sentAt ?? message.createdAt : message.createdAt).toISOString(),
      ...(message.mediaUrl ? { mediaUrl: message.mediaUrl } : {}),
      // A template sent; a network's message part with no field of its own (CHAT-CLOUD button and list replies).
      ...(message.content ? { content: message.content } : {}),
      ...mediaFields(message),
      ...kindFields(message),
      ...(message.fromLid ? { fromLid: message.fromLid } : {}),
      ...(extra.pushName ? { pushName: extra.pushName } : {}),
    },
  };
}

/** messages.update, spec 6.2: the status with the time of every step so far; a failed one says why (`error`, beside the spec's fields). */
export function statusEvent(message: MessageRecord): OutboxEventInput {
  const timestamps = Object.fromEntries(
    Object.entries({ sent: iso(message.sentAt), delivered: iso(message.deliveredAt), read: iso(message.readAt), failed: iso(message.failedAt) }).filter(
      ([, v]) => v !== undefined,
    ),
  );
  const error = message.status === 'failed' ? messageErrorOf(message.error) : null;
  return { event: 'messages.update', data: { messageId: message.id, status: message.status, timestamps, ...(error ? { error } : {}) } };
}

/** messages.update for an edit (ours or the other side's): the latest words and when they were written. */
export function editEvent(message: MessageRecord): OutboxEventInput {
  return { event: 'messages.update', data: { messageId: message.id, edited: { text: message.text ?? message.caption ?? '', at: (message.editedAt ?? message.updatedAt).toISOString() } } };
}
