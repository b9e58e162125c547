// AWS Signature Version 4 as S3 checks it (the "Authenticating Requests (AWS Signature Version 4)"
// pages of the S3 API reference), written out here rather than taken from the SDK the gateway signs
// with, so a signing mistake on either side shows as SignatureDoesNotMatch.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding, as SigV4 wants every query name and value. */
const rfc3986 = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function canonicalQuery(raw: string): string {
  if (!raw) return '';
  return raw
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      const name = decodeURIComponent(at < 0 ? pair : pair.slice(0, at));
      const value = at < 0 ? '' : decodeURIComponent(pair.slice(at + 1));
      return [rfc3986(name), rfc3986(value)] as const;
    })
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

export type Verdict =
  | { ok: true; accessKey: string }
  | { ok: false; code: 'AccessDenied' | 'InvalidAccessKeyId' | 'SignatureDoesNotMatch' | 'AuthorizationHeaderMalformed' | 'RequestTimeTooSkewed' | 'InvalidRequest'; message: string };

/**
 * Whether the request's Authorization header is the signature `secretOf(accessKey)` gives: S3 paths
 * are signed as sent (no second encoding), the payload by the hash the client states in
 * x-amz-content-sha256 (the caller checks the body against it).
 */
export function verifySigV4(request: IncomingMessage, secretOf: (accessKey: string) => string | undefined, now = new Date()): Verdict {
  const header = request.headers.authorization;
  if (!header) return { ok: false, code: 'AccessDenied', message: 'Access Denied' };
  const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(header);
  if (!match) return { ok: false, code: 'AuthorizationHeaderMalformed', message: 'The authorization header is malformed.' };
  const [, accessKey, day, region, signedHeaders, signature] = match as unknown as [string, string, string, string, string, string];
  const secret = secretOf(accessKey);
  if (secret === undefined) return { ok: false, code: 'InvalidAccessKeyId', message: 'The AWS Access Key Id you provided does not exist in our records.' };
  const amzDate = request.headers['x-amz-date'];
  const payloadHash = request.headers['x-amz-content-sha256'];
  if (typeof amzDate !== 'string' || !/^\d{8}T\d{6}Z$/.test(amzDate) || !amzDate.startsWith(day)) {
    return { ok: false, code: 'AccessDenied', message: 'AWS authentication requires a valid Date or x-amz-date header' };
  }
  if (typeof payloadHash !== 'string') return { ok: false, code: 'InvalidRequest', message: 'Missing required header for this request: x-amz-content-sha256' };
  const signedAt = Date.UTC(+amzDate.slice(0, 4), +amzDate.slice(4, 6) - 1, +amzDate.slice(6, 8), +amzDate.slice(9, 11), +amzDate.slice(11, 13), +amzDate.slice(13, 15));
  if (Math.abs(now.getTime() - signedAt) > 15 * 60_000) {
    return { ok: false, code: 'RequestTimeTooSkewed', message: 'The difference between the request time and the current time is too large.' };
  }
  const names = signedHeaders.split(';');
  if (!names.includes('host')) return { ok: false, code: 'AccessDenied', message: 'The host header must be signed.' };
  const url = request.url ?? '/';
  const query = url.indexOf('?');
  const canonical = [
    request.method,
    query < 0 ? url : url.slice(0, query),
    canonicalQuery(query < 0 ? '' : url.slice(query + 1)),
    names.map((name) => `${name}:${String(request.headers[name] ?? '').trim().replace(/\s+/g, ' ')}\n`).join(''),
    signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), 's3'), 'aws4_request');
  const expected = hmac(key, toSign);
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided. Check your key and signing method.' };
  }
  return { ok: true, accessKey };
}

export { sha256Hex };
