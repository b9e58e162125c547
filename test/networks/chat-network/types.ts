import type { proto } from 'baileys';

export type PhoneMessageType =
  | 'text'
  | 'image'
  | 'video'
  | 'audio'
  | 'document'
  | 'sticker'
  | 'location'
  | 'contact'
  | 'contacts'
  | 'reaction'
  | 'poll'
  | 'other';

export interface PhoneLocation {
  latitude: number;
  longitude: number;
  name: string | null;
  address: string | null;
}

/** A message a phone received from a linked device, as the phone shows it. */
export interface PhoneMessage {
  /** The network message id (the stanza id the device chose). */
  id: string;
  /** The sender's phone number (digits) and which of its devices sent it. */
  from: string;
  fromDevice: number;
  /** The chat as the sending device addressed it: `<phone>@s.whatsapp.net` or `<lid>@lid`. */
  chat: string;
  type: PhoneMessageType;
  text: string | null;
  caption: string | null;
  mimetype: string | null;
  fileName: string | null;
  /** Media downloaded from the media host and decrypted with the message's media key. */
  bytes: Buffer | null;
  /** Why `bytes` is null for a media message (download or MAC/hash check failed). */
  mediaError: string | null;
  /** Audio sent as a voice note (`ptt`), and the length the sender gave audio or video. */
  voice: boolean;
  seconds: number | null;
  location: PhoneLocation | null;
  /** A single card (`contactMessage`); `contacts` holds it too, and every card of a `contactsArrayMessage`. */
  contact: PhoneContact | null;
  contacts: PhoneContact[] | null;
  reaction: { messageId: string; emoji: string } | null;
  poll: PhonePoll | null;
  /** Phones named as mentioned (`contextInfo.mentionedJid`), as digits; a jid the network cannot map stays as it came. */
  mentions: string[];
  /** The message this one replies to. */
  quoted: { messageId: string; participant: string | null } | null;
  /** The sender deleted it for everyone. */
  revoked: boolean;
  revokedAt: Date | null;
  /** The sender edited it; `text` (or `caption`) holds the latest version, `edits` every version after the first. */
  edited: boolean;
  editedAt: Date | null;
  edits: { text: string | null; at: Date }[];
  receivedAt: Date;
  /** The decrypted content, for anything the fields above leave out. */
  message: proto.IMessage;
}

export interface PhoneContact {
  displayName: string;
  vcard: string;
}

/** A poll as the receiving phone sees it: the secret is what a vote on it is encrypted with. */
export interface PhonePoll {
  name: string;
  options: string[];
  /** 0 = any number of options, 1 = single choice. */
  selectableCount: number;
  /** `messageContextInfo.messageSecret`, base64 (null if the sender left it out: nobody can vote then). */
  secret: string | null;
}

/** Media a phone sends: plain bytes, encrypted by the network with a fresh media key. */
export interface PhoneMedia {
  bytes: Buffer;
  mimetype: string;
  caption?: string;
  fileName?: string;
  /** Audio only: a voice note. */
  ptt?: boolean;
  seconds?: number;
  /** The media host answers 410 for the file from the start (media past retention). */
  expired?: boolean;
  /** What a hostile sender writes into the message instead of where the file is: any URL, any direct path. */
  forged?: { url?: string; directPath?: string | null; fileLength?: number };
  /** The media host keeps the file with one byte changed, so it no longer matches its MAC and hashes. */
  corrupt?: boolean;
}

/** What a phone can send to a linked account. */
export type InboundContent =
  | { text: string }
  | { location: { latitude: number; longitude: number; name?: string; address?: string } }
  | { image: PhoneMedia }
  | { video: PhoneMedia }
  | { audio: PhoneMedia }
  | { document: PhoneMedia }
  | { sticker: PhoneMedia }
  | { contact: PhoneContact }
  | { contacts: PhoneContact[] }
  | { reaction: { messageId: string; emoji: string } }
  | { poll: { name: string; options: string[]; selectableCount?: number } };

export interface SendOptions {
  /** The network message id; a fresh one when omitted. */
  id?: string;
  /** The sender's push name on this message (`notify`); the account's own when omitted. */
  pushName?: string;
  /** Reply to this message id (one the two of them exchanged). */
  quoted?: string;
  /** Text only: phones it mentions (`contextInfo.mentionedJid`; LIDs in groups, phone jids otherwise). */
  mentions?: string[];
  /**
   * How the stanza names the sender: `pn` (default) from the phone number with `sender_lid`, `lid`
   * from the LID with `sender_pn`. `asLid: true` sends from the LID with nothing naming the phone.
   */
  addressing?: 'pn' | 'lid';
  asLid?: boolean;
}

export type ReceiptType = 'delivered' | 'read' | 'played';

export type StreamErrorCode = 408 | 428 | 440 | 401 | 403 | 500 | 503 | 515;

export type PresenceType = 'available' | 'unavailable' | 'composing' | 'recording' | 'paused';

export interface DeviceSummary {
  phone: string;
  deviceId: number;
  jid: string;
  lid: string;
  platform: string;
  connected: boolean;
  loggedOut: boolean;
  /** Stanzas waiting for the device to acknowledge them (its offline queue). */
  pending: number;
  linkedAt: Date;
}

export interface NetworkStats {
  connections: number;
  handshakesInFlight: number;
  maxHandshakesInFlight: number;
  logins: number;
  /** Handshakes clients began, and those they finished (a client that refuses the server's certificate never does). */
  hellos: number;
  handshakesFinished: number;
}
