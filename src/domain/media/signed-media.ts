import type { MediaLinks } from './media-links.port.js';

type Media = Record<string, unknown>;

const DOWNLOAD_PATH = /\/v1\/messages\/([^/?#]+)\/media$/;

/**
 * The one place a message's media gets its signed link (docs/media.md): answers, GraphQL,
 * webhook deliveries and broker messages call it when they go out, so a retry carries a fresh link.
 * Records and events keep the stable download path; it is replaced here, with `expiresAt`.
 */
export function signMedia<M extends Media>(media: M, messageId: string, links: MediaLinks): M & { url: string; expiresAt: string } {
  const link = links.linkFor(messageId);
  return { ...media, url: link.url, expiresAt: link.expiresAt };
}

/** The message a media object belongs to: its download path names it, else the event's own id. */
function messageIdOf(media: Media, fallback: unknown): string | null {
  const match = typeof media.url === 'string' ? DOWNLOAD_PATH.exec(media.url) : null;
  if (match) return decodeURIComponent(match[1]!);
  // messages.update reporting a file kept ({stored: true, sha256, size}) names no path.
  return media.stored === true && typeof fallback === 'string' ? fallback : null;
}

const isObject = (value: unknown): value is Media => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An event's data with its media signed: `data.media` (v1 envelope) or `data.message.media` (session envelope). */
export function signEventData<D extends Media>(data: D, links: MediaLinks): D {
  const key = isObject(data.key) ? data.key.id : undefined;
  const messageId = data.messageId ?? key;
  let signed: Media = data;
  if (isObject(data.media)) {
    const id = messageIdOf(data.media, messageId);
    if (id) signed = { ...signed, media: signMedia(data.media, id, links) };
  }
  if (isObject(data.message) && isObject(data.message.media)) {
    const id = messageIdOf(data.message.media, messageId);
    if (id) signed = { ...signed, message: { ...data.message, media: signMedia(data.message.media, id, links) } };
  }
  return signed as D;
}

/** A stored webhook body (V1Envelope or SessionEnvelope) with its media signed now; other bodies as they are. */
export function signPayload(payload: string, links: MediaLinks): string {
  if (!payload.includes('/media') && !payload.includes('"stored":true')) return payload;
  let envelope: unknown;
  try {
    envelope = JSON.parse(payload);
  } catch {
    return payload;
  }
  if (!isObject(envelope) || !isObject(envelope.data)) return payload;
  const data = signEventData(envelope.data, links);
  return data === envelope.data ? payload : JSON.stringify({ ...envelope, data });
}
