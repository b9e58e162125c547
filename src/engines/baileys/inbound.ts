import { isJidGroup, isJidStatusBroadcast, jidDecode, normalizeMessageContent, proto, type WAMessage, type WAMessageKey, type WAMessageUpdate } from 'baileys';
import type { InboundMessage, Receipt } from '../../domain/network/engine-messages.js';
import type { ContactInfo, HistoryBatch } from '../../domain/network/engine-history.js';
import type { NetworkEvent } from '../../domain/network/network-events.js';
import type { CallReport } from '../../domain/network/engine.port.js';
import { INBOUND_MEDIA_TYPES, type MediaDescriptor } from '../../domain/media/media-source.js';
import type { BaileysMediaSource } from './media-source.js';
import type { OpenedVote } from './poll-votes.js';
import { userJidDigits } from './message-refs.js';

/** What the network reported in one batch of library events, in the gateway's terms. */
export interface NetworkReports {
  inbound: InboundMessage[];
  receipts: Receipt[];
  deletes: Array<{ networkMessageId: string; deletedBy: string; forEveryone: boolean }>;
  /** Messages edited on the network: their text now, and when. */
  edits?: Array<{ networkMessageId: string; text: string; at: Date; byInstance: boolean }>;
  /** Group, contact and presence changes (session instances' events). */
  events?: NetworkEvent[];
  /** Votes on the instance's polls, opened. */
  votes?: OpenedVote[];
  /** Chunks of the phone's history sync, and people the network told of (names, LID ↔ phone). */
  history?: HistoryBatch[];
  contacts?: ContactInfo[];
  /** Steps of calls to the instance's number (docs/settings.md, "Calls"). */
  calls?: CallReport[];
}

const Status = proto.WebMessageInfo.Status;

/** A status update (`status@broadcast`) or a broadcast list's message (`…@broadcast`), which an instance's settings may ignore. */
export function chatKindOf(jid: string | null | undefined): InboundMessage['chatKind'] {
  if (isJidStatusBroadcast(jid ?? '')) return 'status';
  return jid?.endsWith('@broadcast') ? 'broadcast' : null;
}

/** Chats whose messages name their sender as a participant: groups, status updates and broadcast lists. */
const byParticipant = (jid: string | null | undefined) => isJidGroup(jid ?? undefined) || chatKindOf(jid) !== null;

/**
 * The sender of a message as phone digits: in a 1:1 chat the chat, in a group (a status update, a
 * broadcast) the participant; or the phone jid the network gave beside a LID.
 */
function senderDigits(key: WAMessageKey): string | null {
  if (byParticipant(key.remoteJid)) return userJidDigits(key.participant) ?? userJidDigits(key.participantAlt);
  return userJidDigits(key.remoteJid) ?? userJidDigits(key.remoteJidAlt);
}

/** The jid that names the sender: the participant in a group (a status update, a broadcast), the chat otherwise. */
const senderJid = (key: WAMessageKey) => (byParticipant(key.remoteJid) ? key.participant : key.remoteJid);

/** Chats of the instance's phone: newsletters are not; status updates and broadcasts are, marked (chatKindOf). */
export const isChat = (jid: string | null | undefined) => !!jid && !jid.endsWith('@newsletter');

/** A receipt status the library reports (numbers or names), as the gateway's; null for anything before delivery. */
export function receiptStatus(status: WAMessage['status']): Receipt['status'] | null {
  const value = typeof status === 'string' ? Status[status as keyof typeof Status] : status;
  if (value === Status.DELIVERY_ACK) return 'delivered';
  // Played (a voice note listened to) counts as read.
  if (value === Status.READ || value === Status.PLAYED) return 'read';
  return null;
}

/** The file of a media message as the network describes it; the engine downloads it again from `source`. */
function mediaOf(content: proto.IMessage): { descriptor: MediaDescriptor; caption: string | null } | null {
  for (const type of INBOUND_MEDIA_TYPES) {
    const media = content[`${type}Message`] as (proto.Message.IImageMessage & proto.Message.IDocumentMessage & proto.Message.IAudioMessage) | null | undefined;
    if (!media?.mediaKey || !(media.directPath || media.url)) continue;
    const b64 = (bytes: Uint8Array | null | undefined) => (bytes?.length ? Buffer.from(bytes).toString('base64') : null);
    const source: BaileysMediaSource = {
      mediaType: type,
      directPath: media.directPath ?? null,
      url: media.url ?? null,
      mediaKey: b64(media.mediaKey)!,
      fileEncSha256: b64(media.fileEncSha256),
      fileSha256: b64(media.fileSha256),
    };
    const size = media.fileLength === null || media.fileLength === undefined ? null : Number(media.fileLength);
    return {
      descriptor: {
        type,
        mimetype: media.mimetype ?? 'application/octet-stream',
        size: Number.isSafeInteger(size) ? size : null,
        fileName: media.fileName ?? null,
        ...(type === 'audio' ? { voice: media.ptt === true } : {}),
        source: source as unknown as MediaDescriptor['source'],
      },
      caption: media.caption ?? null,
    };
  }
  return null;
}

/** The context (reply, mentions) any kind of message may carry. */
function contextOf(content: proto.IMessage): proto.IContextInfo | null {
  for (const value of Object.values(content)) {
    const context = (value as { contextInfo?: proto.IContextInfo | null } | null)?.contextInfo;
    if (context) return context;
  }
  return null;
}

/** The network's id of the message a reply quotes. */
function quotedIdOf(content: proto.IMessage): string | null {
  const context = contextOf(content);
  return context?.stanzaId && context.quotedMessage ? context.stanzaId : null;
}

/** The phones a message names as mentioned, as digits (a mention by LID alone has no phone to name). */
function mentionsOf(content: proto.IMessage): { mentions?: string[] } {
  const jids = contextOf(content)?.mentionedJid ?? [];
  const phones = [...new Set(jids.map(userJidDigits).filter((phone): phone is string => phone !== null))];
  return phones.length ? { mentions: phones } : {};
}

/**
 * A message that changes an earlier one (an edit, a delete for everyone, any protocol message) and
 * is not a message of its own: the library reports the change as a messages.update, where it is handled.
 */
function isChange(message: proto.IMessage | null | undefined): boolean {
  return !!(message?.protocolMessage || message?.editedMessage || normalizeMessageContent(message)?.protocolMessage);
}

/** The text of an edited message: the new text, or the new caption of a media message. */
function editedText(message: proto.IMessage | null | undefined): string | null {
  const content = normalizeMessageContent(message);
  if (!content) return null;
  const edited = content.protocolMessage?.editedMessage ? normalizeMessageContent(content.protocolMessage.editedMessage) : content;
  if (!edited) return null;
  const text = edited.conversation ?? edited.extendedTextMessage?.text;
  if (typeof text === 'string') return text;
  for (const type of ['image', 'video', 'document'] as const) {
    const caption = edited[`${type}Message`]?.caption;
    if (typeof caption === 'string') return caption;
  }
  return null;
}

/**
 * The content the gateway keeps of a received message; null for what it does not carry (protocol
 * messages, polls, …). A message the phone sent itself (history) has no sender: `from` is null.
 */
export function inboundOf(message: WAMessage): InboundMessage | null {
  const content = normalizeMessageContent(message.message);
  if (!content || !message.key.id || isChange(message.message)) return null;
  const own = message.key.fromMe === true;
  const from = own ? null : senderDigits(message.key);
  const fromLid = own || from ? null : lidOf(senderJid(message.key));
  if (!own && !from && !fromLid) return null;
  const base = {
    networkMessageId: message.key.id,
    from,
    fromLid,
    pushName: message.pushName ?? null,
    location: null,
    text: null,
    quotedNetworkId: quotedIdOf(content),
    // The subject is filled in by the link from what it knows of the group (group-subjects.ts).
    ...(isJidGroup(message.key.remoteJid ?? undefined) ? { group: { id: message.key.remoteJid!, subject: null } } : {}),
    ...(chatKindOf(message.key.remoteJid) ? { chatKind: chatKindOf(message.key.remoteJid) } : {}),
  };
  const text = content.conversation ?? content.extendedTextMessage?.text;
  if (typeof text === 'string') return { ...base, type: 'text', text, ...mentionsOf(content) };
  const location = content.locationMessage ?? content.liveLocationMessage;
  if (location) {
    const place = content.locationMessage;
    return {
      ...base,
      type: 'location',
      location: {
        latitude: location.degreesLatitude ?? undefined,
        longitude: location.degreesLongitude ?? undefined,
        ...(place?.name ? { name: place.name } : {}),
        ...(place?.address ? { address: place.address } : {}),
      },
    };
  }
  const media = mediaOf(content);
  if (media) return { ...base, type: media.descriptor.type, caption: media.caption, media: media.descriptor, ...mentionsOf(content) };
  const cards = content.contactMessage ? [content.contactMessage] : (content.contactsArrayMessage?.contacts ?? []);
  if (cards.length) {
    return { ...base, type: 'contact', contacts: cards.map((card) => ({ displayName: card.displayName ?? '', vcard: card.vcard ?? '' })) };
  }
  const reaction = content.reactionMessage;
  if (reaction?.key?.id) return { ...base, type: 'reaction', reaction: { emoji: reaction.text ?? '', networkMessageId: reaction.key.id } };
  return null;
}

/** The LID of a LID jid (`<digits>[:device]@lid`), else null. */
export function lidOf(jid: string | null | undefined): string | null {
  const decoded = jid ? jidDecode(jid) : undefined;
  return decoded && decoded.server === 'lid' ? decoded.user : null;
}

/**
 * Messages whose sender the network named by LID alone get the phone jid the library's LID mapping
 * (kept with the engine state) knows for it; the rest stay as they are.
 */
export async function withPhones(messages: WAMessage[], phoneOfLid: (lidJid: string) => Promise<string | null | undefined>): Promise<WAMessage[]> {
  return Promise.all(
    messages.map(async (message) => {
      const { remoteJid, remoteJidAlt, participant, participantAlt } = message.key;
      if (isJidGroup(remoteJid ?? undefined)) {
        if (!participant || !lidOf(participant) || userJidDigits(participantAlt)) return message;
        const phone = await phoneOfLid(participant).catch(() => null);
        return phone ? { ...message, key: { ...message.key, participantAlt: phone } } : message;
      }
      if (!remoteJid || !lidOf(remoteJid) || userJidDigits(remoteJidAlt)) return message;
      const phone = await phoneOfLid(remoteJid).catch(() => null);
      return phone ? { ...message, key: { ...message.key, remoteJidAlt: phone } } : message;
    }),
  );
}

/**
 * messages.upsert: what the phone's contacts sent (new, or handed over again after a reconnect), and
 * the receipts the library folds into the upsert of the instance's own sends.
 */
export function fromUpsert(messages: WAMessage[]): NetworkReports {
  const reports: NetworkReports = { inbound: [], receipts: [], deletes: [] };
  for (const message of messages) {
    if (!isChat(message.key.remoteJid) || !message.key.id) continue;
    if (message.key.fromMe) {
      const status = receiptStatus(message.status);
      if (status) reports.receipts.push({ networkMessageId: message.key.id, status });
      continue;
    }
    // An edit is not a new message: it changes the one it names (fromUpdates).
    if (isChange(message.message)) continue;
    const inbound = inboundOf(message);
    if (inbound) reports.inbound.push(inbound);
  }
  return reports;
}

/**
 * messages.update: receipts of the instance's own sends (delivery and read may come merged), deletes
 * for everyone and edits. `ownEcho` says which edits and deletes the instance just made itself: the
 * action reported those already.
 */
export function fromUpdates(
  updates: WAMessageUpdate[],
  ownDigits: string | null,
  ownEcho: (change: 'edit' | 'revoke', networkMessageId: string) => boolean = () => false,
): NetworkReports {
  const reports: NetworkReports = { inbound: [], receipts: [], deletes: [], edits: [] };
  for (const { key, update } of updates) {
    if (!isChat(key.remoteJid) || !key.id) continue;
    if (update.message?.editedMessage) {
      const text = editedText(update.message.editedMessage.message);
      if (text === null || (key.fromMe && ownEcho('edit', key.id))) continue;
      const seconds = Number(update.messageTimestamp ?? 0);
      reports.edits!.push({ networkMessageId: key.id, text, at: seconds > 0 ? new Date(seconds * 1000) : new Date(), byInstance: key.fromMe === true });
      continue;
    }
    if (update.message === null && update.messageStubType === proto.WebMessageInfo.StubType.REVOKE) {
      if (update.key?.fromMe && ownEcho('revoke', key.id)) continue;
      // The revoke's own key says who deleted: this phone, or the contact of the chat.
      const revoker = update.key?.fromMe ? ownDigits : senderDigits(update.key ?? key);
      if (revoker) reports.deletes.push({ networkMessageId: key.id, deletedBy: revoker, forEveryone: true });
      continue;
    }
    if (!key.fromMe) continue;
    const status = receiptStatus(update.status);
    if (status) reports.receipts.push({ networkMessageId: key.id, status });
  }
  return reports;
}
