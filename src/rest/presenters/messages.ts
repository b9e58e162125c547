import type { z } from 'zod';
import type * as documented from '../openapi/schemas.js';
import type { MessageRecord } from '../../domain/messages/messages.ports.js';
import { messageMedia } from '../../domain/messages/message-events.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

type Output = z.output<typeof documented.Message>;

export function presentMessage(message: MessageRecord): Output {
  return {
    id: message.id,
    to: message.to,
    from: message.from,
    direction: message.direction,
    networkMessageId: message.networkMessageId,
    type: message.type,
    text: message.text,
    fromLid: message.fromLid,
    media: messageMedia(message),
    contacts: message.contacts as Output['contacts'],
    reaction: message.reaction as Output['reaction'],
    quoted: message.quoted as Output['quoted'],
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
