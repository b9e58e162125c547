import type { z } from 'zod';
import { randomBytes, randomUUID } from 'node:crypto';
import { type Actor, assertSameTenant } from '../actor.js';
import { Conflict, DomainError, Invalid, NotFound } from '../errors.js';
import { createTransitions } from './transitions.js';
import type { Clock } from '../ports.js';
import { PLAN_INSTANCE_LIMITS } from '../tenants/plans.js';
import { allValid, parseInput, textField } from '../validation.js';
import type { UrlPolicy } from '../webhooks/url-policy.js';
import type { ChatEngine } from './engine.port.js';
import { type Lease, LeaseLost } from './ownership.js';
import { eventsOf } from './events.js';
import {
  createSessionInput,
  createV1Input,
  setWebhookInput,
  updateSessionInput,
  updateV1Input,
} from './instances.input.js';
import type { InstancePatch, InstanceRecord, InstanceStore, QrImages, QrRecord } from './instances.ports.js';
import { type InstanceVariant, statusIn } from './state-machine.js';

export interface QrPolicy {
  sessionTtlSeconds: number;
  sessionAttempts: number;
  v1TtlSeconds: number;
}

export interface LiveQr extends QrRecord {
  dataUrl: string;
}

/** A webhook signing secret in the Standard Webhooks form (`whsec_` + base64 of 24 random bytes). */
function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export type InstancesService = ReturnType<typeof createInstancesService>;

export function createInstancesService(deps: {
  instances: InstanceStore;
  qrImages: QrImages;
  engine: ChatEngine;
  clock: Clock;
  qr: QrPolicy;
  urls: UrlPolicy;
  /** A usable instance appeared for the tenant: it takes the tenant's waiting routed messages. */
  handOverWaiting: (tenantId: string) => Promise<void>;
  /** Runs follow-up work after the current request has been answered. */
  background: (work: () => Promise<unknown>, what: string) => void;
}) {
  const { instances, qrImages, engine, clock, qr } = deps;

  /** The caller's instance by id: 404 when it exists nowhere, 403 when it is another tenant's. */
  async function ownedInstance(actor: Actor, id: string): Promise<InstanceRecord> {
    const instance = await instances.findById(id);
    if (!instance) throw new NotFound('Instance');
    assertSameTenant(actor, instance);
    return instance;
  }

  async function webhookUrl(raw: string | null | undefined, field: string): Promise<string | null | undefined> {
    if (raw === undefined || raw === null) return raw;
    return raw === '' ? null : deps.urls.check(raw, field);
  }

  function nameTaken(): never {
    throw new Conflict('instance_name_taken', 'An instance with this name already exists.');
  }

  const { move } = createTransitions(instances);

  async function setActive(instance: InstanceRecord, active: boolean): Promise<InstanceRecord> {
    if (instance.active === active) return instance;
    const updated = await instances.change(instance.id, { active }, []);
    if (!updated || updated === 'name_taken') throw new NotFound('Instance');
    // An instance that can carry messages again takes the tenant's waiting routed ones.
    if (updated.active && updated.state === 'connected') await deps.handOverWaiting(updated.tenantId);
    return updated;
  }

  async function startPairing(instanceId: string) {
    const instance = await instances.findById(instanceId);
    if (instance?.state === 'created') await issueQr(instance, 1);
  }

  /** A fresh pairing code with its image and its qr.update event, not stored yet. */
  async function newQr(instance: Pick<InstanceRecord, 'id' | 'variant'>) {
    const ttl = instance.variant === 'v1' ? qr.v1TtlSeconds : qr.sessionTtlSeconds;
    const code = await engine.newPairingCode(instance.id);
    const record = { attemptId: randomUUID(), code, expiresAt: new Date(clock.now().getTime() + ttl * 1000) };
    const dataUrl = await qrImages.toDataUrl(code);
    const event = { event: 'qr.update', data: { qrCode: dataUrl, expiresAt: record.expiresAt.toISOString(), attemptId: record.attemptId } };
    return { record, event, live: { ...record, instanceId: instance.id, usedAt: null, dataUrl } };
  }

  /** Issues a new QR code (and its qr.update event); the instance shows a QR from then on. */
  async function issueQr(instance: InstanceRecord, attempts: number, fence?: Lease): Promise<{ instance: InstanceRecord; qr: LiveQr }> {
    const fresh = await newQr(instance);
    const updated = await move(instance, 'qr_issued', { qrAttempts: attempts }, { events: [fresh.event], qr: fresh.record, fence });
    return { instance: updated, qr: fresh.live };
  }

  async function liveQr(instance: InstanceRecord): Promise<LiveQr | null> {
    if (instance.state !== 'qr' && instance.state !== 'created') return null;
    const live = await instances.liveQr(instance.id, clock.now());
    return live && { ...live, dataUrl: await qrImages.toDataUrl(live.code) };
  }

  return {
    integration: engine.integration,

    async create(actor: Actor, variant: InstanceVariant, input: unknown) {
      const [data, checkedUrl] = await allValid(
        () => (variant === 'v1' ? parseInput(createV1Input, input) : { ...parseInput(createSessionInput, input), description: null, webhookEvents: null }),
        () => webhookUrl(textField(input, 'webhookUrl'), 'webhookUrl'),
      );
      const created = await instances.createWithinLimit(
        {
          tenantId: actor.tenantId,
          name: data.name,
          description: data.description ?? null,
          variant,
          engine: engine.integration,
          webhookUrl: checkedUrl ?? null,
          webhookEvents: data.webhookEvents ?? [...eventsOf(variant)],
          webhookSecret: newWebhookSecret(),
        },
        PLAN_INSTANCE_LIMITS[actor.plan],
      );
      if (created === 'name_taken') nameTaken();
      if (created === 'limit_reached') {
        throw new DomainError(
          'instance_limit_reached',
          `The ${actor.plan} plan allows ${PLAN_INSTANCE_LIMITS[actor.plan]} instance(s); delete one or upgrade.`,
        );
      }
      if (variant === 'v1') {
        // The v1 create answer carries a QR code; the instance stays "initializing" until GET …/qr.
        const fresh = await newQr(created);
        await instances.change(created.id, { qrAttempts: 1 }, [fresh.event], { qr: fresh.record });
        return { instance: created, qr: fresh.live };
      }
      // A session instance gets its first QR code right after the answer (spec 3.2: "generated automatically afterwards").
      deps.background(() => startPairing(created.id), `first QR code of instance ${created.id}`);
      return { instance: created, qr: null };
    },

    list: (actor: Actor) => instances.listByTenant(actor.tenantId),

    async get(actor: Actor, id: string) {
      const instance = await ownedInstance(actor, id);
      return { instance, qr: await liveQr(instance) };
    },

    async update(actor: Actor, id: string, input: unknown) {
      const instance = await ownedInstance(actor, id);
      // A session-variant body has no description or events; the v1 shape is a superset of it.
      const [data, checkedUrl] = await allValid(
        (): z.output<typeof updateV1Input> => (instance.variant === 'v1' ? parseInput(updateV1Input, input) : parseInput(updateSessionInput, input)),
        () => webhookUrl(textField(input, 'webhookUrl'), 'webhookUrl'),
      );
      const patch: InstancePatch = {};
      if (data.name !== undefined) patch.name = data.name;
      if (data.description !== undefined) patch.description = data.description;
      if (data.webhookUrl !== undefined) patch.webhookUrl = checkedUrl ?? null;
      if (data.webhookEvents !== undefined) {
        patch.webhookEvents = data.webhookEvents ?? [...eventsOf(instance.variant)];
      }
      // Nothing to change (an empty body, unknown keys, fields of the other variant) still answers with the instance.
      if (Object.keys(patch).length === 0) return { instance, qr: await liveQr(instance) };
      const updated = await instances.change(id, patch, []);
      if (updated === 'name_taken') nameTaken();
      if (!updated) throw new NotFound('Instance');
      return { instance: updated, qr: await liveQr(updated) };
    },

    async remove(actor: Actor, id: string) {
      const instance = await ownedInstance(actor, id);
      await engine.logout(instance.id);
      await instances.delete(instance.id);
    },

    /** REST's toggle: flips the flag (a retry flips it back; GraphQL offers the idempotent setActive). */
    async toggle(actor: Actor, id: string) {
      const instance = await ownedInstance(actor, id);
      return setActive(instance, !instance.active);
    },

    /** Activates or deactivates; asking for the state it is already in changes nothing. */
    async setActive(actor: Actor, id: string, active: boolean) {
      return setActive(await ownedInstance(actor, id), active);
    },

    /** v1: the live code, or a new one; moves an initializing instance to qr_code. */
    async qrCode(actor: Actor, id: string): Promise<LiveQr> {
      const instance = await ownedInstance(actor, id);
      if (instance.state === 'connected' || instance.state === 'connecting') {
        throw new Conflict('instance_unavailable', `The instance is already ${statusIn(instance.variant, instance.state)}.`);
      }
      const live = await liveQr(instance);
      if (live) {
        if (instance.state === 'created') await move(instance, 'qr_issued');
        return live;
      }
      return (await issueQr(instance, instance.qrAttempts + 1)).qr;
    },

    /** Session: a new set of QR attempts after the last one expired (or to start over). */
    async regenerateQr(actor: Actor, id: string) {
      const instance = await ownedInstance(actor, id);
      if (instance.state === 'connected' || instance.state === 'connecting') {
        throw new Conflict('instance_unavailable', `The instance is already ${statusIn(instance.variant, instance.state)}.`);
      }
      return issueQr(instance, 1);
    },

    async disconnect(actor: Actor, id: string) {
      const instance = await ownedInstance(actor, id);
      await engine.logout(instance.id);
      // Logged out, the phone is no longer linked: pairing again may link another one.
      return move(instance, 'logged_out', { phone: null });
    },

    async setWebhook(actor: Actor, id: string, input: unknown) {
      const instance = await ownedInstance(actor, id);
      const [data, url] = await allValid(
        () => parseInput(setWebhookInput(instance.variant), input),
        () => webhookUrl(textField(input, 'url'), 'url'),
      );
      if (!url) throw Invalid.at('url', 'is required');
      const updated = await instances.change(instance.id, { webhookUrl: url, webhookEvents: data.events ?? [...eventsOf(instance.variant)] }, []);
      if (!updated || updated === 'name_taken') throw new NotFound('Instance');
      return updated;
    },

    /**
     * A new webhook secret, shown once. The old one keeps signing beside it for a day (see
     * signature.ts), so a receiver can switch without losing a delivery.
     */
    async rotateWebhookSecret(actor: Actor, id: string): Promise<{ webhookSecret: string }> {
      const instance = await ownedInstance(actor, id);
      const webhookSecret = newWebhookSecret();
      const updated = await instances.change(
        instance.id,
        { webhookSecret, previousWebhookSecret: instance.webhookSecret, webhookSecretRotatedAt: clock.now() },
        [],
      );
      if (!updated || updated === 'name_taken') throw new NotFound('Instance');
      return { webhookSecret };
    },

    /**
     * One pass of the session QR clock over the instances this node owns: rotate expired codes, give
     * up after the last attempt. Each write holds the owner's lease.
     */
    async rotateExpiredQrCodes(leases: Lease[]) {
      if (leases.length === 0) return;
      const leaseOf = new Map(leases.map((lease) => [lease.instanceId, lease]));
      for (const instance of await instances.dueForQrRotation(clock.now(), [...leaseOf.keys()])) {
        const fence = leaseOf.get(instance.id);
        try {
          if (instance.qrAttempts >= qr.sessionAttempts) await move(instance, 'qr_exhausted', {}, { fence });
          else await issueQr(instance, instance.qrAttempts + 1, fence);
        } catch (error) {
          // Moved meanwhile (a scan, a request), or the lease went to another node.
          if (!(error instanceof Conflict) && !(error instanceof LeaseLost)) throw error;
        }
      }
    },

    /** The live pairing code of an instance already read, or null when it shows none. */
    currentQr: liveQr,

    ownedInstance,
  };
}
