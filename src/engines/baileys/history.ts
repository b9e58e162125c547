import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import { isJidGroup, jidDecode, processHistoryMessage, proto, type WAMessage } from 'baileys';
import type { ContactInfo, HistoryBatch, HistoryChat, HistoryMessage, HistorySyncPolicy } from '../../domain/network/engine-history.js';
import type { MediaDescriptor, MediaSource } from '../../domain/media/media-source.js';
import { lidChatId } from '../../domain/conversations/chat-id.js';
import { inboundOf, isChat, lidOf, receiptStatus } from './inbound.js';
import type { BaileysMediaSource } from './media-source.js';
import { userJidDigits } from './message-refs.js';

const inflated = promisify(inflate);
const Type = proto.HistorySync.HistorySyncType;
const DAY_MS = 86_400_000;
/** A chunk inflates to at most this: a blob that would grow past it is refused, not held in memory. */
const MAX_INFLATED_BYTES = 128 * 1024 * 1024;
const inflateChunk = (bytes: Uint8Array) => inflated(bytes, { maxOutputLength: MAX_INFLATED_BYTES });

/** A history sync notification the instance's own phone sent (docs/engines.md, "History sync"). */
export interface HistoryNotice {
  /** The notification's message id: the same when the network hands the chunk over again. */
  id: string;
  notification: proto.Message.IHistorySyncNotification;
}

/** The history sync notifications among upserted messages: only the instance's own phone sends them. */
export function historyNotices(messages: WAMessage[]): HistoryNotice[] {
  return messages.flatMap((message) => {
    const notification = message.message?.protocolMessage?.historySyncNotification;
    return message.key.fromMe && message.key.id && notification ? [{ id: message.key.id, notification }] : [];
  });
}

/** The LID ↔ phone pairs of a LID-migration mapping sync the phone sent (the library keeps them but tells no event). */
export function migratedMappings(messages: WAMessage[]): ContactInfo[] {
  return messages.flatMap((message) => {
    const payload = message.key.fromMe ? message.message?.protocolMessage?.lidMigrationMappingSyncMessage?.encodedMappingPayload : undefined;
    if (!payload?.length) return [];
    try {
      const { pnToLidMappings } = proto.LIDMigrationMappingSyncPayload.decode(payload);
      return pnToLidMappings.map(({ pn, latestLid, assignedLid }) => ({ phone: String(pn), lid: String(latestLid || assignedLid) }));
    } catch {
      return [];
    }
  });
}

/** The chunk's `HistorySync`: inline in the notification, or downloaded from the network's media hosts and verified. */
export async function readHistory(notice: HistoryNotice, media: MediaSource, hosts: string[]): Promise<proto.HistorySync> {
  const { notification } = notice;
  if (notification.initialHistBootstrapInlinePayload?.length) return proto.HistorySync.decode(await inflateChunk(notification.initialHistBootstrapInlinePayload));
  const b64 = (bytes: Uint8Array | null | undefined) => (bytes?.length ? Buffer.from(bytes).toString('base64') : null);
  const source: BaileysMediaSource = {
    mediaType: 'md-msg-hist',
    directPath: notification.directPath ?? null,
    url: null,
    mediaKey: b64(notification.mediaKey) ?? '',
    fileEncSha256: b64(notification.fileEncSha256),
    fileSha256: b64(notification.fileSha256),
    hosts,
  };
  const descriptor: MediaDescriptor = { type: 'document', mimetype: 'application/octet-stream', size: null, fileName: null, source: source as unknown as MediaDescriptor['source'] };
  const content = await media.open(descriptor);
  const chunks: Buffer[] = [];
  for await (const chunk of content.bytes) chunks.push(Buffer.from(chunk));
  return proto.HistorySync.decode(await inflateChunk(Buffer.concat(chunks)));
}

/** Resolves a LID jid to the phone digits the chunk or the library's mapping knows, else null. */
export type LidPhones = (lidJid: string) => Promise<string | null>;

/** A chat id by the chat-id rule (src/domain/conversations/chat-id.ts): group id, phone digits, or `<lid>@lid`. */
async function chatIdOf(jid: string | null | undefined, phones: LidPhones): Promise<string | null> {
  if (!jid || !isChat(jid)) return null;
  if (isJidGroup(jid)) return jid;
  const digits = userJidDigits(jid);
  if (digits) return digits;
  const lid = lidOf(jid);
  if (!lid) return null;
  return (await phones(jid)) ?? lidChatId(lid);
}

/** Whether the policy takes a message sent at `at` (ON_DEMAND batches were asked for: always taken). */
function takes(policy: HistorySyncPolicy, syncType: number, at: Date, now: number): boolean {
  if (syncType === Type.ON_DEMAND) return true;
  if (policy.mode === 'none') return false;
  return policy.mode === 'full' || at.getTime() >= now - policy.days * DAY_MS;
}

const secondsOf = (value: unknown) => Number(value ?? 0);

function mutedUntilOf(muteEndTime: unknown): HistoryChat['mutedUntil'] {
  const seconds = secondsOf(muteEndTime);
  if (seconds === -1) return 'forever';
  return seconds > 0 ? new Date(seconds * 1000) : null;
}

/** What one chunk tells: a batch of history (null when the policy takes nothing of it) and the people it names. */
export interface ChunkReport {
  batch: HistoryBatch | null;
  contacts: ContactInfo[];
  /** LID ↔ phone jid pairs, for the library's mapping. */
  mappings: { lid: string; pn: string }[];
}

/**
 * A chunk in the gateway's terms: its messages converted as received ones are (fromMe ones without a
 * sender), those the instance's history policy takes, the chats they belong to, and the contacts and
 * LID mappings it carries. PUSH_NAME chunks carry only names: they are contacts, not a batch.
 */
export async function chunkReport(notice: HistoryNotice, sync: proto.HistorySync, policy: HistorySyncPolicy, known: LidPhones, now = Date.now()): Promise<ChunkReport> {
  const data = processHistoryMessage(sync);
  const mappings = data.lidPnMappings.filter((pair) => lidOf(pair.lid) && userJidDigits(pair.pn));
  const fromChunk = new Map(mappings.map((pair) => [jidDecode(pair.lid)!.user, userJidDigits(pair.pn)!]));
  const phones: LidPhones = async (jid) => fromChunk.get(jidDecode(jid)?.user ?? '') ?? (await known(jid));
  const syncType = Number(notice.notification.syncType ?? data.syncType);

  const contacts = new Map<string, ContactInfo>();
  const person = (info: ContactInfo) => {
    const key = info.phone ?? `${info.lid}@lid`;
    contacts.set(key, { ...contacts.get(key), ...Object.fromEntries(Object.entries(info).filter(([, value]) => value !== undefined && value !== null)), phone: info.phone } as ContactInfo);
  };
  for (const [lid, phone] of fromChunk) person({ phone, lid });
  const takesNames = policy.mode !== 'none' || syncType === Type.ON_DEMAND;
  for (const contact of takesNames ? data.contacts : []) {
    if (!contact.id || isJidGroup(contact.id)) continue;
    const lid = lidOf(contact.id) ?? lidOf(contact.lid);
    const phone = userJidDigits(contact.id) ?? userJidDigits(contact.phoneNumber) ?? (lid ? await phones(`${lid}@lid`) : null);
    if (!phone && !lid) continue;
    person({ phone, lid: lid ?? undefined, name: contact.name ?? undefined, pushName: contact.notify ?? undefined });
  }
  if (syncType === Type.PUSH_NAME) return { batch: null, contacts: [...contacts.values()], mappings };

  const messages: HistoryMessage[] = [];
  const kept = new Set<string>();
  for (const message of data.messages) {
    const at = new Date(secondsOf(message.messageTimestamp) * 1000);
    if (!takes(policy, syncType, at, now)) continue;
    const chat = await chatIdOf(message.key.remoteJid, phones);
    if (!chat) continue;
    const inbound = inboundOf(message.key.fromMe ? message : await withSenderPhone(message, phones));
    if (!inbound) continue;
    const fromMe = message.key.fromMe === true;
    const status = fromMe ? receiptStatus(message.status) : null;
    messages.push({ chat, fromMe, at, message: fromMe ? { ...inbound, from: null, fromLid: null } : inbound, ...(fromMe ? { status: status === 'delivered' || status === 'read' ? status : 'sent' } : {}) });
    kept.add(chat);
  }
  const chats: HistoryChat[] = [];
  for (const conversation of data.chats) {
    const chat = await chatIdOf(conversation.id, phones);
    if (!chat) continue;
    const at = new Date(secondsOf(conversation.conversationTimestamp) * 1000);
    if (!kept.has(chat) && !takes(policy, syncType, at, now)) continue;
    chats.push({
      chat,
      name: conversation.name || conversation.displayName || null,
      unreadCount: conversation.unreadCount ?? 0,
      archived: conversation.archived === true,
      pinned: secondsOf(conversation.pinned) > 0,
      mutedUntil: mutedUntilOf(conversation.muteEndTime),
    });
  }
  if (policy.mode === 'none' && syncType !== Type.ON_DEMAND) return { batch: null, contacts: [...contacts.values()], mappings };
  const progress = notice.notification.progress ?? data.progress ?? null;
  const onDemand = syncType === Type.ON_DEMAND;
  return {
    batch: {
      key: notice.id,
      chats,
      contacts: [...contacts.values()],
      messages,
      progress: onDemand ? null : progress,
      done: !onDemand && progress === 100,
    },
    contacts: [],
    mappings,
  };
}

/** A message whose sender the chunk names by LID gets the sender's phone jid beside it, when known (as live ones do). */
async function withSenderPhone(message: WAMessage, phones: LidPhones): Promise<WAMessage> {
  const group = isJidGroup(message.key.remoteJid ?? undefined);
  const sender = group ? message.key.participant : message.key.remoteJid;
  if (!sender || !lidOf(sender)) return message;
  const phone = await phones(sender);
  if (!phone) return message;
  const alt = `${phone}@s.whatsapp.net`;
  return { ...message, key: { ...message.key, ...(group ? { participantAlt: alt } : { remoteJidAlt: alt }) } };
}
