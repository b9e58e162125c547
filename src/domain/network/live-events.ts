import { digits } from '../phone.js';
import type { InstanceRecord } from '../instances/instances.ports.js';
import { statusIn } from '../instances/state-machine.js';
/**
 * What live subscribers (GraphQL subscriptions) see of an instance: its QR codes and its connection
 * status, taken from the same committed events the webhooks carry (docs/graphql.md).
 */
export type LiveEvent =
  | { kind: 'qr'; instanceId: string; qrCode: string; expiresAt: string; attemptId: string }
  /** `status` in the instance's own status words (v1 or session), as in its webhooks; `reason` the close that caused it, if one did. */
  | { kind: 'connection'; instanceId: string; status: string; phoneNumber: string; reason: string | null; timestamp: string }
  /** Something about one of the tenant's instances changed (state, phone, name, active, a new QR code), or it was deleted. */
  | { kind: 'instance'; tenantId: string; instanceId: string; deleted: boolean }
  /** One of the tenant's messages moved to a new status. */
  | { kind: 'message'; tenantId: string; messageId: string; status: string; timestamp: string }
  /** One of the tenant's instances received a message. */
  | { kind: 'received'; tenantId: string; instanceId: string; messageId: string; timestamp: string }
  /**
   * One of an instance's chats may have changed: its own event names the chat, a message event the
   * message whose chat it is, a contact's its phone's chat, which may not exist (`ifExists`).
   */
  | { kind: 'chat'; tenantId: string; instanceId: string; chatId: string | null; messageId: string | null; deleted: boolean; ifExists?: true };

/** Kinds of one instance's events, and kinds of a whole tenant's. */
export type InstanceEventKind = 'qr' | 'connection';
export type TenantEventKind = 'instance' | 'message' | 'received' | 'chat';

/** Live events by instance; in-process, or across nodes through Redis pub/sub. */
export interface LiveFeed {
  publish(events: LiveEvent[]): void;
  /** Events of one kind for one instance from now on, until the iterator is returned. */
  subscribe<K extends InstanceEventKind>(instanceId: string, kind: K): AsyncIterableIterator<Extract<LiveEvent, { kind: K }>>;
  /** Events of one kind for every instance or message of a tenant from now on. */
  subscribeTenant<K extends TenantEventKind>(tenantId: string, kind: K): AsyncIterableIterator<Extract<LiveEvent, { kind: K }>>;
  /**
   * Calls `listener` whenever the feed was interrupted (pub/sub connection lost) and works again:
   * events published meanwhile may never arrive, so subscribers re-read the current state. Returns
   * the function that removes the listener.
   */
  onResumed(listener: () => void): () => void;
  /**
   * Resolves once the subscriptions made so far receive what any node publishes. A pub/sub
   * subscription takes a round trip to start: a state read before it ends could miss a change
   * published meanwhile, which the subscription would not receive either.
   */
  attached(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The live views of a committed event: a QR code or a status for the instance's subscribers, a status
 * change for the tenant's message log. (Changes to instances reach the tenant's stream from the
 * instance store, which sees every one of them.)
 */
export function liveEventsOf(e: { tenantId: string; instanceId: string | null; event: string; data: Record<string, unknown>; createdAt: Date }): LiveEvent[] {
  return [...viewsOf(e), ...chatEventsOf(e)];
}

/** A contacts event this long is a sync (a link's address book), not names changing as chats go on. */
const CONTACTS_NAMING_CHATS = 100;

/** Events that change what an inbox shows: a chat's own, every change to one of its messages, and its contact's names. */
const CHAT_EVENTS = new Set(['chats.upsert', 'chats.update', 'chats.delete']);
const CHAT_MESSAGE_EVENTS = new Set(['messages.upsert', 'messages.update', 'messages.delete']);

function chatEventsOf(e: { tenantId: string; instanceId: string | null; event: string; data: Record<string, unknown> }): LiveEvent[] {
  const { tenantId, instanceId } = e;
  if (!instanceId) return [];
  if (CHAT_EVENTS.has(e.event) && typeof e.data.id === 'string') {
    return [{ kind: 'chat', tenantId, instanceId, chatId: e.data.id, messageId: null, deleted: e.event === 'chats.delete' }];
  }
  if (CHAT_MESSAGE_EVENTS.has(e.event) && typeof e.data.messageId === 'string') {
    return [{ kind: 'chat', tenantId, instanceId, chatId: null, messageId: e.data.messageId, deleted: false }];
  }
  const contacts = (e.event === 'contacts.upsert' || e.event === 'contacts.update') && Array.isArray(e.data.contacts) ? (e.data.contacts as Array<{ phone?: unknown }>) : [];
  if (contacts.length > CONTACTS_NAMING_CHATS) return [];
  return contacts.flatMap((contact) =>
    typeof contact.phone === 'string' && contact.phone ? [{ kind: 'chat' as const, tenantId, instanceId, chatId: digits(contact.phone), messageId: null, deleted: false, ifExists: true as const }] : [],
  );
}

function viewsOf(e: { tenantId: string; instanceId: string | null; event: string; data: Record<string, unknown>; createdAt: Date }): LiveEvent[] {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  // Only status changes: an edit or a poll's votes are messages.update without a status.
  if (e.event === 'messages.update' && typeof e.data.messageId === 'string') {
    if (typeof e.data.status !== 'string') return [];
    return [{ kind: 'message', tenantId: e.tenantId, messageId: e.data.messageId, status: e.data.status, timestamp: e.createdAt.toISOString() }];
  }
  if (!e.instanceId) return [];
  if (e.event === 'messages.upsert' && e.data.fromMe === false && typeof e.data.messageId === 'string') {
    return [{ kind: 'received', tenantId: e.tenantId, instanceId: e.instanceId, messageId: e.data.messageId, timestamp: e.createdAt.toISOString() }];
  }
  if (e.event === 'qr.update') {
    return [{ kind: 'qr', instanceId: e.instanceId, qrCode: text(e.data.qrCode), expiresAt: text(e.data.expiresAt), attemptId: text(e.data.attemptId) }];
  }
  if (e.event === 'connection.update') {
    return [
      {
        kind: 'connection',
        instanceId: e.instanceId,
        status: text(e.data.status),
        phoneNumber: text(e.data.phoneNumber),
        reason: typeof e.data.reason === 'string' ? e.data.reason : null,
        timestamp: e.createdAt.toISOString(),
      },
    ];
  }
  return [];
}

/** The connection status an instance shows now, as a live event (down: with the reason it went down). */
export function liveConnectionEvent(
  instance: Pick<InstanceRecord, 'id' | 'variant' | 'state' | 'phone' | 'updatedAt' | 'lastDisconnectReason'>,
): LiveEvent {
  const down = instance.state === 'disconnected' || instance.state === 'banned';
  return {
    kind: 'connection',
    instanceId: instance.id,
    status: statusIn(instance.variant, instance.state),
    phoneNumber: digits(instance.phone),
    reason: down ? instance.lastDisconnectReason : null,
    timestamp: instance.updatedAt.toISOString(),
  };
}

/** The QR code an instance shows now, as a live event; null when it shows none. */
export function liveQrEvent(now: { instance: Pick<InstanceRecord, 'id'>; qr: { dataUrl: string; expiresAt: Date; attemptId: string } | null }): LiveEvent | null {
  if (!now.qr) return null;
  return { kind: 'qr', instanceId: now.instance.id, qrCode: now.qr.dataUrl, expiresAt: now.qr.expiresAt.toISOString(), attemptId: now.qr.attemptId };
}

/** Two events with the same key show a subscriber the same thing (the same code, or the same status). */
export function liveEventKey(event: Extract<LiveEvent, { kind: InstanceEventKind }>): string {
  return event.kind === 'qr' ? event.attemptId : `${event.status}|${event.phoneNumber}`;
}
