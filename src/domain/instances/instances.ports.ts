import type { WebhookFormat } from './webhook-format.js';
import type { JsonValue } from '../messages/message-values.js';
import type { HistorySyncPolicy } from '../network/engine-history.js';
import type { Lease } from '../ownership/lease.js';
import type { InstanceState, InstanceVariant } from './state-machine.js';

export interface InstanceRecord {
  id: string;
  tenantId: string;
  name: string;
  description: string | null;
  variant: InstanceVariant;
  engine: string;
  state: InstanceState;
  active: boolean;
  phone: string | null;
  profilePicUrl: string | null;
  webhookUrl: string | null;
  webhookEvents: string[];
  /** The body of its deliveries, a WebhookFormat (docs/evolution.md, "Webhooks"). */
  webhookFormat: string;
  webhookSecret: string;
  /** The secret before the last rotation (it still signs for a day after it). */
  previousWebhookSecret: string | null;
  webhookSecretRotatedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  lastConnection: Date | null;
  /** When the instance last carried an outbound message (least-recently-used routing). */
  lastUsedAt: Date | null;
  /** Set while a pairing runs (the engine shows QR codes); a new value starts a new pairing. */
  pairingSince: Date | null;
  /** A pairing code asked for `pairingPhone`; usable once the engine registered it (`pairingCodeExpiresAt`). */
  pairingCode: string | null;
  pairingPhone: string | null;
  pairingCodeExpiresAt: Date | null;
  /** Logged out by request; the owner still has to tell the network and erase what the engine kept. */
  logoutPending: boolean;
  lastDisconnectReason: string | null;
  lastDisconnectAt: Date | null;
  messagesSent: number;
  messagesReceived: number;
  mediaSize: bigint;
  /** The engine's own id of what the instance's credentials link (a credentials engine's), which its network's callbacks name. */
  externalId: string | null;
  /** How much of the phone's past to take (a HistorySyncPolicy); null is the default. */
  historySync: JsonValue;
  /** The phone's history sync so far (conversations/history-progress.ts). */
  historyProgress: JsonValue;
  /** Which media it keeps ({keep, maxBytes}, docs/media.md); null is the gateway's default. */
  mediaPolicy: JsonValue;
  /** Calls, presence, reading, ignoring and sending (settings/instance-settings.ts); null parts are defaults. */
  settings: JsonValue;
  /** The network holds its sending until then (docs/settings.md, "Restrictions"). */
  restrictedUntil: Date | null;
  restrictedReason: string | null;
}

/**
 * What a send through a named instance checks of it on every request: whose it is, its engine, and
 * whether it can carry messages. Only the instance's own changes (create, change, delete) change it.
 */
export type InstanceStanding = Pick<InstanceRecord, 'id' | 'tenantId' | 'engine' | 'state' | 'active'> & {
  /** Its first messages to new numbers are checked with the network (`sending.newContactsPerHour` set, docs/settings.md). */
  checksNewNumbers?: boolean;
};

/** A standing found by the instance's name. */
export type NamedStanding = InstanceStanding & Pick<InstanceRecord, 'name'>;

export interface QrRecord {
  instanceId: string;
  attemptId: string;
  code: string;
  expiresAt: Date;
  usedAt: Date | null;
}

/** An event for the durable outbox, written in the same transaction as the change it reports. */
export interface OutboxEvent {
  event: string;
  data: Record<string, unknown>;
}

export interface NewInstance {
  tenantId: string;
  name: string;
  description: string | null;
  variant: InstanceVariant;
  engine: string;
  webhookUrl: string | null;
  webhookEvents: string[];
  webhookFormat?: WebhookFormat;
  webhookSecret: string;
  /** When the first pairing starts (null: the instance waits to be paired). */
  pairingSince: Date | null;
  externalId?: string | null;
  /** How much of the phone's past to take; null is the default. */
  historySync?: HistorySyncPolicy | null;
  /** Which media it keeps (a MediaPolicy input); null is the gateway's default. */
  mediaPolicy?: JsonValue;
}

export type InstancePatch = Partial<
  Pick<
    InstanceRecord,
    | 'name'
    | 'description'
    | 'webhookUrl'
    | 'webhookEvents'
    | 'webhookFormat'
    | 'state'
    | 'active'
    | 'phone'
    | 'lastConnection'
    | 'pairingSince'
    | 'pairingCode'
    | 'pairingPhone'
    | 'pairingCodeExpiresAt'
    | 'logoutPending'
    | 'lastDisconnectReason'
    | 'lastDisconnectAt'
    | 'webhookSecret'
    | 'previousWebhookSecret'
    | 'webhookSecretRotatedAt'
    | 'historySync'
    | 'mediaPolicy'
    | 'settings'
    | 'restrictedUntil'
    | 'restrictedReason'
  >
>;

export interface InstanceStore {
  /** Creates the instance unless the tenant already has `limit`; concurrent creates are serialized per tenant. */
  createWithinLimit(data: NewInstance, limit: number | null): Promise<InstanceRecord | 'limit_reached' | 'name_taken'>;
  findById(id: string): Promise<InstanceRecord | null>;
  /**
   * The instance's standing from this node's memory (dropped on every change of the instance on any
   * node; at most a couple of seconds old when that news is lost), or with `fresh` from the database.
   */
  standing(id: string, options?: { fresh?: boolean }): Promise<InstanceStanding | null>;
  listByTenant(tenantId: string): Promise<InstanceRecord[]>;
  /** The tenant's instance of exactly this name (paths that name instances, docs/evolution.md). */
  findByName(tenantId: string, name: string): Promise<InstanceRecord | null>;
  /** The same instance's standing with its name, as `standing` reads it from memory. */
  standingByName(tenantId: string, name: string): Promise<NamedStanding | null>;
  /**
   * Applies the patch, stores the new QR and the events, atomically: only while the state is `ifState`, the
   * pairing the one of `ifPairingSince` and `fence` the current lease (else LeaseLost), when given;
   * `retireQr` stops every live code of the instance.
   */
  change(
    id: string,
    patch: InstancePatch,
    events: OutboxEvent[],
    options?: {
      ifState?: InstanceState[];
      ifPairingSince?: Date;
      qr?: Omit<QrRecord, 'usedAt' | 'instanceId'>;
      retireQr?: boolean;
      fence?: Lease;
    },
  ): Promise<InstanceRecord | 'name_taken' | null>;
  /** Deletes the instance with its messages, QR codes, events and deliveries. */
  delete(id: string): Promise<void>;
  liveQr(instanceId: string, now: Date): Promise<QrRecord | null>;
}

/** Turns a QR code's text into a PNG data URL any QR reader decodes. */
export interface QrImages {
  toDataUrl(text: string): Promise<string>;
}
