import type { z } from 'zod';
import type * as documented from '../openapi/schemas.js';
import type { MessageRecord } from '../../domain/messages/messages.ports.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function presentMessage(message: MessageRecord): z.output<typeof documented.Message> {
  return {
    id: message.id,
    to: message.to,
    from: message.from,
    direction: message.direction,
    networkMessageId: message.networkMessageId,
    type: message.type,
    text: message.text,
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
    error: message.error,
  };
}
