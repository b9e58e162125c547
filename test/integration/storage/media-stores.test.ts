import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaStore, StoredBytes } from '../../../src/domain/media/media-store.port.js';
import { folderMediaStore } from '../../../src/infra/media/folder-media-store.js';
import { s3MediaStore } from '../../../src/infra/media/s3-media-store.js';
import { eventually } from '../../factories/sandbox.js';
import { client } from '../../helpers/http.js';
import { startTestGateway } from '../../kit/gateway.js';
import { MODES } from '../../kit/modes.js';
import { type S3Server, startS3Server } from '../../networks/s3/server.js';

/** A store under test and what the test needs to see behind it. */
interface Harness {
  store: MediaStore & { close(): Promise<void> };
  /** Objects the store holds, counted where it keeps them (not through the store). */
  objectCount(): number;
  refuseWrites(on: boolean): void;
  close(): Promise<void>;
}

async function folderHarness(): Promise<Harness> {
  const root = mkdtempSync(join(tmpdir(), 'media-store-contract-'));
  const store = folderMediaStore(root);
  const drafts = join(root, 'drafts');
  return {
    store,
    objectCount: () =>
      readdirSync(root)
        .filter((name) => /^[0-9a-f]{2}$/.test(name))
        .reduce((count, shard) => count + readdirSync(join(root, shard)).length, 0),
    // Tests run as root, so permissions refuse nothing: a file where the drafts folder was does.
    refuseWrites(on) {
      rmSync(drafts, { recursive: true, force: true });
      if (on) writeFileSync(drafts, '');
      else mkdirSync(drafts, { mode: 0o700 });
    },
    async close() {
      await store.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

let server: S3Server;
async function s3Harness(): Promise<Harness> {
  server = await startS3Server({ buckets: ['media'] });
  const env = server.env('media', 'gateway/kept');
  const store = s3MediaStore({ bucket: 'media', prefix: 'gateway/kept', endpoint: server.url, region: env.MEDIA_S3_REGION!, accessKey: env.MEDIA_S3_ACCESS_KEY, secretKey: env.MEDIA_S3_SECRET_KEY, forcePathStyle: true });
  return {
    store,
    objectCount: () => server.objects('media').length,
    refuseWrites: (on) => server.refuseWrites(on),
    async close() {
      await store.close();
      await server.close();
    },
  };
}

/** `bytes` as a stream of `chunk`-sized pieces, as a download hands them over. */
async function* chunked(bytes: Buffer, chunk = 64 * 1024) {
  for (let at = 0; at < bytes.length; at += chunk) yield bytes.subarray(at, at + chunk);
}

async function read(opened: StoredBytes): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of opened.bytes) parts.push(Buffer.from(part));
  return Buffer.concat(parts);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const options = { maxBytes: 4 * 1024 * 1024, contentType: 'image/jpeg' };

/** The MediaStore contract (docs/media.md, "Stores"): the same cases for every store. */
describe.each([
  ['the data folder', folderHarness],
  ['S3-compatible storage', s3Harness],
])('media store contract: %s', (_name, open) => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await open();
  });
  afterAll(() => harness?.close());

  it('keeps bytes under their SHA-256 and opens them whole or by range', async () => {
    const bytes = randomBytes(300 * 1024 + 17);
    const kept = await harness.store.put(chunked(bytes), options);
    expect(kept).toEqual({ sha256: sha256(bytes), size: bytes.length });
    expect(await harness.store.has(kept.sha256)).toBe(true);

    const whole = await harness.store.open(kept.sha256);
    expect(whole.size).toBe(bytes.length);
    expect((await read(whole)).equals(bytes)).toBe(true);

    const range = await harness.store.open(kept.sha256, { start: 1000, end: 1999 });
    expect(range.size).toBe(bytes.length);
    expect((await read(range)).equals(bytes.subarray(1000, 2000))).toBe(true);
    const tail = await harness.store.open(kept.sha256, { start: bytes.length - 5, end: bytes.length - 1 });
    expect((await read(tail)).equals(bytes.subarray(bytes.length - 5))).toBe(true);
  });

  it('keeps identical bytes once', async () => {
    const before = harness.objectCount();
    const bytes = randomBytes(20_000);
    const first = await harness.store.put(chunked(bytes, 999), options);
    const second = await harness.store.put(chunked(bytes, 4096), { ...options, contentType: 'application/octet-stream' });
    expect(second).toEqual(first);
    expect(harness.objectCount()).toBe(before + 1);
  });

  it('keeps one object when the same bytes are put at once', async () => {
    const before = harness.objectCount();
    const bytes = randomBytes(150_000);
    const kept = await Promise.all(Array.from({ length: 6 }, () => harness.store.put(chunked(bytes, 10_000), options)));
    expect(new Set(kept.map((k) => k.sha256))).toEqual(new Set([sha256(bytes)]));
    expect(harness.objectCount()).toBe(before + 1);
    expect((await read(await harness.store.open(sha256(bytes)))).equals(bytes)).toBe(true);
  });

  it('refuses more than maxBytes and stores nothing', async () => {
    const before = harness.objectCount();
    const bytes = randomBytes(10_001);
    await expect(harness.store.put(chunked(bytes, 1000), { ...options, maxBytes: 10_000 })).rejects.toMatchObject({ code: 'media_too_large' });
    expect(harness.objectCount()).toBe(before);
    expect(await harness.store.has(sha256(bytes))).toBe(false);
    // Exactly maxBytes is kept.
    await expect(harness.store.put(chunked(bytes.subarray(0, 10_000)), { ...options, maxBytes: 10_000 })).resolves.toMatchObject({ size: 10_000 });
  });

  it('answers mediaStoreFailed when the store refuses to write, and stores nothing', async () => {
    const before = harness.objectCount();
    const bytes = randomBytes(5000);
    harness.refuseWrites(true);
    try {
      await expect(harness.store.put(chunked(bytes), options)).rejects.toMatchObject({ code: 'media_store_failed', message: expect.stringMatching(/could not keep this file: .+/) });
    } finally {
      harness.refuseWrites(false);
    }
    expect(harness.objectCount()).toBe(before);
    expect(await harness.store.has(sha256(bytes))).toBe(false);
    // Once it writes again, the same bytes are kept.
    await expect(harness.store.put(chunked(bytes), options)).resolves.toMatchObject({ sha256: sha256(bytes) });
  });

  it('answers mediaMissing for an object it does not have, and removes idempotently', async () => {
    const bytes = randomBytes(1234);
    const kept = await harness.store.put(chunked(bytes), options);
    await harness.store.remove(kept.sha256);
    expect(await harness.store.has(kept.sha256)).toBe(false);
    await expect(harness.store.open(kept.sha256)).rejects.toMatchObject({ code: 'media_missing' });
    await harness.store.remove(kept.sha256);
    // Not a hash: never an object (and never a path or key outside the store).
    await expect(harness.store.open('../../etc/passwd')).rejects.toMatchObject({ code: 'media_missing' });
    expect(await harness.store.has('0'.repeat(63))).toBe(false);
  });
});

describe('the S3 store against the local server', () => {
  let s3: S3Server;
  const stores: Array<{ close(): Promise<void> }> = [];
  const storeFor = (overrides: Partial<Parameters<typeof s3MediaStore>[0]> = {}) => {
    const env = s3.env('media');
    const store = s3MediaStore({ bucket: 'media', prefix: '', endpoint: s3.url, region: env.MEDIA_S3_REGION!, accessKey: env.MEDIA_S3_ACCESS_KEY, secretKey: env.MEDIA_S3_SECRET_KEY, forcePathStyle: true, ...overrides });
    stores.push(store);
    return store;
  };
  beforeAll(async () => {
    s3 = await startS3Server({ buckets: ['media', 'other'] });
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    await s3?.close();
  });

  it('names objects <prefix>/<sha256> with their content type, and checks before writing', async () => {
    const store = storeFor({ prefix: 'tenant-media' });
    const bytes = randomBytes(2048);
    const { sha256: hash } = await store.put(chunked(bytes), { maxBytes: 10_000, contentType: 'audio/ogg; codecs=opus' });
    expect(s3.objects('media')).toEqual([expect.objectContaining({ key: `tenant-media/${hash}`, size: 2048, contentType: 'audio/ogg; codecs=opus' })]);
    await store.put(chunked(bytes), { maxBytes: 10_000, contentType: 'audio/ogg' });
    const puts = s3.requests().filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(store.name).toBe(`s3://media/tenant-media at ${new URL(s3.url).host}`);
    // Without a prefix the key is the hash alone.
    const bare = storeFor({ bucket: 'other' });
    await bare.put(chunked(bytes), { maxBytes: 10_000, contentType: 'audio/ogg' });
    expect(s3.objects('other').map((o) => o.key)).toEqual([hash]);
  });

  it('says why a bucket cannot be used: missing, or credentials the server refuses', async () => {
    await expect(storeFor().check()).resolves.toBeUndefined();
    await expect(storeFor({ bucket: 'absent' }).check()).rejects.toThrow('the bucket absent does not exist');
    await expect(storeFor({ secretKey: 'not-the-secret' }).check()).rejects.toThrow(/AccessDenied \(HTTP 403\)/);
    const put = storeFor({ secretKey: 'not-the-secret' }).put(chunked(randomBytes(10)), { maxBytes: 100, contentType: 'image/png' });
    // The HEAD before the write is refused already (its answer has no body: the status names it).
    await expect(put).rejects.toMatchObject({ code: 'media_store_failed', message: expect.stringContaining('AccessDenied (HTTP 403)') });
    const missing = storeFor({ bucket: 'absent' }).put(chunked(randomBytes(10)), { maxBytes: 100, contentType: 'image/png' });
    await expect(missing).rejects.toMatchObject({ code: 'media_store_failed' });
    // A missing bucket is the store failing, not a file gone.
    await expect(storeFor({ bucket: 'absent' }).open('a'.repeat(64))).rejects.toMatchObject({ code: 'media_store_failed', message: expect.stringContaining('NoSuchBucket (HTTP 404)') });
  });

  it('fails a put, not forever, when the server is gone', async () => {
    const gone = await startS3Server({ buckets: ['media'] });
    const env = gone.env('media');
    await gone.close();
    const store = s3MediaStore({ bucket: 'media', prefix: '', endpoint: gone.url, region: 'us-east-1', accessKey: env.MEDIA_S3_ACCESS_KEY, secretKey: env.MEDIA_S3_SECRET_KEY, forcePathStyle: true });
    stores.push(store);
    await expect(store.put(chunked(randomBytes(10)), { maxBytes: 100, contentType: 'image/png' })).rejects.toMatchObject({
      code: 'media_store_failed',
      message: expect.stringContaining('could not be reached'),
    });
  });
});

describe('a gateway whose object store cannot be used', () => {
  let s3: S3Server;
  beforeAll(async () => {
    s3 = await startS3Server({ buckets: ['media'] });
  });
  afterAll(() => s3?.close());

  it.each(MODES)('starts and serves, and says once why it cannot keep files ($name)', async (mode) => {
    const gateway = await startTestGateway(mode, { process: true, env: s3.env('absent', 'kept') });
    try {
      expect((await client(gateway.url).get('/readyz')).status).toBe(200);
      const warned = await eventually(async () => gateway.output(), (output) => output.includes('the media store cannot keep files'));
      expect(warned).toContain('the bucket absent does not exist');
      expect(warned.match(/the media store cannot keep files/g)).toHaveLength(1);
    } finally {
      await gateway.close();
    }
  });
});
