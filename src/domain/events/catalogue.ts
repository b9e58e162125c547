import type { DisconnectReason } from '../network/engine.port.js';
import type { ContactChange, GroupChange, GroupSummary, PresenceChange } from '../network/network-events.js';
import type { InstanceVariant } from '../instances/state-machine.js';
import type { KindFields, MessageMedia } from '../messages/message-fields.js';
import type { MessageError } from '../messages/message-error.js';
import type { JsonValue } from '../messages/message-values.js';
import type { HistoryProgress } from '../conversations/conversations.ports.js';

/** messages.upsert (spec 6.2): a message as it enters the network or arrives; the optional fields only on messages that have them. */
export type MessageUpsertData = {
  messageId: string;
  from: string | null;
  to: string;
  fromMe: boolean;
  type: string;
  text: string;
  timestamp: string;
  mediaUrl?: string;
  content?: JsonValue;
  media?: MessageMedia;
  fromLid?: string;
  pushName?: string;
} & KindFields;

/** A chat's newest message as messages.upsert shows a message, with its status and whether it is history. */
export type ChatLastMessage = MessageUpsertData & { status: string; history: boolean };

/** A chat as events, REST and the dashboard show it (docs/conversations.md). */
export type ChatData = {
  id: string;
  instanceId: string;
  kind: 'direct' | 'group';
  name: string;
  lastMessage: ChatLastMessage | null;
  unreadCount: number;
  archived: boolean;
  pinned: boolean;
  /** An ISO time, "forever", or null when not muted. */
  mutedUntil: string | null;
  updatedAt: string;
};

export type ContactData = {
  phone: string | null;
  lid: string | null;
  name: string | null;
  pushName: string | null;
  onNetwork: boolean | null;
  business: boolean;
  about: string | null;
  blocked: boolean;
  picture: { url: string; expiresAt: string } | null;
};

/** What one attempt at keeping a message's media came to (docs/media.md, "Events"). */
export type MediaKeptData =
  | { stored: true; sha256: string; size: number }
  | { stored: false; error: { code: string; message: string }; retryAt?: string };

/** messages.update: a status with the time of each step, an edit, a poll's tally, or its media kept (or not). */
export type MessageUpdateData =
  | { messageId: string; status: string; timestamps: Record<string, string>; error?: MessageError }
  | { messageId: string; edited: { text: string; at: string } }
  | { messageId: string; poll: JsonValue }
  | { messageId: string; media: MediaKeptData };

/** A call to the instance's number, at each step the network reports (docs/settings.md, "Calls"). */
export type CallData = { id: string; from: string; video: boolean; status: 'offer' | 'accept' | 'reject' | 'timeout' | 'missed'; at: string };

/** The network holds the instance's sending until `until` (docs/settings.md, "Restrictions"); null until: lifted. */
export type RestrictionData = { reason: string; until: string | null };

/** The data each event carries, as stored and as v1 deliveries send it (docs/webhooks.md). */
export type EventData = {
  'messages.upsert': MessageUpsertData;
  'messages.update': MessageUpdateData;
  'messages.delete': { messageId: string; deletedBy: string; forEveryone: boolean };
  'connection.update': { status: string; phoneNumber: string | null; reason: DisconnectReason | null };
  'qr.update': { qrCode: string; expiresAt: string; attemptId: string };
  'groups.update': GroupChange;
  'groups.upsert': { groups: GroupSummary[] };
  'contacts.update': { contacts: ContactChange[] };
  'presence.update': PresenceChange;
  'chats.upsert': ChatData;
  'chats.update': ChatData;
  'chats.delete': { id: string; instanceId: string };
  'contacts.upsert': { contacts: ContactData[] };
  'history.sync': HistoryProgress;
  call: CallData;
  'instance.restricted': RestrictionData;
};

export type EventName = keyof EventData;

/** One event as the domain raises it, before an envelope wraps it for a variant. */
export type CatalogueEvent<E extends EventName = EventName> = { [K in E]: { event: K; data: EventData[K] } }[E];

/**
 * Every event, the variants whose webhooks subscribe to it, and whether it is connection history (kept
 * in the outbox whatever reads it). The order is that of the default subscriptions and the GraphQL enum.
 */
export const CATALOGUE: { readonly [E in EventName]: { variants: readonly InstanceVariant[]; history: boolean; optIn?: true } } = {
  'messages.upsert': { variants: ['v1', 'session'], history: false },
  'messages.update': { variants: ['v1', 'session'], history: false },
  'messages.delete': { variants: ['v1', 'session'], history: false },
  'connection.update': { variants: ['v1', 'session'], history: true },
  'qr.update': { variants: ['v1'], history: true },
  'groups.update': { variants: ['session'], history: false },
  'groups.upsert': { variants: ['session'], history: false },
  'contacts.update': { variants: ['session'], history: false },
  'presence.update': { variants: ['session'], history: false },
  'chats.upsert': { variants: ['session'], history: false, optIn: true },
  'chats.update': { variants: ['session'], history: false, optIn: true },
  'chats.delete': { variants: ['session'], history: false, optIn: true },
  'contacts.upsert': { variants: ['session'], history: false, optIn: true },
  'history.sync': { variants: ['session'], history: false, optIn: true },
  call: { variants: ['v1', 'session'], history: false, optIn: true },
  'instance.restricted': { variants: ['v1', 'session'], history: true, optIn: true },
};

export const EVENT_NAMES = Object.keys(CATALOGUE) as EventName[];

/** The signed event POST …/webhook/test sends on request: never stored, never subscribed to. */
export const TEST_EVENT = 'webhook.test';

const subscribedBy = (variant: InstanceVariant) => EVENT_NAMES.filter((name) => CATALOGUE[name].variants.includes(variant));

/** The events each variant's webhook may subscribe to, and does by default. */
export const V1_EVENTS: readonly EventName[] = subscribedBy('v1');
export const SESSION_EVENTS: readonly EventName[] = subscribedBy('session');

/**
 * The events a webhook gets when it names none: all of its variant's but the conversation events
 * (docs/conversations.md), which a webhook subscribes to by name.
 */
export function eventsOf(variant: InstanceVariant): readonly EventName[] {
  return variant === 'v1' ? V1_DEFAULT_EVENTS : SESSION_DEFAULT_EVENTS;
}
const V1_DEFAULT_EVENTS = V1_EVENTS.filter((name) => !CATALOGUE[name].optIn);
const SESSION_DEFAULT_EVENTS = SESSION_EVENTS.filter((name) => !CATALOGUE[name].optIn);

/** Connection history: what an instance's connection did, kept as RETENTION_CONNECTIONS says. */
export const HISTORY_EVENTS: readonly EventName[] = EVENT_NAMES.filter((name) => CATALOGUE[name].history);
