import type { Actor } from '../actor.js';
import { assertSameTenant } from '../actor.js';
import { NotFound, Unavailable } from '../errors.js';
import type { EngineRegistry } from '../network/engine.port.js';
import type { InstanceStore } from '../instances/instances.ports.js';
import type { MessageStore } from '../messages/messages.ports.js';
import { OCTET_STREAM, servedAs } from './content-types.js';
import { MAX_MEDIA_BYTES } from './limits.js';
import { asDescriptor, type MediaContent } from './media-source.js';
import type { MediaProbe } from './media-probe.js';
import { MediaKeepError, type MediaStore } from './media-store.port.js';

async function* once(bytes: Uint8Array) {
  yield bytes;
}

const urlFileName = (url: string) => decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '') || null;

/** The store's copy, or null when it no longer has it (removed): then served as before it was kept. */
async function keptCopy(store: MediaStore, sha256: string) {
  try {
    return await store.open(sha256);
  } catch (error) {
    if (error instanceof MediaKeepError && error.code === 'media_missing') return null;
    throw error;
  }
}

/** The type and name a file is downloaded with (servedAs): the sender's name, else `<type>-<message id>`. */
function downloadAs(messageId: string, file: { fileName: string | null; mimetype: string; type: string }) {
  return servedAs(file.mimetype, file.fileName || `${file.type}-${messageId}`);
}

/** A message's media ready to stream: its bytes, and the type and name it is served with (docs/messaging.md, "Serving media"). */
export interface MediaDownload extends MediaContent {
  mimetype: string;
  fileName: string;
}

/**
 * GET /v1/messages/<id>/media: a received file from the network that keeps it (through its engine's
 * media source, docs/architecture.md), or a sent one from the URL it was sent from.
 */
export function createMediaDownloads(deps: { messages: MessageStore; instances: InstanceStore; engines: EngineRegistry; media: MediaProbe; store?: MediaStore | null }) {
  return {
    async open(actor: Actor, messageId: string): Promise<MediaDownload> {
      const message = await deps.messages.findById(messageId);
      if (!message) throw new NotFound('Message');
      assertSameTenant(actor, message);
      const descriptor = asDescriptor(message.media);
      const kept = message.mediaState === 'stored' && message.mediaSha256 && deps.store ? await keptCopy(deps.store, message.mediaSha256) : null;
      if (kept) {
        // The kept copy (docs/media-keeping.md): served after the network's copy or the sender's URL is gone.
        const fileName = message.fileName ?? (message.mediaUrl ? urlFileName(message.mediaUrl) : null);
        const file = descriptor ?? { fileName, mimetype: message.mediaType ?? OCTET_STREAM, type: message.type };
        return { bytes: kept.bytes, size: kept.size, ...downloadAs(message.id, file) };
      }
      if (descriptor) {
        const instance = message.instanceId ? await deps.instances.findById(message.instanceId) : null;
        const source = instance ? deps.engines.of(instance.engine)?.media : undefined;
        // The engine that received it is no longer offered by this deployment: nothing can fetch it now.
        if (!source) throw new Unavailable('The engine that received this media is not offered by this gateway now.');
        const content = await source.open(descriptor);
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
    },
  };
}

export type MediaDownloads = ReturnType<typeof createMediaDownloads>;
