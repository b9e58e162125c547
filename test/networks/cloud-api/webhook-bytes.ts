// The exact bytes of a webhook POST and their signature (the API's webhook reference, "Signature"): Meta signs "an escaped unicode
// version of the payload, with lowercase hex digits (äöå → \u00e4\u00f6\u00e5)". A receiver that re-serialises
// the parsed body gets different bytes and a signature that does not match, which is the point.
import { createHmac } from 'node:crypto';

/**
 * JSON with every character above U+007F written as `\uXXXX` in lowercase hex, each UTF-16 unit on its own
 * (😀 → `\ud83d\ude00`), like Python's `json.dumps` with its default `ensure_ascii`. The result is ASCII.
 */
export function serialize(value: unknown, options: { escapeSlashes?: boolean } = {}): string {
  const json = JSON.stringify(value).replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return options.escapeSlashes ? json.replace(/\//g, '\\/') : json;
}

/** `X-Hub-Signature-256`: `sha256=` + hex HMAC-SHA256 of the raw body with the app secret. */
export function signature256(appSecret: string, body: string | Uint8Array): string {
  return `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

/** The legacy `X-Hub-Signature` (SHA-1) Meta still sends alongside. */
export function signature1(appSecret: string, body: string | Uint8Array): string {
  return `sha1=${createHmac('sha1', appSecret).update(body).digest('hex')}`;
}
