import type { InboundMessage } from '../../domain/network/engine-messages.js';
import type { ContactInfo, HistoryBatch, HistoryChat, HistoryMessage, HistorySyncPolicy } from '../../domain/network/engine-history.js';
import { type PastMessage, type PhonePast, pastNetworkId, pastTag } from './past.js';
import { PAST_PICTURE } from './pictures.js';

/** Messages per batch: a past of a few dozen messages comes in a few batches, as a phone's does. */
const BATCH_SIZE = 6;
const DAY_MS = 86_400_000;
const GROUP = /@g\.us$/;

/** How the gateway receives a past message: the network's message, ids drawn from the phone. */
function historyMessage(phone: string, past: PhonePast, message: PastMessage): HistoryMessage {
  const group = GROUP.test(message.chat) ? { id: message.chat, subject: past.chats.find((chat) => chat.id === message.chat)?.name ?? null } : null;
  const inbound: InboundMessage = {
    networkMessageId: pastNetworkId(phone, message.id),
    from: message.fromMe ? null : (message.from ?? message.chat),
    type: message.type,
    text: message.text,
    caption: message.caption,
    location: message.location,
    media: message.type === 'image' ? { type: 'image', mimetype: PAST_PICTURE.mimetype, size: PAST_PICTURE.bytes.length, fileName: null, source: { past: 'picture' } } : null,
    reaction: message.reaction ? { emoji: message.reaction.emoji, networkMessageId: pastNetworkId(phone, message.reaction.messageId) } : null,
    quotedNetworkId: message.quotedId ? pastNetworkId(phone, message.quotedId) : null,
    group,
    pushName: message.fromMe ? null : message.pushName,
  };
  return { chat: message.chat, fromMe: message.fromMe, at: new Date(message.at), message: inbound, ...(message.fromMe && message.status ? { status: message.status } : {}) };
}

function chatsOf(past: PhonePast, messages: PastMessage[]): HistoryChat[] {
  const ids = new Set(messages.map((message) => message.chat));
  return past.chats.filter((chat) => ids.has(chat.id)).map((chat) => ({ chat: chat.id, name: chat.name, unreadCount: chat.unreadCount, archived: chat.archived, pinned: chat.pinned }));
}

/** The push names the batch's senders gave themselves (group members the phone never saved among them). */
function sendersOf(messages: PastMessage[]): ContactInfo[] {
  const named = new Map<string, string>();
  for (const message of messages) if (!message.fromMe && message.pushName) named.set(message.from ?? message.chat, message.pushName);
  return [...named].map(([phone, pushName]) => ({ phone, pushName }));
}

/** The phone's address book, as the network tells a linked device of it. */
export const addressBook = (past: PhonePast): ContactInfo[] => past.contacts.map((contact) => ({ phone: contact.phone, name: contact.name, pushName: contact.pushName }));

/**
 * The history sync of `phone`'s past under `policy`, newest messages first: none for `none`, the last
 * `days` for `recent`, all for `full`. A batch's key names the past's content, the policy and its place,
 * so the same past synced again gives the same keys (the gateway stores nothing twice).
 */
export function historyBatches(phone: string, past: PhonePast, policy: HistorySyncPolicy, now: Date): HistoryBatch[] {
  if (policy.mode === 'none') return [];
  const since = policy.mode === 'recent' ? now.getTime() - policy.days * DAY_MS : -Infinity;
  const taken = past.messages.filter((message) => Date.parse(message.at) >= since).sort((x, y) => Date.parse(y.at) - Date.parse(x.at));
  const count = Math.max(1, Math.ceil(taken.length / BATCH_SIZE));
  const scope = `${pastTag(past)}:${policy.mode === 'recent' ? `recent${policy.days}` : policy.mode}`;
  return Array.from({ length: count }, (_, index) => {
    const messages = taken.slice(index * BATCH_SIZE, (index + 1) * BATCH_SIZE);
    return {
      key: `sandbox:${phone}:${scope}:${index + 1}`,
      chats: chatsOf(past, messages),
      contacts: sendersOf(messages),
      messages: messages.map((message) => historyMessage(phone, past, message)),
      progress: Math.round((100 * (index + 1)) / count),
      done: index === count - 1,
    };
  });
}

/**
 * What the phone answers a backfill: up to `count` messages of `chat` older than `before` (the
 * gateway's oldest of that chat, by network id or its moment), in one batch; none left, an empty one.
 */
export function backfillBatch(phone: string, past: PhonePast, chat: string, count: number, before: { networkMessageId: string | null; at: Date | null }): HistoryBatch {
  const anchor = past.messages.find((message) => pastNetworkId(phone, message.id) === before.networkMessageId);
  const limit = anchor ? Date.parse(anchor.at) : (before.at?.getTime() ?? Infinity);
  const older = past.messages
    .filter((message) => message.chat === chat && Date.parse(message.at) < limit)
    .sort((x, y) => Date.parse(y.at) - Date.parse(x.at))
    .slice(0, count);
  return {
    key: `sandbox:${phone}:${pastTag(past)}:backfill:${chat}:${before.networkMessageId ?? before.at?.toISOString() ?? 'latest'}:${count}`,
    chats: chatsOf(past, older),
    contacts: sendersOf(older),
    messages: older.map((message) => historyMessage(phone, past, message)),
    progress: null,
    done: true,
  };
}
