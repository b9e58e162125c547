import { createHmac, timingSafeEqual } from 'node:crypto';
import { type Clock, systemClock } from '../ports.js';
import type { MediaLinks } from './media-links.port.js';

/** Where a signed link points: the gateway's own route, never an object of the store. */
export const signedMediaPath = (messageId: string) => `/media/${encodeURIComponent(messageId)}`;

/** What signs links: the shared key, MEDIA_LINK_TTL and PUBLIC_URL (plain data, so a worker thread can sign too). */
export interface MediaLinkSettings {
  key: Uint8Array;
  ttlMs: number;
  publicUrl?: string;
}

const signatureOf = (key: Buffer, messageId: string, expires: number) => createHmac('sha256', key).update(`${messageId}.${expires}`).digest('base64url');

/**
 * HMAC-SHA256 links (docs/media.md, "Signed links"). The expiry is rounded up to a whole
 * minute, so every read within one minute gives the same link (a browser or a proxy may cache it).
 */
export function signedMediaLinks(settings: MediaLinkSettings, clock: Clock = systemClock): MediaLinks {
  const deps = { ...settings, key: Buffer.from(settings.key), clock };
  const base = deps.publicUrl?.replace(/\/$/, '') ?? '';
  return {
    linkFor(messageId) {
      const expires = Math.ceil((deps.clock.now().getTime() + deps.ttlMs) / 60_000) * 60;
      const url = `${base}${signedMediaPath(messageId)}?expires=${expires}&signature=${signatureOf(deps.key, messageId, expires)}`;
      return { url, expiresAt: new Date(expires * 1000).toISOString() };
    },
    verify(messageId, expires, signature) {
      if (!Number.isSafeInteger(expires) || expires * 1000 <= deps.clock.now().getTime()) return false;
      const expected = Buffer.from(signatureOf(deps.key, messageId, expires));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
