import type { MessageRecord, NewOutboundMessage } from './messages.ports.js';
import { chatIdOfRecipient } from '../conversations/chat-id.js';

/** An accepted outbound message as it is stored: queued, with one instant for "accepted". */
export function outboundRecord(message: NewOutboundMessage, id: string): MessageRecord {
  // The answer's timestamp is createdAt, and it equals timestamps.queued.
  const at = message.queuedAt;
  return {
    id,
    tenantId: message.tenantId,
    instanceId: message.instanceId,
    apiKeyId: message.apiKeyId,
    direction: 'out',
    networkMessageId: null,
    to: message.to,
    chatId: chatIdOfRecipient(message.to),
    history: false,
    from: null,
    type: message.type,
    text: message.text,
    mediaUrl: message.mediaUrl ?? null,
    mediaType: message.mediaType ?? null,
    caption: message.caption ?? null,
    location: message.location ?? null,
    content: message.content ?? null,
    media: null,
    contacts: message.contacts ?? null,
    reaction: message.reaction ?? null,
    quoted: message.quoted ?? null,
    fromLid: null,
    mentions: message.mentions?.length ? message.mentions : null,
    poll: message.poll ?? null,
    pollSecret: message.pollSecret ? new Uint8Array(message.pollSecret) : null,
    group: null,
    fileName: message.fileName ?? null,
    voice: message.voice ?? false,
    editedAt: null,
    deletedAt: null,
    status: 'queued',
    mode: message.mode,
    queuedAt: at,
    sentAt: null,
    deliveredAt: null,
    readAt: null,
    failedAt: null,
    error: null,
    createdAt: at,
    updatedAt: at,
  };
}
