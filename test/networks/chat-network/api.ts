import type { Logger } from 'pino';
import type { HistoryRequest } from './handlers/history.js';
import type { PollVote } from './handlers/phones.js';
import type { PhonePast } from './state/history.js';
import type { ChatState, PresenceState } from './handlers/presence.js';
import type { CertificateFlaw } from './protocol/certificates.js';
import type { GroupSettings, GroupSummary, ParticipantAction } from './state/groups.js';
import type { DeliveredStanza, IssuedToken, PhoneReceipt, ReceivedStanza } from './state/journal.js';
import type { ProfileChange } from './state/profiles.js';
import type {
  DeviceSummary,
  InboundContent,
  NetworkStats,
  PhoneMessage,
  PresenceType,
  ReceiptType,
  SendOptions,
  StreamErrorCode,
} from './types.js';

export interface ChatNetworkOptions {
  /** Where the WebSocket, control API and media host listen: 127.0.0.1 by default. */
  host?: string;
  /** Port of the WebSocket and control API (0, the default, picks a free one). */
  port?: number;
  /** Refs per `pair-device` (one QR code each); 6 like the real network. */
  qrRefs?: number;
  /** How long each QR ref stays scannable; set it to the client's `qrTimeout` when that is set. */
  qrTimeoutMs?: number;
  /** Phones send delivery receipts for what they receive without being told to (off by default). */
  autoDeliveryReceipts?: boolean;
  /** A certificate chain that does not bind to the server (clients must refuse it); a sound one by default. */
  certificateFlaw?: CertificateFlaw;
  /** Write the media host's CA certificate here (kept after close); a temporary file otherwise. */
  caFile?: string;
  logger?: Logger;
}

/** A connection the network accepted, by where it came from. */
export interface NetworkPeer {
  service: 'socket' | 'media';
  address: string;
  at: Date;
}

/** The network as tests and the control API drive it; index.ts builds it over the core. */
export interface ChatNetwork {
  /** What a client's `waWebSocketUrl` gets: `ws://127.0.0.1:<port>/ws/chat`. */
  url: string;
  /** Base64 of the 32-byte test root public key; clients set `WA_CERT_DETAILS.PUBLIC_KEY` from it. */
  rootKey: string;
  /** The media host's CA certificate, as PEM text and as a file holding it. */
  caPem: string;
  caFile: string;
  /** `host:port` of the media host (HTTPS). */
  mediaHost: string;
  /** The media host's TLS key and certificate: another local server started with them is trusted as the media host is. */
  mediaTls: { key: string; cert: string };
  /** The control API: `http://127.0.0.1:<port>` (paths under `/control`). */
  controlUrl: string;

  /** The phone scans the QR text a client showed (the `qr` of its connection update). */
  scan(qrText: string, phone: string): Promise<void>;
  /** The phone's user types the 8-character code the client's `requestPairingCode` returned. */
  enterPairingCode(code: string, phone: string): Promise<void>;

  /** What `phone` received from linked devices, oldest first, one entry per sender and message id. */
  inbox(phone: string): PhoneMessage[];
  waitForInbox(phone: string, count: number, timeoutMs?: number): Promise<PhoneMessage[]>;
  /** Receipts that reached `phone` for messages it sent. */
  receipts(phone: string): PhoneReceipt[];
  /**
   * Phone `from` sends to account `to` (a phone number) or to a group it is in (`…@g.us`); returns the
   * message id. Held for devices that are offline, and for the first device of an account with none.
   */
  send(from: string, to: string, content: InboundContent, options?: SendOptions): Promise<string>;
  /** `phone` acknowledges a message a linked device sent it. */
  receipt(phone: string, messageId: string, type: ReceiptType): Promise<void>;
  /** `phone` deletes for everyone a message it sent to `to` (number or group); returns the id of the revoke. */
  revoke(phone: string, messageId: string, to: string): Promise<string>;
  /** `phone` edits the text of a message it sent to `to` (number or group); returns the id of the edit. */
  edit(phone: string, messageId: string, to: string, text: string): Promise<string>;
  /**
   * `phone` votes `options` (names; none withdraws its vote) on a poll in its chat with `to`, encrypted
   * with the poll's secret as phones do; returns the vote's id and the two jids the encryption is bound to.
   */
  vote(phone: string, pollMessageId: string, to: string, options: string[], voteOptions?: { addressing?: 'pn' | 'lid' }): Promise<PollVote>;
  /** Whether a number is on the network (all are, until told otherwise): number checks answer by it. */
  setRegistered(phone: string, registered: boolean): void;
  /** `phone` loses its sessions with every device (reinstalled without a backup): what they send next it cannot read, and asks for again. */
  forgetSessions(phone: string): void;
  /** The file of a media message `phone` sent expires: the media host answers 410 for it from now on. */
  expireMedia(phone: string, messageId: string): void;
  lidOf(phone: string): string;
  /** `phone`'s own phone tells its linked devices the LIDs of `contacts` (a LID-migration mapping sync). */
  shareLidMapping(phone: string, contacts: string[]): Promise<string>;

  /** `phone`'s past (chats and their messages before linking): devices it links from now on get it by history sync. */
  setHistory(phone: string, past: PhonePast): void;
  /** Hands the history chunks `phone`'s devices got over again, under the same ids (as for chunks not acknowledged); returns how many. */
  historyAgain(phone: string): Promise<number>;
  /** The ON_DEMAND history requests `phone`'s linked devices sent it, oldest first. */
  historyRequests(phone: string): HistoryRequest[];
  /** The phones `phone` blocked from its linked devices (digits). */
  blocked(phone: string): string[];

  /** Groups, made and changed by phones; members' linked devices get `w:gp2` notifications. */
  groupCreate(owner: string, subject: string, participants: string[]): string;
  groupAddParticipants(actor: string, group: string, participants: string[]): void;
  groupRemoveParticipants(actor: string, group: string, participants: string[]): void;
  groupSetSubject(actor: string, group: string, subject: string): void;
  groupSetDescription(actor: string, group: string, description: string): void;
  /** An admin adds, removes, promotes or demotes; one result per phone as the network answers it (`200`, `403`, `404`, `409`). */
  groupParticipants(actor: string, group: string, action: ParticipantAction, phones: string[]): { phone: string; status: string }[];
  /** An admin makes the group announcement-only and/or locked (only admins edit its info), or undoes it. */
  groupSetSettings(actor: string, group: string, settings: GroupSettings): void;
  /** An admin replaces the invite code (the old one stops working); returns the new one. */
  groupRevokeInvite(actor: string, group: string): string;
  /** A phone joins a group by its invite code; returns the group's jid. */
  groupJoin(phone: string, code: string): string;
  groupLeave(phone: string, group: string): void;
  group(jid: string): GroupSummary;
  /** Whether others may add `phone` to groups (its privacy setting; all may by default): if not, adds answer 403. */
  setAcceptsGroupAdds(phone: string, accepts: boolean): void;

  /** Phone `from` shows itself online, offline or typing to `to`'s connected devices. */
  presence(from: string, to: string, type: PresenceType): void;
  /** The presence `phone` (a linked account) last announced, and the chat states devices sent `phone`. */
  presenceOf(phone: string): PresenceState;
  chatStates(phone: string): ChatState[];
  /** A phone changes its push name or profile picture. */
  setProfile(phone: string, change: ProfileChange): void;

  /** Ends the live sessions of `phone`'s linked devices with `code`; returns how many it ended. */
  streamError(phone: string, code: StreamErrorCode, options?: { deviceId?: number }): number;
  /** Lifts a 403 ban. */
  unban(phone: string): void;
  devices(): DeviceSummary[];
  loginAttempts(phone: string): number[];
  /** The trusted-contact tokens `phone`'s linked devices issued to contacts, oldest first. */
  tokensIssued(phone: string): IssuedToken[];
  received(): ReceivedStanza[];
  deliveries(): DeliveredStanza[];
  stats(): NetworkStats;
  /** Each TCP connection the network's socket endpoint and media host accepted: from which address (a proxy test's view). */
  peers(): NetworkPeer[];
  /** The peak of handshakes in flight starts again from those in flight now (to measure one wave of connections). */
  resetHandshakePeak(): void;
  /** Resolves with the probe's first truthy value, re-checked whenever the network's state changes. */
  waitFor<T>(probe: () => T | undefined | null | false, timeoutMs?: number, what?: string): Promise<T>;
  close(): Promise<void>;
}
