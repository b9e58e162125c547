/** Bytes as they stream, and how many there are. */
export interface StoredBytes {
  bytes: AsyncIterable<Uint8Array>;
  /** Bytes in the whole object (a range answers fewer). */
  size: number;
}

/** Inclusive byte offsets, as an HTTP Range names them. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where the gateway keeps media (docs/media.md): objects named by the SHA-256 of their bytes, so
 * identical bytes are one object. The data folder and S3-compatible storage implement it.
 */
export interface MediaStore {
  /** What /metrics and the nodes' agreement name it by: `folder:<path>`, `s3://bucket/prefix`. */
  readonly name: string;
  /** `folder` or `s3` (the metrics' label). */
  readonly kind: 'folder' | 's3';
  /**
   * Streams `bytes` in and answers their SHA-256 (hex) and size. An object with those bytes already
   * there is kept as it is. More than `maxBytes` throws mediaTooLarge and stores nothing; a store
   * that cannot write throws mediaStoreFailed. Nothing half-written is ever visible.
   */
  put(bytes: AsyncIterable<Uint8Array>, options: { maxBytes: number; contentType: string }): Promise<{ sha256: string; size: number }>;
  /** The object's bytes, or a range of them; throws mediaMissing when the store has no such object. */
  open(sha256: string, range?: ByteRange): Promise<StoredBytes>;
  /** Whether the object is there. */
  has(sha256: string): Promise<boolean>;
  /** Removes the object; removing one that is not there is not an error. */
  remove(sha256: string): Promise<void>;
  close?(): Promise<void>;
}

/**
 * Why a file was not kept, as `media.error` reports it ({code, message}); never an answer's error
 * (the message itself is kept and served as before).
 */
export class MediaKeepError extends Error {
  constructor(
    readonly code: 'media_store_failed' | 'media_too_large' | 'media_missing' | 'media_expired' | 'media_invalid' | 'media_unavailable',
    message: string,
  ) {
    super(message);
    this.name = 'MediaKeepError';
  }
}

/** The store refused or failed to write (a full disk, an object store that answers an error). */
export const mediaStoreFailed = (why: string) => new MediaKeepError('media_store_failed', `The media store could not keep this file: ${why}`);

/** The file is larger than the policy keeps. */
export const mediaTooLarge = (maxBytes: number) => new MediaKeepError('media_too_large', `The file is larger than the ${maxBytes} bytes the media policy keeps.`);

/** The store has no object by that hash (removed, or never written). */
export const mediaMissing = () => new MediaKeepError('media_missing', 'The media store no longer has this file.');

/** A lowercase hex SHA-256: the only names objects have. */
export const SHA256_HEX = /^[0-9a-f]{64}$/;
