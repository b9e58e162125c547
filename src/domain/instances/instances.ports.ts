import type { Lease } from './ownership.js';
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
  webhookSecret: string;
  /** The secret before the last rotation (it still signs for a day after it). */
  previousWebhookSecret: string | null;
  webhookSecretRotatedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  lastConnection: Date | null;
  /** When the instance last carried an outbound message (least-recently-used routing). */
  lastUsedAt: Date | null;
  qrAttempts: number;
  messagesSent: number;
  messagesReceived: number;
  mediaSize: bigint;
}

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
  webhookSecret: string;
}

export type InstancePatch = Partial<
  Pick<
    InstanceRecord,
    | 'name'
    | 'description'
    | 'webhookUrl'
    | 'webhookEvents'
    | 'state'
    | 'active'
    | 'phone'
    | 'lastConnection'
    | 'qrAttempts'
    | 'webhookSecret'
    | 'previousWebhookSecret'
    | 'webhookSecretRotatedAt'
  >
>;

export interface InstanceStore {
  /** Whether an instance is linked to this phone but offline (dropped or reconnecting; not logged out, banned or deleted). */
  isPairedOffline(phone: string): Promise<boolean>;
  /** Creates the instance unless the tenant already has `limit`; concurrent creates are serialized per tenant. */
  createWithinLimit(data: NewInstance, limit: number): Promise<InstanceRecord | 'limit_reached' | 'name_taken'>;
  findById(id: string): Promise<InstanceRecord | null>;
  /** The connected instances linked to this phone (+digits). */
  findConnectedByPhone(phone: string): Promise<InstanceRecord[]>;
  listByTenant(tenantId: string): Promise<InstanceRecord[]>;
  /**
   * Applies the patch (only if the state is still `ifState`, when given), stores the new QR and the
   * events, atomically. With `fence`, only while that lease is current (else throws LeaseLost).
   */
  change(
    id: string,
    patch: InstancePatch,
    events: OutboxEvent[],
    options?: { ifState?: InstanceState[]; qr?: Omit<QrRecord, 'usedAt' | 'instanceId'>; fence?: Lease },
  ): Promise<InstanceRecord | 'name_taken' | null>;
  /** Deletes the instance with its messages, QR codes, events and deliveries. */
  delete(id: string): Promise<void>;
  liveQr(instanceId: string, now: Date): Promise<QrRecord | null>;
  /** Marks a live, unused code used; the code's instance, or null when it is unknown, used or expired. */
  useQr(code: string, now: Date): Promise<QrRecord | null>;
  /** Of these instances, the session-variant ones showing a QR whose newest code has expired. */
  dueForQrRotation(now: Date, instanceIds: string[]): Promise<InstanceRecord[]>;
}

/** Turns a QR code's text into a PNG data URL any QR reader decodes. */
export interface QrImages {
  toDataUrl(text: string): Promise<string>;
}
