import type { Actor } from '../actor.js';
import { assertSameTenant } from '../actor.js';
import { NotFound, Unavailable } from '../errors.js';
import type { EngineRegistry } from '../network/engine.port.js';
import type { InstanceStore } from '../instances/instances.ports.js';
import type { MessageRecord, MessageStore } from '../messages/messages.ports.js';
import { OCTET_STREAM, servedAs } from './content-types.js';
import { MAX_MEDIA_BYTES } from './limits.js';
import { asDescriptor, type MediaContent } from './media-source.js';
import type { MediaProbe } from './media-probe.js';
import { type RangeSpec, resolveRange } from './byte-ranges.js';
import { type ByteRange, MediaKeepError, type MediaStore } from './media-store.port.js';

async function* once(bytes: Uint8Array) {
  yield bytes;
}

const urlFileName = (url: string) => decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '') || null;

/** The type and name a file is downloaded with (servedAs): the sender's name, else `<type>-<message id>`. */
function downloadAs(messageId: string, file: { fileName: string | null; mimetype: string; type: string }) {
  return servedAs(file.mimetype, file.fileName || `${file.type}-${messageId}`);
}

/** A message's media ready to stream: its bytes, and the type and name it is served with (docs/messaging.md, "Serving media"). */
export interface MediaDownload extends MediaContent {
  mimetype: string;
  fileName: string;
  /** The part of the file `bytes` holds, when a range of a kept copy was asked for (`size` is the whole file's). */
  range?: ByteRange;
  /** Served from the gateway's kept copy, which answers ranges. */
  kept?: boolean;
}

/** The type and name a kept copy is served with: those of the message's file. */
function keptAs(message: MessageRecord) {
  const descriptor = asDescriptor(message.media);
  if (descriptor) return downloadAs(message.id, descriptor);
  const fileName = message.fileName ?? (message.mediaUrl ? urlFileName(message.mediaUrl) : null);
  return downloadAs(message.id, { fileName, mimetype: message.mediaType ?? OCTET_STREAM, type: message.type });
}

/**
 * GET /v1/messages/<id>/media: a received file from the network that keeps it (through its engine's
 * media source, docs/architecture.md), or a sent one from the URL it was sent from.
 */
export function createMediaDownloads(deps: { messages: MessageStore; instances: InstanceStore; engines: EngineRegistry; media: MediaProbe; store: MediaStore | null }) {
  /**
   * A kept copy, whole or the range asked for (docs/media.md, "Ranges"): a first byte read
   * tells the file's size, which a range from the end needs, in every store alike.
   */
  async function kept(message: MessageRecord, store: MediaStore, sha256: string, spec: RangeSpec | null): Promise<MediaDownload> {
    if (!spec) return { ...(await store.open(sha256)), kept: true, ...keptAs(message) };
    const probe = await store.open(sha256, { start: 0, end: 0 });
    for await (const _ of probe.bytes);
    const range = resolveRange(spec, probe.size);
    return { ...(await store.open(sha256, range)), range, kept: true, ...keptAs(message) };
  }

  async function serve(message: MessageRecord, spec: RangeSpec | null): Promise<MediaDownload> {
    if (message.mediaState === 'stored' && message.mediaSha256 && deps.store) {
      try {
        return await kept(message, deps.store, message.mediaSha256, spec);
      } catch (error) {
        // The store lost the object (removed by hand, another store configured): served as before it was kept.
        if (!(error instanceof MediaKeepError && error.code === 'media_missing')) throw error;
      }
    }
    const descriptor = asDescriptor(message.media);
    if (descriptor) {
      const instance = message.instanceId ? await deps.instances.findById(message.instanceId) : null;
      const source = instance ? deps.engines.of(instance.engine)?.media : undefined;
      // The engine that received it is no longer offered by this deployment: nothing can fetch it now.
      if (!source) throw new Unavailable('The engine that received this media is not offered by this gateway now.');
      const content = await source.open(descriptor, message.instanceId ?? undefined);
      return { ...content, ...downloadAs(message.id, descriptor) };
    }
    if (message.direction === 'out' && message.mediaUrl) {
      const fetched = await deps.media.fetch(message.mediaUrl, MAX_MEDIA_BYTES);
      const mimetype = message.mediaType ?? fetched.contentType;
      const fileName = urlFileName(message.mediaUrl);
      return { bytes: once(fetched.bytes), size: fetched.bytes.length, ...downloadAs(message.id, { fileName, mimetype, type: message.type }) };
    }
    if (message.direction === 'out' && message.mediaType) {
      // A file uploaded with the send: its bytes are kept with the message.
      const bytes = await deps.messages.fileOf(message.id);
      if (bytes) {
        return { bytes: once(bytes), size: bytes.length, ...downloadAs(message.id, { fileName: message.fileName, mimetype: message.mediaType, type: message.type }) };
      }
    }
    throw new NotFound('Media of that message');
  }

  return {
    /** With the caller's credentials; `range` is served only from a kept copy (others are answered whole). */
    async open(actor: Actor, messageId: string, range: RangeSpec | null = null): Promise<MediaDownload> {
      const message = await deps.messages.findById(messageId);
      if (!message) throw new NotFound('Message');
      assertSameTenant(actor, message);
      return serve(message, range);
    },
    /** Through a signed link, checked by the caller: the signature stands for the credentials. */
    async openLinked(messageId: string, range: RangeSpec | null = null): Promise<MediaDownload> {
      const message = await deps.messages.findById(messageId);
      if (!message) throw new NotFound('Message');
      return serve(message, range);
    },
  };
}

export type MediaDownloads = ReturnType<typeof createMediaDownloads>;
