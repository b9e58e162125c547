import { asDescriptor } from '../media/media-source.js';
import type { MessageRecord } from './messages.ports.js';

const isMediaKind = (type: string) => ['image', 'video', 'audio', 'document', 'sticker'].includes(type);

/** Where a message's media is downloaded (GET, with an API key); events carry it relative to the gateway's address. */
export const mediaPath = (messageId: string) => `/v1/messages/${messageId}/media`;

/**
 * The media a message carries, as events and answers show it. `url` is the download's path here;
 * the edges replace it with a signed link and its `expiresAt` (media/signed-media.ts).
 */
export type MessageMedia = {
  type: string;
  mimetype: string | null;
  size: number | null;
  caption: string | null;
  fileName: string | null;
  url: string;
  /** Whether the gateway keeps its bytes (docs/media.md). */
  stored: boolean;
  sha256?: string;
  error?: { code: string; message: string };
  expiresAt?: string;
};

/** Whether the gateway keeps the bytes, and why not when keeping them failed. */
function keptCopy(message: MessageRecord): Pick<MessageMedia, 'stored' | 'sha256' | 'error'> {
  if (message.mediaState === 'stored' && message.mediaSha256) return { stored: true, sha256: message.mediaSha256 };
  const error = message.mediaError as { code?: unknown; message?: unknown } | null;
  if (message.mediaState === 'failed' && error && typeof error.code === 'string') return { stored: false, error: { code: error.code, message: String(error.message ?? '') } };
  return { stored: false };
}

/** The media a message carries: received (the network's descriptor) or sent (its URL, or the file kept). */
export function messageMedia(message: MessageRecord): MessageMedia | null {
  const descriptor = asDescriptor(message.media);
  if (descriptor) {
    return { type: descriptor.type, mimetype: descriptor.mimetype, size: descriptor.size, caption: message.caption, fileName: descriptor.fileName, url: mediaPath(message.id), ...keptCopy(message) };
  }
  if (message.direction === 'out' && message.mediaUrl) {
    return { type: message.type, mimetype: message.mediaType, size: null, caption: message.caption, fileName: null, url: mediaPath(message.id), ...keptCopy(message) };
  }
  // A file uploaded with the send (no URL): the gateway keeps its bytes.
  if (message.direction === 'out' && message.mediaType && isMediaKind(message.type)) {
    return { type: message.type, mimetype: message.mediaType, size: null, caption: message.caption, fileName: message.fileName, url: mediaPath(message.id), ...keptCopy(message) };
  }
  return null;
}

/** A message another one names (a reply's quote, a reaction's target), as answers show it: without what only the engine needs. */
const target = (value: unknown) => {
  if (!value) return undefined;
  const { messageId, networkMessageId } = value as { messageId: string | null; networkMessageId: string };
  return { messageId, networkMessageId };
};

/** What only some kinds of message carry (docs/messaging.md), shown only on them, the same in answers and events. */
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

export type KindFields = ReturnType<typeof kindFields>;
