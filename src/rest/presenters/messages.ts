import type { z } from 'zod';
import type * as documented from '../openapi/schemas.js';
import type { MessageRecord } from '../../domain/messages/messages.ports.js';
import { kindFields, messageMedia } from '../../domain/messages/message-fields.js';
import { messageErrorOf } from '../../domain/messages/message-error.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

type Output = z.output<typeof documented.Message>;

const present = <K extends keyof Output>(key: K, value: Output[K] | null | undefined): Partial<Pick<Output, K>> =>
  value == null ? {} : ({ [key]: value } as Partial<Pick<Output, K>>);

export function presentMessage(message: MessageRecord): Output {
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
    ...present('media', messageMedia(message)),
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
