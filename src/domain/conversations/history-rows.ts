import { digits } from '../phone.js';
import type { HistoryBatch, HistoryMessage } from '../network/engine-history.js';
import { isGroupChat, lidOfChat } from './chat-id.js';
import type { ChatKind } from './conversations.ports.js';
import { inboundContent } from '../messages/inbound-content.js';

/**
 * A history message as a stored message (docs/conversations.md): the phone's own messages are
 * outbound and sent (or what the phone last saw of them), the others received; both are history.
 */
export interface HistoryRow {
  chatId: string;
  direction: 'in' | 'out';
  status: 'sent' | 'delivered' | 'read';
  networkMessageId: string | null;
  from: string | null;
  fromLid: string | null;
  to: string;
  type: string;
  text: string | null;
  caption: string | null;
  location: unknown;
  media: unknown;
  contacts: unknown;
  reaction: unknown;
  quoted: unknown;
  mentions: unknown;
  group: unknown;
  content: unknown;
  at: Date;
}

export const chatKindOf = (chatId: string): ChatKind => (isGroupChat(chatId) ? 'group' : 'direct');

export function historyRow(instancePhone: string | null, item: HistoryMessage): HistoryRow {
  const { message, chat } = item;
  const own = digits(instancePhone);
  const peer = isGroupChat(chat) ? chat : (lidOfChat(chat) ?? chat);
  return {
    chatId: chat,
    direction: item.fromMe ? 'out' : 'in',
    status: item.fromMe ? (item.status ?? 'sent') : 'delivered',
    networkMessageId: message.networkMessageId,
    from: item.fromMe ? own || null : message.from,
    fromLid: item.fromMe || message.from !== null ? null : (message.fromLid ?? null),
    to: item.fromMe ? peer : own,
    ...inboundContent(message),
    // The message reacted to or quoted is named by the network's id; its gateway id is looked up when shown.
    reaction: message.reaction ? { emoji: message.reaction.emoji, messageId: null, networkMessageId: message.reaction.networkMessageId } : null,
    quoted: message.quotedNetworkId ? { messageId: null, networkMessageId: message.quotedNetworkId } : null,
    at: item.at,
  };
}

/** The rows of a batch, without messages the batch names twice. */
export function historyRows(instancePhone: string | null, batch: HistoryBatch): HistoryRow[] {
  const seen = new Set<string>();
  return batch.messages.flatMap((item) => {
    const key = item.message.networkMessageId;
    if (key !== null && seen.has(key)) return [];
    if (key !== null) seen.add(key);
    return [historyRow(instancePhone, item)];
  });
}
