import type { ChatRecord } from '../../../domain/conversations/conversations.ports.js';
import { chatKindOf } from '../../../domain/conversations/history-rows.js';
import { lidChatId } from '../../../domain/conversations/chat-id.js';
import type { NewInboundMessage } from '../../../domain/messages/messages.ports.js';
import { readChat, type RawClient, touchChats } from './chat-rows.js';

/** Kept from a received message: the sender's push name on their contact, only when it changed. */
const KEEP_PUSH_NAME = `
INSERT INTO "Contact" AS k ("instanceId", id, "tenantId", phone, lid, "pushName", "onNetwork", "updatedAt")
VALUES ($1::uuid, $2, $3::uuid, $4, $5, $6, true, now())
ON CONFLICT ("instanceId", id) DO UPDATE SET "pushName" = excluded."pushName", "onNetwork" = true, "updatedAt" = now()
WHERE k."pushName" IS DISTINCT FROM excluded."pushName"`;

/**
 * The chat a received message lands in, in the message's transaction: made or moved, one more unread
 * (a reaction is no new message to read), and the sender's push name kept.
 */
export async function inboundChat(tx: RawClient, message: NewInboundMessage, messageId: string): Promise<{ chat: ChatRecord; created: boolean }> {
  const group = message.group ?? null;
  const [touched] = await touchChats(tx, [
    {
      instanceId: message.instanceId,
      chatId: message.chatId,
      tenantId: message.tenantId,
      kind: chatKindOf(message.chatId),
      subject: group?.subject ?? null,
      messageId,
      at: message.at.toISOString(),
      unread: message.type === 'reaction' ? 0 : 1,
    },
  ]);
  const sender = message.from ?? (message.fromLid ? lidChatId(message.fromLid) : null);
  if (message.pushName && sender) {
    await tx.$executeRawUnsafe(KEEP_PUSH_NAME, message.instanceId, sender, message.tenantId, message.from, message.fromLid, message.pushName);
  }
  const chat = await readChat(tx, message.instanceId, message.chatId);
  return { chat: chat!, created: touched!.created };
}
