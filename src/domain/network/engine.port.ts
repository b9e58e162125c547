import type { InstanceRecord } from '../instances/instances.ports.js';
import type { MediaSource, MediaDescriptor } from '../media/media-source.js';
import type { EngineMessage, InboundMessage, MessageRef, Receipt, SendOutcome } from './engine-messages.js';
import type { Lease } from '../ownership/lease.js';
import type { NetworkEvent } from './network-events.js';
import type { Capability, LoginFlow } from './capabilities.js';
import type { EngineCredentials, KnownEngine } from './credentials.js';
import type { GroupOp, GroupOpResult } from '../groups/group-ops.js';
import type { CallSettings, SendingSettings } from '../settings/instance-settings.js';
import type { OwnProfile, OwnProfileChange, PrivacySettings } from './own-profile.js';
import type { ChatChange, ContactInfo, ContactProfile, HistoryBatch, HistorySyncPolicy } from './engine-history.js';


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
  /** How much of the phone's past to take when it links (an engine without history sync ignores it). */
  history: HistorySyncPolicy;
  /** The instance's settings an engine carries out itself (docs/settings.md); an engine without the capability never gets one turned on. */
  settings: EngineSettings;
  /** The instance's proxy URL (with its credentials): the network's socket and media both go through it. */
  proxy: string | null;
}

/** The settings that reach the engine through its terms. */
export interface EngineSettings {
  calls: CallSettings;
  alwaysOnline: boolean;
  autoRead: boolean;
  sending: SendingSettings;
}

/** A call to the instance's number as an engine reports it: each step the network tells of. */
export interface CallReport {
  /** The network's id of the call (the same at each step). */
  id: string;
  /** The caller's phone digits. */
  from: string;
  video: boolean;
  status: 'offer' | 'accept' | 'reject' | 'timeout' | 'missed';
  /** Set when the engine rejected the call itself, by the instance's `calls.reject`. */
  rejectedByInstance?: boolean;
  at: Date;
}

/**
 * One chat network: on the owning node it opens a session per instance (ownership/owner-duties.ts
 * keeps them), drives pairing and reports back through EngineEvents (docs/architecture.md, "Chat engines").
 */
export interface ChatEngine {
  /** Shown as `integration`, e.g. CHAT-SANDBOX. */
  readonly integration: string;
  /** What it does (capabilities.ts), as its descriptor lists it; text and media when absent. */
  readonly capabilities?: readonly Capability[];
  /** How its instances link, as its descriptor lists it; by QR code or pairing code when absent. */
  readonly loginFlows?: readonly LoginFlow[];
  /** This node owns the instance under `lease`: opens its session, which the owner then updates with the row. */
  attach(instance: InstanceRecord, lease: Lease, terms: LinkTerms): Promise<InstanceSession>;
  /** Present when the network keeps received files: opens the bytes of a stored media descriptor (any node can). */
  readonly media?: MediaSource;
  /** Present when its instances link with credentials (its descriptor's `credentials`): where it keeps them. */
  readonly credentialStore?: EngineCredentials;
}

/**
 * One owned instance's link under one lease. Each capability beyond text and media is an optional
 * method (session-actions.ts names them), present exactly when the engine's descriptor lists it.
 */
export interface InstanceSession extends Partial<SessionActions> {
  /**
   * The row may have changed: pairing shows QR codes and registers a requested pairing code, a paired
   * instance connects (a dropped one reconnects by the engine's policy), a pending logout erases what the engine kept.
   */
  update(instance: InstanceRecord, terms: LinkTerms): Promise<void>;
  /**
   * Hands messages to the network, in order, from the instance's `phone`. Answers what became of a prefix
   * of them (none when the connection is not ready), leaving out any the network held back (a 463: they
   * stay queued); throws LeaseLost, having handed nothing, once the lease moved.
   */
  send(messages: EngineMessage[], phone: string): Promise<SendOutcome[]>;
  /**
   * Of these messages, the ones the network already took, with its id of each (after a takeover, or a
   * hand-off whose `sent` mark was not stored). Absent when the network drops a repeated message itself.
   */
  holding?(messageIds: string[]): Promise<Map<string, string>>;
  /** This node no longer owns the instance: let go of its connection at once, without logging out. */
  detach(): void;
  /** Best effort: the instance is being deleted, log it out of the network now and let go. */
  forget(): Promise<void>;
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
  | { kind: 'group'; group: GroupOp }
  | { kind: 'chat'; chat: string; change: ChatChange }
  | { kind: 'backfill'; chat: string; count: number; oldest: MessageRef | null; oldestAt: string | null }
  | { kind: 'block'; phone: string; blocked: boolean }
  | { kind: 'profile'; phone: string }
  | { kind: 'own_profile'; change: OwnProfileChange | null }
  | { kind: 'privacy'; change: Partial<PrivacySettings> | null }
  | { kind: 'blocklist' }
  | { kind: 'restrictions' };

/** What an owner action answers: nothing, the numbers checked, or what a group operation answered. */
export type OwnerActionResult = {
  numbers?: NumberCheck[];
  group?: GroupOpResult;
  profile?: ContactProfile;
  ownProfile?: OwnProfile;
  privacy?: Partial<PrivacySettings>;
  blocked?: string[];
  restrictions?: AccountRestrictions;
};

/**
 * The account's reach-out limits as the network tells them (docs/settings.md, "Restrictions"): its
 * timelock, and its cap of first messages to new contacts; times as ISO text (it crosses nodes as JSON).
 */
export interface AccountRestrictions {
  timelock: { reason: string; until: string } | null;
  messageCap: { limit: number; used: number; resetAt: string | null } | null;
}

/**
 * The capabilities beyond sending, each an optional method of a session; each throws a DomainError
 * (Conflict `instance_unavailable` when not connected) when the network cannot do it now.
 */
export interface SessionActions {
  /** `edit`: replaces the text of a message this instance sent. */
  edit(target: MessageRef, text: string): Promise<void>;
  /** `delete`: deletes a message this instance sent, for everyone in the chat. */
  delete(target: MessageRef): Promise<void>;
  /** `read`: marks received messages read (the sender sees blue ticks). */
  markRead(targets: MessageRef[]): Promise<void>;
  /** `typing`: tells a chat the user types, records, stopped; or the network the user is online or away. */
  presence(chat: string, state: PresenceState): Promise<void>;
  /** `number_check`: which phones have an account on the network. */
  checkNumbers(phones: string[]): Promise<NumberCheck[]>;
  /** `group_admin`: lists, creates, reads, changes and leaves the instance's groups on the network. */
  groups(op: GroupOp): Promise<GroupOpResult>;
  /** `chat_state`: archives, pins, mutes or marks unread a chat on the phone. */
  chatState(chat: string, change: ChatChange): Promise<void>;
  /** `history`: asks the phone for up to `count` messages of `chat` older than `oldest` (sent at `oldestAt`); they come as history batches. */
  backfill(chat: string, count: number, oldest: MessageRef | null, oldestAt: Date | null): Promise<void>;
  /** `block`: blocks or unblocks a phone. */
  block(phone: string, blocked: boolean): Promise<void>;
  /** `profile`: a person's profile as the network shows it now. */
  profile(phone: string): Promise<ContactProfile>;
  /** `own_profile`: the account's own name, about text and picture, after applying `change` when given. */
  ownProfile(change: OwnProfileChange | null): Promise<OwnProfile>;
  /** `privacy`: the account's privacy settings, after applying `change` when given (the ones the network answers). */
  privacy(change: Partial<PrivacySettings> | null): Promise<Partial<PrivacySettings>>;
  /** `block`: the phones the account blocked, as the network keeps its block list (digits). */
  blocklist(): Promise<string[]>;
  /** `reach_limits`: the account's timelock and new-contact cap, asked of the network now. */
  restrictions(): Promise<AccountRestrictions>;
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
  /**
   * A batch of the phone's history sync: stored as history (no messages.upsert), a batch handed over
   * twice stores nothing twice, and history.sync reports the progress.
   */
  history(instanceId: string, batch: HistoryBatch): Promise<void>;
  /** People the network told the device of: names, and a LID's phone number (their chats merge). */
  contacts(instanceId: string, contacts: ContactInfo[]): Promise<void>;
  /** A call to the instance's number (docs/settings.md, "Calls"). */
  call(instanceId: string, call: CallReport): Promise<void>;
  /**
   * The network holds the instance's sending until `until` (a reach-out timelock, error 463), or no
   * longer (`until` null): the queue waits, nothing fails, and it resumes by itself at `until`.
   */
  restricted(instanceId: string, lease: Reporter, restriction: { reason: string; until: Date | null }): Promise<void>;
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
