import type { InstanceRecord } from './instances.ports.js';
import type { MediaDescriptor, MediaSource } from '../media/media-source.js';
import type { InboundContact, InboundType } from '../messages/messages.ports.js';
import type { Lease } from './ownership.js';
import type { NetworkEvent } from './network-events.js';
import type { Capability, LoginFlow } from './capabilities.js';
import type { EngineCredentials, KnownEngine } from './credentials.js';
import type { GroupOp, GroupOpResult } from '../groups/group-ops.js';

/**
 * A message of a chat as the network knows it: what a reply quotes, a reaction or an edit targets.
 * `chat` is the peer's digits or a group id; `participant` the sender's digits in a group (null for
 * our own messages and direct chats); `text` the quoted message's text or caption, when it had one.
 */
export interface MessageRef {
  chat: string;
  networkMessageId: string;
  fromMe: boolean;
  participant: string | null;
  text: string | null;
}

/** The kinds of outbound message (docs/messaging.md); `template` only on engines with the capability. */
export type OutboundKind = 'text' | 'image' | 'video' | 'audio' | 'document' | 'sticker' | 'location' | 'contact' | 'reaction' | 'poll' | 'template';

/** An outbound message as an engine carries it. */
export interface EngineMessage {
  messageId: string;
  /** Phone digits, or a group id (`<digits>@g.us`, `<digits>-<digits>@g.us`). */
  to: string;
  type: OutboundKind;
  text: string | null;
  /** A template message's template (only engines with the `template` capability carry them). */
  template: MessageTemplate | null;
  /** Media to fetch (under the gateway's URL policy), or null when the file was uploaded (`mediaData`). */
  mediaUrl: string | null;
  /** The content type the media was accepted with (checked again when an engine fetches it). */
  mediaType: string | null;
  /** The bytes of an uploaded file (base64 in the request), read by the dispatcher for the engine. */
  mediaData?: Buffer | null;
  /** The file name a document is shown with (an upload's own, else the URL's last segment). */
  fileName?: string | null;
  /** Audio sent as a voice note (push-to-talk), not as a file. */
  voice?: boolean;
  caption: string | null;
  /** Phones named in the text as `@<digits>`. */
  mentions?: string[];
  /** The message this one replies to. */
  quoted?: MessageRef | null;
  location?: { latitude: number; longitude: number; name?: string; address?: string } | null;
  contacts?: Array<{ displayName: string; vcard: string }> | null;
  /** A reaction to `target`; `emoji: ''` takes ours back. */
  reaction?: { target: MessageRef; emoji: string } | null;
  /** A poll; `secret` is the poll's messageSecret, which its votes are encrypted with. */
  poll?: { name: string; options: string[]; selectableCount: number; secret?: Buffer | null } | null;
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
  // A credentials engine: the API refused the credentials when they were checked, or the
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
 * One chat network: it holds an instance's connection on the owning node (ownership.ts), drives pairing
 * and reports back through EngineEvents; each capability beyond text and media is an optional member,
 * present exactly when its descriptor lists it (docs/architecture.md, "Chat engines").
 */
export interface ChatEngine extends Partial<EngineActions> {
  /** Shown as `integration`, e.g. CHAT-SANDBOX. */
  readonly integration: string;
  /**
   * What it does (capabilities.ts), as its descriptor lists it; text and media when absent. A request
   * needing anything else is refused before it is stored (docs/messaging.md).
   */
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
  /** Present when its instances link with credentials (its descriptor's `credentials`): where it keeps them. */
  readonly credentialStore?: EngineCredentials;
}

/** What a chat can be told of the instance's user: typing, recording a voice note, stopped, online, away. */
export const PRESENCE_STATES = ['composing', 'recording', 'paused', 'available', 'unavailable'] as const;
export type PresenceState = (typeof PRESENCE_STATES)[number];

/** One phone of a number check, as the network answered. */
export interface NumberCheck {
  phone: string;
  exists: boolean;
  /** The network's hidden id of the account, when it gave one. */
  lid?: string;
}

/**
 * An action on the network that the instance's owner carries out at once and answers
 * (docs/messaging.md): it crosses nodes as this JSON value, and an engine without the method for it
 * lacks the capability.
 */
export type OwnerAction =
  | { kind: 'edit'; target: MessageRef; text: string }
  | { kind: 'delete'; target: MessageRef }
  | { kind: 'read'; targets: MessageRef[] }
  | { kind: 'presence'; chat: string; state: PresenceState }
  | { kind: 'check_numbers'; phones: string[] }
  | { kind: 'group'; group: GroupOp };

/** What an owner action answers: nothing, the numbers checked, or what a group operation answered. */
export type OwnerActionResult = { numbers?: NumberCheck[]; group?: GroupOpResult };

/**
 * The capabilities beyond sending, each an optional method: present only on an engine that
 * publishes the capability. Each runs on the instance's owner under its lease, and throws a
 * DomainError (Conflict `instance_unavailable` when not connected) when the network cannot do it now.
 */
export interface EngineActions {
  /** `edit`: replaces the text of a message this instance sent. */
  edit(instanceId: string, lease: Lease, target: MessageRef, text: string): Promise<void>;
  /** `delete`: deletes a message this instance sent, for everyone in the chat. */
  deleteForEveryone(instanceId: string, lease: Lease, target: MessageRef): Promise<void>;
  /** `read`: marks received messages read (the sender sees blue ticks). */
  markRead(instanceId: string, lease: Lease, targets: MessageRef[]): Promise<void>;
  /** `typing`: tells a chat the user types, records, stopped; or the network the user is online or away. */
  sendPresence(instanceId: string, lease: Lease, chat: string, state: PresenceState): Promise<void>;
  /** `number_check`: which phones have an account on the network. */
  checkNumbers(instanceId: string, lease: Lease, phones: string[]): Promise<NumberCheck[]>;
  /** `group_admin`: lists, creates, reads, changes and leaves the instance's groups on the network. */
  manageGroup(instanceId: string, lease: Lease, op: GroupOp): Promise<GroupOpResult>;
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
  /** Phones the text names as `@<digits>`. */
  mentions?: string[] | null;
  /** A group message: the group (its subject as the engine knows it); `from` is then the participant who wrote. */
  group?: { id: string; subject: string | null } | null;
  pushName: string | null;
  /** What a network's message carries that has no field of its own (a business API's button or list reply). */
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
  /**
   * A message of this instance's chats was edited on the network (by the other side, or by this
   * instance from another device): its text is now `text`. `byInstance`, when the engine knows it:
   * whether the edit came from this instance's own account (only its author may edit a message).
   */
  edited(instanceId: string, networkMessageId: string, text: string, at: Date, byInstance?: boolean): Promise<void>;
  /**
   * A phone voted on a poll this instance sent (decrypted by the engine): `voter` (phone digits)
   * now chooses `options` (option names; none withdraws the vote), replacing any earlier vote.
   */
  pollVote(instanceId: string, pollNetworkMessageId: string, voter: string, options: string[], at: Date): Promise<void>;
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
  /**
   * Every engine the gateway knows, offered or not, with its credentials field: a body that gives an
   * engine's field is checked with its schema, and refused for any other engine's instance.
   */
  readonly known: readonly KnownEngine[];
}
