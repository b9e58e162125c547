import { describe, expect, it } from 'vitest';
import { parseRange, resolveRange } from '../../src/domain/media/byte-ranges.js';
import { signedMediaLinks } from '../../src/domain/media/signed-links.js';
import { signEventData, signPayload } from '../../src/domain/media/signed-media.js';
import { RangeNotSatisfiable } from '../../src/domain/errors.js';

const at = (iso: string) => ({ now: () => new Date(iso) });
const settings = { key: Buffer.alloc(32, 7), ttlMs: 60 * 60_000 };

describe('byte ranges', () => {
  it('reads one range of three shapes; anything else is the whole file', () => {
    expect(parseRange('bytes=0-99')).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=100-')).toEqual({ start: 100, end: null });
    expect(parseRange('bytes=-20')).toEqual({ suffix: 20 });
    expect(parseRange(' bytes = 5 - 9 ')).toEqual({ start: 5, end: 9 });
    for (const whole of [undefined, '', 'bytes=0-1,4-5', 'bytes=9-3', 'bytes=-', 'bytes=-0', 'items=0-1', 'bytes=a-b', 'bytes=1234567890123456-']) {
      expect(parseRange(whole), String(whole)).toBeNull();
    }
  });

  it('resolves within the file, and past its end refuses with its size', () => {
    expect(resolveRange({ start: 0, end: 99 }, 50)).toEqual({ start: 0, end: 49 });
    expect(resolveRange({ start: 10, end: null }, 50)).toEqual({ start: 10, end: 49 });
    expect(resolveRange({ suffix: 80 }, 50)).toEqual({ start: 0, end: 49 });
    expect(resolveRange({ suffix: 5 }, 50)).toEqual({ start: 45, end: 49 });
    expect(() => resolveRange({ start: 50, end: null }, 50)).toThrow(RangeNotSatisfiable);
    expect(() => resolveRange({ suffix: 1 }, 0)).toThrow(RangeNotSatisfiable);
  });
});

describe('signed media links', () => {
  it('expire a whole minute past the TTL, the same within one minute, and verify only as signed', () => {
    const links = signedMediaLinks({ ...settings, publicUrl: 'https://gw.example.com/' }, at('2026-11-29T12:00:10Z'));
    const link = links.linkFor('m1');
    expect(link.expiresAt).toBe('2026-11-29T13:01:00.000Z');
    expect(signedMediaLinks(settings, at('2026-11-29T12:00:50Z')).linkFor('m1').url).toBe(link.url.replace('https://gw.example.com', ''));
    const url = new URL(link.url);
    expect(url.pathname).toBe('/media/m1');
    const expires = Number(url.searchParams.get('expires'));
    const signature = url.searchParams.get('signature')!;
    expect(links.verify('m1', expires, signature)).toBe(true);
    expect(links.verify('m2', expires, signature)).toBe(false);
    expect(links.verify('m1', expires + 60, signature)).toBe(false);
    expect(links.verify('m1', expires, signature.slice(1))).toBe(false);
    expect(links.verify('m1', Number.NaN, signature)).toBe(false);
    expect(signedMediaLinks({ ...settings, key: Buffer.alloc(32, 8) }, at('2026-11-29T12:00:10Z')).verify('m1', expires, signature)).toBe(false);
    expect(signedMediaLinks(settings, at('2026-11-29T13:01:00Z')).verify('m1', expires, signature)).toBe(false);
  });

  it('replaces the download path of both envelopes, and signs a kept file reported by messages.update', () => {
    const links = signedMediaLinks(settings, at('2026-11-29T12:00:00Z'));
    const media = { type: 'image', url: 'https://gw.example.com/v1/messages/m1/media' };
    const v1 = JSON.parse(signPayload(JSON.stringify({ event: 'messages.upsert', data: { messageId: 'm1', media } }), links));
    expect(v1.data.media).toEqual({ type: 'image', url: links.linkFor('m1').url, expiresAt: '2026-11-29T13:00:00.000Z' });
    const session = JSON.parse(signPayload(JSON.stringify({ event: 'messages.upsert', data: { key: { id: 'm1' }, message: { media } } }), links));
    expect(session.data.message.media.url).toBe(links.linkFor('m1').url);
    expect(signEventData({ key: { id: 'm9' }, media: { stored: true, sha256: 'ab', size: 3 } }, links).media).toMatchObject({ url: links.linkFor('m9').url });
    expect(signEventData({ messageId: 'm9', media: { stored: false, error: { code: 'media_too_large' } } }, links).media).toEqual({ stored: false, error: { code: 'media_too_large' } });
    const plain = JSON.stringify({ event: 'connection.update', data: { state: 'open' } });
    expect(signPayload(plain, links)).toBe(plain);
  });
});
