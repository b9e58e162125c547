import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { type ByteRange, MediaKeepError, type MediaStore, mediaMissing, mediaStoreFailed, SHA256_HEX } from '../../domain/media/media-store.port.js';
import { writeHashedDraft } from './hashed-draft.js';

export interface S3StoreSettings {
  bucket: string;
  /** Without slashes at either end; empty for the bucket's top. */
  prefix: string;
  /** An S3-compatible server (MinIO and the like); AWS itself when absent. */
  endpoint?: string;
  region: string;
  /** Both or neither; neither uses the SDK's default chain (environment, profile, instance role). */
  accessKey?: string;
  secretKey?: string;
  forcePathStyle: boolean;
}

// The SDK takes about 600 ms to load: only a gateway that keeps media in S3 loads it, on first use
// (docs/benchmarks.md, "Start").
let loading: Promise<typeof import('@aws-sdk/client-s3')> | undefined;
const sdk = () => (loading ??= import('@aws-sdk/client-s3'));

/** An error S3 answered (an S3ServiceException: it has a fault side), as opposed to one on the way. */
type ServiceError = Error & { $fault: 'client' | 'server'; $metadata: { httpStatusCode?: number } };
const answered = (error: unknown): error is ServiceError => error instanceof Error && '$fault' in error && '$metadata' in error;

/** The short reason `media.error` gives: the S3 error's code, or what failed on the way. */
function reasonOf(error: unknown): string {
  if (answered(error)) {
    const status = error.$metadata.httpStatusCode;
    // A HEAD answer has no body, so no code: its status says it.
    const code = error.name !== 'Unknown' ? error.name : status === 403 ? 'AccessDenied' : status === 404 ? 'NotFound' : 'an error';
    return `the object store answered ${code} (HTTP ${status ?? '?'})`;
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'the disk is full';
  return `the object store could not be reached (${code ?? (error as Error).name ?? 'error'})`;
}

// A missing bucket is the store failing, not the object gone (a HEAD's bare 404 cannot tell them apart).
const notFound = (error: unknown) => answered(error) && error.name !== 'NoSuchBucket' && error.$metadata.httpStatusCode === 404;

/** The store's name for /metrics and the nodes' agreement: the bucket and prefix, and the server when not AWS. */
export function s3StoreName(settings: Pick<S3StoreSettings, 'bucket' | 'prefix' | 'endpoint'>): string {
  const name = settings.prefix ? `s3://${settings.bucket}/${settings.prefix}` : `s3://${settings.bucket}`;
  return settings.endpoint ? `${name} at ${new URL(settings.endpoint).host}` : name;
}

/**
 * S3-compatible object storage (docs/media.md, "Stores"): objects `<prefix>/<sha256>`. The bytes are
 * hashed into a private temporary file first (the key is their hash, and S3 wants the length up
 * front); an object already there is not written again.
 */
export function s3MediaStore(settings: S3StoreSettings): MediaStore & { close(): Promise<void>; check(): Promise<void> } {
  let client: S3Client | undefined;
  const newClient = (S3: typeof S3Client) => new S3({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.accessKey && settings.secretKey ? { accessKeyId: settings.accessKey, secretAccessKey: settings.secretKey } : undefined,
    // The SDK otherwise sends a streamed body aws-chunked with a trailing CRC32, which many
    // S3-compatible servers refuse; the length and SigV4 are what every one of them checks.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A store that stops answering fails a put (media.error) instead of holding it forever.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
    // The SDK's own console lines (a streamed put is not retried) say nothing media.error does not.
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });
  /** The SDK's module and this store's client, both made on first use. */
  const connected = async () => {
    const s3 = await sdk();
    return { s3, client: (client ??= newClient(s3.S3Client)) };
  };
  const Bucket = settings.bucket;
  const keyOf = (sha256: string) => {
    if (!SHA256_HEX.test(sha256)) throw mediaMissing();
    return settings.prefix ? `${settings.prefix}/${sha256}` : sha256;
  };
  const drafts = mkdtempSync(join(tmpdir(), 'gateway-s3-drafts-'));

  return {
    name: s3StoreName(settings),
    kind: 's3',
    async put(bytes, { maxBytes, contentType }) {
      const draft = join(drafts, randomBytes(12).toString('hex'));
      let upload: ReturnType<typeof createReadStream> | undefined;
      try {
        const { sha256, size } = await writeHashedDraft(bytes, draft, maxBytes);
        const Key = keyOf(sha256);
        const { s3, client } = await connected();
        const there = await client.send(new s3.HeadObjectCommand({ Bucket, Key })).then(
          () => true,
          (error: unknown) => {
            if (notFound(error)) return false;
            throw error;
          },
        );
        if (!there) {
          upload = createReadStream(draft);
          await client.send(new s3.PutObjectCommand({ Bucket, Key, Body: upload, ContentLength: size, ContentType: contentType }));
        }
        return { sha256, size };
      } catch (error) {
        if (error instanceof MediaKeepError) throw error;
        throw mediaStoreFailed(reasonOf(error));
      } finally {
        upload?.destroy();
        await unlink(draft).catch(() => {});
      }
    },
    async open(sha256, range?: ByteRange) {
      const Key = keyOf(sha256);
      try {
        const { s3, client } = await connected();
        const answer = await client.send(new s3.GetObjectCommand({ Bucket, Key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
        // A range's answer names the whole object's size after the slash.
        const whole = /\/(\d+)$/.exec(answer.ContentRange ?? '');
        const size = whole ? Number(whole[1]) : Number(answer.ContentLength ?? 0);
        return { bytes: answer.Body as Readable, size };
      } catch (error) {
        if (notFound(error)) throw mediaMissing();
        throw mediaStoreFailed(reasonOf(error));
      }
    },
    async has(sha256) {
      if (!SHA256_HEX.test(sha256)) return false;
      try {
        const { s3, client } = await connected();
        await client.send(new s3.HeadObjectCommand({ Bucket, Key: keyOf(sha256) }));
        return true;
      } catch (error) {
        if (notFound(error)) return false;
        throw mediaStoreFailed(reasonOf(error));
      }
    },
    async remove(sha256) {
      if (!SHA256_HEX.test(sha256)) return;
      try {
        const { s3, client } = await connected();
        await client.send(new s3.DeleteObjectCommand({ Bucket, Key: keyOf(sha256) }));
      } catch (error) {
        if (!notFound(error)) throw mediaStoreFailed(reasonOf(error));
      }
    },
    /** Whether the bucket is there and the credentials open it; throws saying why not. */
    async check() {
      try {
        const { s3, client } = await connected();
        await client.send(new s3.HeadBucketCommand({ Bucket }));
      } catch (error) {
        throw new Error(answered(error) && error.$metadata.httpStatusCode === 404 ? `the bucket ${Bucket} does not exist` : reasonOf(error));
      }
    },
    async close() {
      client?.destroy();
      rmSync(drafts, { recursive: true, force: true });
    },
  };
}
