import { DomainError } from '../errors.js';
import type { JsonValue } from '../messages/message-values.js';

export const INBOUND_MEDIA_TYPES = ['image', 'video', 'audio', 'document', 'sticker'] as const;
export type InboundMediaType = (typeof INBOUND_MEDIA_TYPES)[number];

/**
 * A received file as the network describes it, stored with its message. The bytes stay with the
 * network (decrypted on demand); `source` is the engine's own way to fetch them again, opaque to the
 * rest of the gateway.
 */
export interface MediaDescriptor {
  type: InboundMediaType;
  mimetype: string;
  /** Bytes of the file (decrypted), when the network said. */
  size: number | null;
  fileName: string | null;
  /** A voice note (audio recorded in the app) rather than an audio file. */
  voice?: boolean;
  source: JsonValue;
}

/** What a media source answers: the file's bytes as they stream in, and their length when known. */
export interface MediaContent {
  bytes: AsyncIterable<Uint8Array>;
  size: number | null;
}

/**
 * The capability of an engine whose network keeps received files (docs/architecture.md, "Chat engines"): it opens a stored
 * descriptor's bytes. An engine without it serves no inbound media.
 */
export interface MediaSource {
  /**
   * Throws MediaExpired when the network no longer has the file. `instanceId`: the instance that
   * received it, whose proxy the download goes through (docs/settings.md, "Proxy").
   */
  open(descriptor: MediaDescriptor, instanceId?: string): Promise<MediaContent>;
}

/** The network no longer serves the file (its retention ended): asking again will not help. */
export class MediaExpired extends DomainError {
  constructor() {
    super('media_expired', 'The network no longer has this media (it expired); ask the sender to send it again.');
  }
}

/**
 * The file the network served is not the one its message vouched for (its MAC or a hash does not
 * match), or the message names no file on the network's media hosts: nothing of it is served.
 */
export class MediaInvalid extends DomainError {
  constructor(why: string) {
    super('media_invalid', `The network's copy of this media cannot be trusted (${why}); nothing of it was served.`);
  }
}

/** A descriptor as stored (JSON), or null when the value is not one. */
export function asDescriptor(value: JsonValue | undefined): MediaDescriptor | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const record = value as Record<string, JsonValue>;
  if (typeof record.type !== 'string' || typeof record.mimetype !== 'string') return null;
  return record as unknown as MediaDescriptor;
}
