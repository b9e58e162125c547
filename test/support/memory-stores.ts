import { randomUUID } from 'node:crypto';
import type { ChatEngine, EngineRegistry } from '../../src/domain/network/engine.port.js';
import type { InstanceRecord, InstanceStore, OutboxEvent, QrRecord } from '../../src/domain/instances/instances.ports.js';
import type { MessageRecord, MessageRouter, MessageStore, OutboxEventInput, StoredAnswer } from '../../src/domain/messages/messages.ports.js';
import type { QuotaCounter } from '../../src/domain/messages/send-quota.js';
import { withReport } from '../../src/domain/messages/message-status.js';
import { outboundRecord } from '../../src/domain/messages/outbound-record.js';
import type { Clock } from '../../src/domain/ports.js';

/**
 * In-memory implementations of the domain's store ports, for testing services without a database.
 * They keep the ports' promises (conditional state changes, unique names, one answer per idempotency
 * key) in the simplest way; the integration suites test the real stores against PostgreSQL and PGlite.
 */

/** A clock the test moves by hand. */
export function manualClock(start = new Date('2026-06-01T12:00:00.000Z')) {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  } satisfies Clock & { advance(ms: number): void };
}

/** Every event the stores were asked to write, in order. */
export type EventLog = Array<{ instanceId: string | null; event: string; data: Record<string, unknown> }>;

export function memoryInstanceStore(events: EventLog = []) {
  const rows = new Map<string, InstanceRecord>();
  const codes: QrRecord[] = [];
  const record = (instanceId: string, list: OutboxEvent[]) => events.push(...list.map((e) => ({ instanceId, ...e })));

  const store: InstanceStore = {
    async createWithinLimit(data, limit) {
      const mine = [...rows.values()].filter((i) => i.tenantId === data.tenantId);
      if (mine.some((i) => i.name.toLowerCase() === data.name.toLowerCase())) return 'name_taken';
      if (limit !== null && mine.length >= limit) return 'limit_reached';
      const now = new Date();
      const row: InstanceRecord = {
        ...data,
        webhookFormat: data.webhookFormat ?? 'gateway',
        historySync: null,
      historyProgress: null,
      mediaPolicy: null,
      settings: null,
      restrictedUntil: null,
      restrictedReason: null,
      externalId: data.externalId ?? null,
        id: randomUUID(),
        state: 'created',
        active: true,
        phone: null,
        profilePicUrl: null,
        previousWebhookSecret: null,
        webhookSecretRotatedAt: null,
        createdAt: now,
        updatedAt: now,
        lastConnection: null,
        lastUsedAt: null,
        pairingCode: null,
        pairingPhone: null,
        pairingCodeExpiresAt: null,
        logoutPending: false,
        lastDisconnectReason: null,
        lastDisconnectAt: null,
        messagesSent: 0,
        messagesReceived: 0,
        mediaSize: 0n,
      };
      rows.set(row.id, row);
      return { ...row };
    },
    async findById(id) {
      const row = rows.get(id);
      return row ? { ...row } : null;
    },
    async standing(id) {
      const row = rows.get(id);
      return row ? { id: row.id, tenantId: row.tenantId, engine: row.engine, state: row.state, active: row.active } : null;
    },
    async standingByName(tenantId, name) {
      const row = [...rows.values()].find((i) => i.tenantId === tenantId && i.name === name);
      return row ? { id: row.id, tenantId: row.tenantId, engine: row.engine, state: row.state, active: row.active, name: row.name } : null;
    },
    async findByName(tenantId, name) {
      const row = [...rows.values()].find((i) => i.tenantId === tenantId && i.name === name);
      return row ? { ...row } : null;
    },
    async listByTenant(tenantId) {
      return [...rows.values()].filter((i) => i.tenantId === tenantId);
    },
    async change(id, patch, list, options = {}) {
      const row = rows.get(id);
      if (!row || (options.ifState && !options.ifState.includes(row.state))) return null;
      if (options.ifPairingSince && row.pairingSince?.getTime() !== options.ifPairingSince.getTime()) return null;
      if (patch.name && [...rows.values()].some((i) => i.id !== id && i.tenantId === row.tenantId && i.name.toLowerCase() === patch.name!.toLowerCase())) {
        return 'name_taken';
      }
      Object.assign(row, patch, { updatedAt: new Date() });
      if (options.retireQr) for (const code of codes) if (code.instanceId === id) code.usedAt ??= new Date();
      if (options.qr) codes.push({ ...options.qr, instanceId: id, usedAt: null });
      record(id, list);
      return { ...row };
    },
    async delete(id) {
      rows.delete(id);
    },
    async liveQr(instanceId, now) {
      return codes.filter((c) => c.instanceId === instanceId && !c.usedAt && c.expiresAt > now).at(-1) ?? null;
    },
  };
  return { store, rows, codes };
}

/** `instances` (the instance store's rows) lets it check, as the real store does, that an instance can still carry a message. */
export function memoryMessageStore(events: EventLog = [], instances: Map<string, InstanceRecord> = new Map()) {
  const rows = new Map<string, MessageRecord>();
  const answers = new Map<string, StoredAnswer & { expiresAt: Date }>();
  const record = (message: Pick<MessageRecord, 'instanceId'>, list: OutboxEventInput[]) =>
    events.push(...list.map((e) => ({ instanceId: message.instanceId, ...e })));
  /** Lets a test make the next write fail, as a database error would. */
  let failNextWrite: Error | undefined;

  const store: MessageStore = {
    async createOutbound({ mediaBytes: _bytes, ...message }, claim, answer) {
      if (failNextWrite) {
        const error = failNextWrite;
        failNextWrite = undefined;
        throw error;
      }
      if (message.instanceId) {
        const instance = instances.get(message.instanceId);
        const usable =
          instance?.tenantId === message.tenantId &&
          instance.active &&
          (message.routed ? instance.state === 'connected' : instance.state !== 'banned' && instance.state !== 'error');
        if (!usable) return { unusable: true };
      }
      const key = claim && `${message.tenantId}|${claim.scope}|${claim.key}`;
      const existing = key ? answers.get(key) : undefined;
      if (existing && existing.expiresAt > message.queuedAt) return { replay: existing };
      const row = outboundRecord(message, randomUUID());
      rows.set(row.id, row);
      const response = answer(row);
      if (key && claim) answers.set(key, { fingerprint: claim.fingerprint, response, expiresAt: claim.expiresAt });
      return { message: { ...row }, response };
    },
    async findAnswer(tenantId, scope, key, now) {
      const found = answers.get(`${tenantId}|${scope}|${key}`);
      return found && found.expiresAt > now ? found : null;
    },
    async findById(id) {
      const row = rows.get(id);
      return row ? { ...row } : null;
    },
    async sendingBatch(instanceId, limit) {
      const instance = instances.get(instanceId);
      if (instance?.state !== 'connected' || !instance.phone) return null;
      const queued = [...rows.values()].filter((m) => m.instanceId === instanceId && m.status === 'queued').slice(0, limit);
      return { instance: { ...instance, phone: instance.phone }, messages: queued.map((m) => ({ ...m })) };
    },
    async routeWaiting() {
      return [];
    },
    async instancesHoldingQueued() {
      return [];
    },
    async sendingPace(instanceId) {
      const times = [...rows.values()].filter((m) => m.instanceId === instanceId && m.sentAt).map((m) => m.sentAt!.getTime());
      return { lastSentAt: times.length ? new Date(Math.max(...times)) : null, newContactsSentAt: [] };
    },
    async newChats() {
      return new Set<string>();
    },
    async restrictionsLapsed() {
      return [];
    },
    async markSent(_instance, sent) {
      const moved = new Set<string>();
      for (const { message, at, events: list } of sent) {
        const row = rows.get(message.id);
        if (!row || row.status !== 'queued') continue;
        Object.assign(row, { status: 'sent', sentAt: at, from: message.from, networkMessageId: message.networkMessageId });
        record(row, list);
        moved.add(row.id);
      }
      return moved;
    },
    async recordStatus(id, status, at, list, error) {
      const row = rows.get(id);
      if (!row) return null;
      const before = { ...row };
      Object.assign(row, withReport(row, status, at, error));
      record(row, list(row, before));
      return { ...row };
    },
    async recordNetworkStatus(instanceId, networkMessageId, status, at, list, error) {
      const row = [...rows.values()].find((m) => m.instanceId === instanceId && m.networkMessageId === networkMessageId);
      return row ? store.recordStatus(row.id, status, at, list, error) : null;
    },
    async findByNetworkId(instanceId, networkMessageId) {
      const row = [...rows.values()].find((m) => m.instanceId === instanceId && m.networkMessageId === networkMessageId);
      return row ? { ...row } : null;
    },
    async emit(message, list) {
      record(message, list);
    },
    async recordPollVote(id, change, list) {
      const row = rows.get(id);
      if (!row?.poll) return null;
      row.poll = change(row.poll);
      record(row, list(row));
      return row;
    },
    async recordDelete(id, at, list) {
      const row = rows.get(id);
      if (!row || row.deletedAt) return false;
      row.deletedAt = at;
      record(row, list);
      return true;
    },
    async recordEdit(id, text, at, list) {
      const row = rows.get(id);
      if (!row) return null;
      if (row.deletedAt) return 'deleted';
      Object.assign(row, row.text === null && row.caption !== null ? { caption: text } : { text }, { editedAt: at });
      record(row, list(row));
      return { ...row };
    },
    async fileOf() {
      return null;
    },
    async createInbound() {
      throw new Error('not used by these tests');
    },
    async failStale() {
      return [];
    },
    async listByTenant(tenantId, offset, limit, filter = {}) {
      const matches = (m: MessageRecord) =>
        (filter.instanceId == null || m.instanceId === filter.instanceId) &&
        (filter.chatId == null || m.chatId === filter.chatId) &&
        (filter.direction == null || m.direction === filter.direction) &&
        (filter.status == null || m.status === filter.status) &&
        (filter.since == null || m.createdAt >= filter.since) &&
        (filter.until == null || m.createdAt < filter.until);
      const mine = [...rows.values()].filter((m) => m.tenantId === tenantId && matches(m)).reverse();
      return { items: mine.slice(offset, offset + limit), total: mine.length };
    },
  };
  return {
    store,
    rows,
    failNextWrite(error: Error) {
      failNextWrite = error;
    },
  };
}

/** Least recently used among the tenant's active, connected instances, as the real router picks. */
export function memoryRouter(instances: Map<string, InstanceRecord>, clock: Clock): MessageRouter {
  return {
    async route(tenantId) {
      const usable = [...instances.values()]
        .filter((i) => i.tenantId === tenantId && i.active && i.state === 'connected')
        .sort((a, b) => (a.lastUsedAt?.getTime() ?? 0) - (b.lastUsedAt?.getTime() ?? 0) || a.createdAt.getTime() - b.createdAt.getTime());
      const picked = usable[0];
      if (picked) {
        picked.lastUsedAt = clock.now();
        return { kind: 'instance', instanceId: picked.id };
      }
      return [...instances.values()].some((i) => i.tenantId === tenantId && i.active) ? { kind: 'queued' } : { kind: 'none' };
    },
    forget() {},
  };
}

/** Daily quotas counted in memory; `taken` shows what is held. */
export function memoryQuota(): QuotaCounter & { taken: Map<string, number> } {
  const taken = new Map<string, number>();
  return {
    taken,
    async take(bucket, limit) {
      const used = taken.get(bucket) ?? 0;
      if (limit !== null && used >= limit) return false;
      taken.set(bucket, used + 1);
      return true;
    },
    async give(bucket) {
      taken.set(bucket, Math.max(0, (taken.get(bucket) ?? 1) - 1));
    },
    used: async (bucket) => taken.get(bucket) ?? 0,
  };
}

/**
 * A chat engine that records what it was asked to do: which instances it was told to hold (and in
 * what state), and what it was asked to send (taken under a network id of "net-" + the message id).
 */
export function recordingEngine(): ChatEngine & { sent: string[]; attached: InstanceRecord[] } {
  const sent: string[] = [];
  const attached: InstanceRecord[] = [];
  return {
    sent,
    attached,
    integration: 'CHAT-TEST',
    capabilities: ['text', 'media'],
    async attach(instance) {
      attached.push({ ...instance });
      return {
        async update(row) {
          attached.push({ ...row });
        },
        async send(messages) {
          sent.push(...messages.map((message) => message.messageId));
          return messages.map((message) => ({ messageId: message.messageId, networkMessageId: `net-${message.messageId}` }));
        },
        holding: async () => new Map(),
        detach() {},
        async forget() {},
      };
    },
  };
}

/** A registry offering just these engines, the first the default. */
export function registryOf(...engines: ChatEngine[]): EngineRegistry {
  return {
    offered: engines.map((engine) => engine.integration),
    defaultIntegration: engines[0]!.integration,
    of: (integration) => engines.find((engine) => engine.integration === integration),
    known: engines,
  };
}
