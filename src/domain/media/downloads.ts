import type { Actor } from '../actor.js';
import { assertSameTenant } from '../actor.js';
import { NotFound, Unavailable } from '../errors.js';
import type { EngineRegistry } from '../network/engine.port.js';
import type { InstanceStore } from '../instances/instances.ports.js';
import type { MessageStore } from '../messages/messages.ports.js';
import { servedAs } from './content-types.js';
import { MAX_MEDIA_BYTES } from './limits.js';
import { asDescriptor, type MediaContent } from './media-source.js';
import type { MediaProbe } from './media-probe.js';

async function* once(bytes: Uint8Array) {
  yield bytes;
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
export function createMediaDownloads(deps: { messages: MessageStore; instances: InstanceStore; engines: EngineRegistry; media: MediaProbe }) {
  return {
    async open(actor: Actor, messageId: string): Promise<MediaDownload> {
      const message = await deps.messages.findById(messageId);
      if (!message) throw new NotFound('Message');
      assertSameTenant(actor, message);
      const descriptor = asDescriptor(message.media);
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
        const fileName = decodeURIComponent(new URL(message.mediaUrl).pathname.split('/').pop() ?? '') || null;
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
