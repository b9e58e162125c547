import { proto } from 'baileys';
import type { Account, Accounts } from './accounts.js';
import type { InboundContent } from '../types.js';

/** A message of a phone's past: sent from the phone itself (`fromMe`) or by the other side. */
export interface PastMessage {
  /** The network id; one is made when left out. */
  id?: string;
  /** A text; or `content`, any kind a phone sends (media is uploaded when the chunk is built). */
  text?: string;
  content?: InboundContent;
  /** The content as built (the chunk's `message`); made from `text` or `content`. */
  built?: proto.IMessage;
  at: Date;
  fromMe?: boolean;
  /** In a group, the phone that sent it when it was not the phone itself. */
  author?: string;
  /** What the phone last saw of a message it sent. */
  status?: 'sent' | 'delivered' | 'read';
}

/** A chat on the phone before any device was linked. */
export interface PastChat {
  /** The other phone's number, or a group's jid. */
  with: string;
  /** The phone knows this person by LID alone: the chat is `<lid>@lid` and the sync carries no number for it. */
  lidOnly?: boolean;
  /** A group's subject or the name the phone saved the person under. */
  name?: string;
  unreadCount?: number;
  archived?: boolean;
  pinned?: boolean;
  messages: PastMessage[];
}

/** What a phone had before linking, and how its history sync hands it over (test/networks/README.md, "History"). */
export interface PhonePast {
  chats: PastChat[];
  /** Chats per chunk: the first chunk is INITIAL_BOOTSTRAP, the others RECENT; 2 by default. */
  chatsPerChunk?: number;
  /** The newest messages of each chat the sync carries (older ones only on demand); all by default. */
  messagesPerChat?: number;
  /** Chunks handed to a device per connection (the rest on its next connections); all by default. */
  chunksPerConnection?: number;
}

/** One chunk of the sync, before it is uploaded: what its notification says of it, and the blob itself. */
export interface HistoryChunk {
  syncType: proto.HistorySync.HistorySyncType;
  chunkOrder: number;
  progress: number | null;
  sync: proto.IHistorySync;
}

const Type = proto.HistorySync.HistorySyncType;
const Status = proto.WebMessageInfo.Status;
const STATUS = { sent: Status.SERVER_ACK, delivered: Status.DELIVERY_ACK, read: Status.READ } as const;

let counter = 0;
/** Ids of past messages nobody named: stable per message once made. */
const pastId = () => `PAST${Date.now().toString(16).toUpperCase()}${(counter++).toString(16).toUpperCase().padStart(6, '0')}`;

/** The chat's jid as the phone's sync names it. */
export function pastChatJid(chat: PastChat, accounts: Accounts): string {
  if (chat.with.endsWith('@g.us')) return chat.with;
  const peer = accounts.get(chat.with.replace(/^\+/, ''));
  return chat.lidOnly ? peer.jid('lid') : peer.jid('pn');
}

/** The past as a phone keeps it: ids given, each chat's messages newest first. */
export function settled(past: PhonePast): PhonePast {
  return {
    ...past,
    chats: past.chats.map((chat) => ({
      ...chat,
      with: chat.with.replace(/^\+/, ''),
      messages: chat.messages.map((message) => ({ ...message, id: message.id ?? pastId() })).sort((a, b) => b.at.getTime() - a.at.getTime()),
    })),
  };
}

/** One message as the sync carries it (a WebMessageInfo). */
function messageInfo(owner: Account, chat: PastChat, jid: string, message: PastMessage, accounts: Accounts): proto.IWebMessageInfo {
  const group = jid.endsWith('@g.us');
  const author = !message.fromMe && group && message.author ? accounts.get(message.author.replace(/^\+/, '')) : undefined;
  const sender = message.fromMe ? owner : (author ?? (group ? undefined : accounts.get(chat.with)));
  return {
    key: { remoteJid: jid, fromMe: message.fromMe === true, id: message.id!, ...(author ? { participant: author.jid('lid') } : {}) },
    message: message.built ?? { conversation: message.text ?? '' },
    messageTimestamp: Math.floor(message.at.getTime() / 1000),
    ...(sender && !message.fromMe ? { pushName: sender.pushName } : {}),
    ...(message.fromMe ? { status: STATUS[message.status ?? 'delivered'] } : {}),
  };
}

/** A conversation of the sync with `messages` (newest first). */
export function conversationOf(owner: Account, chat: PastChat, messages: PastMessage[], accounts: Accounts): proto.IConversation {
  const jid = pastChatJid(chat, accounts);
  const peer = jid.endsWith('@g.us') ? undefined : accounts.get(chat.with);
  return {
    id: jid,
    ...(chat.name ? { name: chat.name } : {}),
    ...(peer && !chat.lidOnly ? { lidJid: peer.jid('lid') } : {}),
    unreadCount: chat.unreadCount ?? 0,
    archived: chat.archived ?? false,
    pinned: chat.pinned ? Math.floor(Date.now() / 1000) : 0,
    conversationTimestamp: messages[0] ? Math.floor(messages[0].at.getTime() / 1000) : undefined,
    messages: messages.map((message, index) => ({ message: messageInfo(owner, chat, jid, message, accounts), msgOrderId: messages.length - index })),
  };
}

/** The people a chat names with their number: the peer, or a group's authors. */
function peopleOf(chat: PastChat, accounts: Accounts): Account[] {
  if (chat.lidOnly) return [];
  if (!chat.with.endsWith('@g.us')) return [accounts.get(chat.with)];
  return chat.messages.flatMap((message) => (message.author ? [accounts.get(message.author.replace(/^\+/, ''))] : []));
}

const mappingsOf = (people: Account[]) => [...new Set(people)].map((person) => ({ pnJid: person.jid('pn'), lidJid: person.jid('lid') }));

/**
 * The chunks of a phone's history sync, in the order phones send them: INITIAL_BOOTSTRAP (the newest
 * chats), RECENT (the rest, the last at progress 100), then PUSH_NAME with the names of everyone named.
 */
export function historyChunks(owner: Account, past: PhonePast, accounts: Accounts): HistoryChunk[] {
  const perChunk = Math.max(1, past.chatsPerChunk ?? 2);
  const chats = [...past.chats].sort((a, b) => (b.messages[0]?.at.getTime() ?? 0) - (a.messages[0]?.at.getTime() ?? 0));
  const groups: PastChat[][] = [];
  for (let i = 0; i < chats.length; i += perChunk) groups.push(chats.slice(i, i + perChunk));
  if (!groups.length) groups.push([]);
  const chunks: HistoryChunk[] = groups.map((group, index) => {
    const syncType = index === 0 ? Type.INITIAL_BOOTSTRAP : Type.RECENT;
    const progress = Math.round(((index + 1) / groups.length) * 100);
    const conversations = group.map((chat) => conversationOf(owner, chat, chat.messages.slice(0, past.messagesPerChat ?? chat.messages.length), accounts));
    return {
      syncType,
      chunkOrder: index,
      progress,
      sync: { syncType, chunkOrder: index, progress, conversations, phoneNumberToLidMappings: mappingsOf(group.flatMap((chat) => peopleOf(chat, accounts))) },
    };
  });
  const named = [...new Set(chats.flatMap((chat) => peopleOf(chat, accounts)))];
  if (named.length) {
    chunks.push({
      syncType: Type.PUSH_NAME,
      chunkOrder: chunks.length,
      progress: null,
      sync: { syncType: Type.PUSH_NAME, chunkOrder: chunks.length, pushnames: named.map((person) => ({ id: person.jid('pn'), pushname: person.pushName })) },
    });
  }
  return chunks;
}

/** What an ON_DEMAND request asks for: the chat, and how many messages older than which one. */
export interface OnDemandRequest {
  chatJid: string;
  oldestMsgId: string;
  oldestMsgTimestampMs: number;
  count: number;
}

/** The one-chat chunk that answers an ON_DEMAND request: the `count` messages just older than the oldest the device has. */
export function onDemandChunk(owner: Account, past: PhonePast, request: OnDemandRequest, accounts: Accounts): HistoryChunk | undefined {
  const chat = past.chats.find((candidate) => pastChatJid(candidate, accounts) === request.chatJid || (!candidate.with.endsWith('@g.us') && accounts.get(candidate.with).jid('pn') === request.chatJid));
  if (!chat) return undefined;
  const index = chat.messages.findIndex((message) => message.id === request.oldestMsgId);
  const older = index >= 0 ? chat.messages.slice(index + 1) : chat.messages.filter((message) => message.at.getTime() < request.oldestMsgTimestampMs);
  const messages = older.slice(0, Math.max(1, request.count));
  const sync: proto.IHistorySync = {
    syncType: Type.ON_DEMAND,
    chunkOrder: 0,
    conversations: [conversationOf(owner, chat, messages, accounts)],
    phoneNumberToLidMappings: mappingsOf(peopleOf(chat, accounts)),
  };
  return { syncType: Type.ON_DEMAND, chunkOrder: 0, progress: null, sync };
}
