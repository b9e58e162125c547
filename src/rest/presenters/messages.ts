import type { z } from 'zod';
import type * as documented from '../openapi/schemas.js';
import type { MessageRecord } from '../../domain/messages/messages.ports.js';
import { kindFields, messageMedia } from '../../domain/messages/message-fields.js';
import { messageErrorOf } from '../../domain/messages/message-error.js';
import type { MediaLinks } from '../../domain/media/media-links.port.js';
import { signMedia } from '../../domain/media/signed-media.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

type Output = z.output<typeof documented.Message>;

const present = <K extends keyof Output>(key: K, value: Output[K] | null | undefined): Partial<Pick<Output, K>> =>
  value == null ? {} : ({ [key]: value } as Partial<Pick<Output, K>>);

/** The message as answers show it, its media with a signed link made now (docs/media.md). */
export function presentMessage(message: MessageRecord, links: MediaLinks): Output {
  const media = messageMedia(message);
  return {
    id: message.id,
    to: message.to,
    from: message.from,
    direction: message.direction,
    networkMessageId: message.networkMessageId,
    type: message.type,
    text: message.text,
    // What only some messages carry is shown only on them: a text message keeps the spec's shape.
    ...present('fromLid', message.fromLid),
    ...present('media', media && signMedia(media, message.id, links)),
    ...(kindFields(message) as Partial<Output>),
    status: message.status,
    mode: message.mode,
    instanceId: message.instanceId,
    createdAt: message.createdAt.toISOString(),
    updatedAt: message.updatedAt.toISOString(),
    timestamps: {
      queued: iso(message.queuedAt),
      sent: iso(message.sentAt),
      delivered: iso(message.deliveredAt),
      read: iso(message.readAt),
      failed: iso(message.failedAt),
    },
    error: messageErrorOf(message.error),
  };
}
