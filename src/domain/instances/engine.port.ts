import type { InstanceRecord } from './instances.ports.js';
import type { MediaDescriptor, MediaSource } from '../messages/media.js';
import type { InboundContact, InboundType } from '../messages/messages.ports.js';
import type { Lease } from './ownership.js';
import type { NetworkEvent } from './network-events.js';
import type { Capability, LoginFlow } from './capabilities.js';

/** An outbound message as an engine carries it. */
export interface EngineMessage {
  messageId: string;
  to: string;
  type: 'text' | 'image' | 'video' | 'audio' | 'document' | 'template';
  text: string | null;
  /** A template message's template (only engines with the `template` capability carry them). */
  template: MessageTemplate | null;
  mediaUrl: string | null;
  /** The content type the media was accepted with (checked again when an engine fetches it). */
  mediaType: string | null;
  caption: string | null;
}

/** A pre-approved message of the business API, the only kind it sends outside the 24-hour window. */
export interface MessageTemplate {
  name: string;
  language: string;
  components?: unknown[];
}

/** What became of one message handed to an engine. */
export type SendOutcome =
  /** The network took it, under its own id. */
  | { messageId: string; networkMessageId: string }
  /** The network refused it for good (the message fails with this error). */
  | { messageId: string; failed: { code: string; message: string } };

/** Why a connection closed (docs/operating.md); each one decides what happens next. */
export const DISCONNECT_REASONS = [
  'restart_required',
  'connection_lost',
  'timed_out',
  'connection_closed',
  'unavailable',
  'bad_session',
  'replaced',
  'logged_out',
  'banned',
  'pairing_expired',
  'shutdown',
  // The server failed the network's certificate checks in the handshake (not the network, or not this
  // server's certificate): refused before any pairing or login.
  'untrusted_network',
  // A credentials engine (CHAT-CLOUD): the API refused the credentials when they were checked, or the
  // access token stopped working while in use (the API's code 190).
  'credentials_rejected',
  'token_expired',
] as const;
export type DisconnectReason = (typeof DISCONNECT_REASONS)[number];

/**
 * What a close does to the instance, whichever engine reported it: `passing` keeps its status (the
 * connection comes back at once); `refused` means the link's credentials were refused when checked
 * (error or failed until new ones come); `lapsed` means they stopped working in use (down, queue kept).
 */
export type CloseOutcome = 'passing' | 'logged_out' | 'banned' | 'pairing_expired' | 'refused' | 'lapsed' | 'dropped';
export const CLOSE_OUTCOMES: Readonly<Record<DisconnectReason, CloseOutcome>> = {
  restart_required: 'passing',
  shutdown: 'passing',
  connection_lost: 'dropped',
  timed_out: 'dropped',
  connection_closed: 'dropped',
  unavailable: 'dropped',
  bad_session: 'dropped',
  replaced: 'dropped',
  untrusted_network: 'dropped',
  logged_out: 'logged_out',
  banned: 'banned',
  pairing_expired: 'pairing_expired',
  credentials_rejected: 'refused',
  token_expired: 'lapsed',
};

/**
 * What the domain decided for one instance's link. The API variant is the domain's business: an
 * engine follows these terms and never reads the variant.
 */
export interface LinkTerms {
  /** For an engine that issues its own QR codes: each code's lifetime, and how many a pairing shows before it ends. */
  qr: { lifetimeMs: number; codes: number };
  /** Whether the instance keeps group, contact and presence events (an engine may skip that work when not). */
  networkEvents: boolean;
}

/**
 * One chat network. The domain asks it to hold an instance's connection on the instance's owning
 * node (see ownership.ts); the engine drives pairing (it issues the QR codes and says when they
 * run out) and reports everything back through EngineEvents. A new engine is a folder under
 * src/engines and one line of its catalogue (docs/architecture.md), without touching the domain.
 *
 * Beyond text and media, each capability (capabilities.ts) is a small optional member of this
 * interface, present exactly when the engine's descriptor lists the capability's name.
 */
export interface ChatEngine {
  /** Shown as `integration`, e.g. CHAT-SANDBOX. */
  readonly integration: string;
  /** What it does (capabilities.ts), as its descriptor lists it; text and media when absent. */
  readonly capabilities?: readonly Capability[];
  /** How its instances link, as its descriptor lists it; by QR code or pairing code when absent. */
  readonly loginFlows?: readonly LoginFlow[];
  /**
   * This node owns the instance: hold its connection as its row says, and call again whenever the
   * row may have changed (idempotent). A pairing under way (`pairingSince`) shows QR codes and
   * registers a requested pairing code; a paired instance connects (a dropped one reconnects by the
   * engine's policy); a pending logout tells the network and erases what the engine kept.
   */
  attach(instance: InstanceRecord, lease: Lease, terms: LinkTerms): Promise<void>;
  /** This node no longer owns the instance: let go of its connection at once, without logging out. */
  detach(instanceId: string): void;
  /**
   * Hands messages to the network, in order, under the owner's lease. Answers what became of a
   * prefix of them (all, some, or none when the connection is not ready); the rest stay queued and
   * are offered again. Throws LeaseLost, having handed nothing, when the lease is no longer current.
   */
  send(instance: { id: string; phone: string }, messages: EngineMessage[], lease: Lease): Promise<SendOutcome[]>;
  /**
   * Of these messages, the ones the network already took, with the network's id of each: after a
   * takeover or a hand-off whose `sent` mark was not stored, the owner marks those instead of handing
   * them over again. Absent when the network drops a repeated message itself (none are held).
   */
  holding?(instanceId: string, messageIds: string[]): Promise<Map<string, string>>;
  /** Best effort, on the owner: the instance is being deleted, log it out of the network now. */
  forget(instanceId: string): Promise<void>;
  /** Present when the network keeps received files: opens the bytes of a stored media descriptor (any node can). */
  readonly media?: MediaSource;
}

/** An inbound message as an engine reports it. */
export interface InboundMessage {
  /** The network's id of the message: a message reported twice (after a reconnect) is stored once. */
  networkMessageId: string | null;
  /** The sender's phone digits; null when the network gave only a LID (`fromLid`) it knows no number for. */
  from: string | null;
  fromLid?: string | null;
  type: InboundType;
  text: string | null;
  caption?: string | null;
  location: { name?: string; latitude?: number; longitude?: number; address?: string } | null;
  media?: MediaDescriptor | null;
  contacts?: InboundContact[] | null;
  /** A reaction: the emoji ('' takes a reaction back) and the network's id of the message reacted to. */
  reaction?: { emoji: string; networkMessageId: string } | null;
  /** The network's id of the message this one replies to. */
  quotedNetworkId?: string | null;
  pushName: string | null;
  /** What a network's message carries that has no field of its own (CHAT-CLOUD: a button or list reply). */
  content?: Record<string, unknown> | null;
}

/** A receipt for a message this instance sent, by the network's id of it. */
export interface Receipt {
  networkMessageId: string;
  status: 'delivered' | 'read' | 'failed';
  /** Why a `failed` message failed, in the network's words (its code). */
  error?: { code: string; message: string };
}

/**
 * Who makes a report that changes an instance's state: the owner, under its lease (a node that lost
 * the instance is refused, LeaseLost), or, with none, a network whose state every node shares (the
 * sandbox's simulated phones), reporting for the whole network.
 */
export type Reporter = Lease | undefined;

/**
 * What an engine reports; the domain turns each report into state changes and events. Reports that
 * change an instance's state say who makes them (Reporter).
 */
export interface EngineEvents {
  /** The network issued a pairing code (the text of a QR image), live until `expiresAt`. Refused (Conflict) once the instance stopped pairing. */
  qrCode(instanceId: string, lease: Reporter, code: { text: string; expiresAt: Date }): Promise<void>;
  /** The requested pairing code is registered with the network and can be entered until `expiresAt`. */
  pairingCodeReady(instanceId: string, lease: Reporter, code: string, expiresAt: Date): Promise<void>;
  /** The pairing ran out of codes unscanned: no QR until a new pairing starts. */
  pairingEnded(instanceId: string, lease: Reporter): Promise<void>;
  /** A phone linked the instance (by QR or pairing code); linking continues. */
  paired(instanceId: string, lease: Reporter, phone: string): Promise<void>;
  /** A credentials engine checked the instance's credentials with the network: connected as `phone`. */
  verified(instanceId: string, lease: Reporter, phone: string): Promise<void>;
  /** The connection is open: linked for the first time, back after a drop, or resumed by a new owner. */
  connected(instanceId: string, lease: Reporter): Promise<void>;
  /** The connection closed for `reason`; the instance moves as the reason says. */
  closed(instanceId: string, lease: Reporter, reason: DisconnectReason): Promise<void>;
  /** A message to the instance's phone. Null when it was already stored (the network handed it over again). */
  inbound(instanceId: string, message: InboundMessage): Promise<{ messageId: string } | null>;
  receipts(instanceId: string, receipts: Receipt[]): Promise<void>;
  /** A message of this instance's chats was deleted (for everyone, or for the deleting side only). */
  deleted(instanceId: string, networkMessageId: string, deletedBy: string, forEveryone: boolean): Promise<void>;
  /** A group, contact or presence change the network told the instance's device. Refused (Conflict) for an instance whose terms keep none. */
  network(instanceId: string, event: NetworkEvent): Promise<void>;
}

/** The engines a deployment offers (ENGINES), the first being the default for new instances. */
export interface EngineRegistry {
  readonly offered: readonly string[];
  readonly defaultIntegration: string;
  /** The engine an instance runs on; none when its integration is no longer offered (the instance then waits as it is). */
  of(integration: string): ChatEngine | undefined;
}
