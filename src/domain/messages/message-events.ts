import type { MessageRecord, OutboxEventInput } from './messages.ports.js';

const iso = (date: Date | null) => date?.toISOString();

/** messages.upsert, spec 6.2: the message as it enters the network (sent) or arrives (received). */
export function upsertEvent(message: MessageRecord, extra: { pushName?: string | null } = {}): OutboxEventInput {
  return {
    event: 'messages.upsert',
    data: {
      messageId: message.id,
      from: message.from ?? '',
      to: message.to,
      fromMe: message.direction === 'out',
      type: message.type,
      text: message.text ?? message.caption ?? '',
      timestamp: (message.direction === 'out' ? message.sentAt ?? message.createdAt : message.createdAt).toISOString(),
      ...(message.location ? { location: message.location } : {}),
      ...(message.mediaUrl ? { mediaUrl: message.mediaUrl } : {}),
      // A template sent, or what an inbound message carries beyond text (media id, contacts, reaction, reply).
      ...(message.content ? { content: message.content } : {}),
      ...(extra.pushName ? { pushName: extra.pushName } : {}),
    },
  };
}

/** messages.update, spec 6.2: the status with the time of every step so far. */
export function statusEvent(message: MessageRecord): OutboxEventInput {
  const timestamps = Object.fromEntries(
    Object.entries({ sent: iso(message.sentAt), delivered: iso(message.deliveredAt), read: iso(message.readAt), failed: iso(message.failedAt) }).filter(
      ([, v]) => v !== undefined,
    ),
  );
  return { event: 'messages.update', data: { messageId: message.id, status: message.status, timestamps } };
}
