import { linksBy } from './capabilities.js';
import type { z } from 'zod';
import { randomBytes } from 'node:crypto';
import { type Actor, assertSameTenant } from '../actor.js';
import { Conflict, DomainError, Invalid, NotFound, Unavailable } from '../errors.js';
import { createTransitions } from './transitions.js';
import type { Clock } from '../ports.js';
import { PLAN_INSTANCE_LIMITS } from '../tenants/plans.js';
import { allValid, parseInput, textField } from '../validation.js';
import type { UrlPolicy } from '../webhooks/url-policy.js';
import type { EngineRegistry } from './engine.port.js';
import { eventsOf } from './events.js';
import {
  createSessionInput,
  createV1Input,
  setWebhookInput,
  updateSessionInput,
  updateV1Input,
} from './instances.input.js';
import type { EngineCredentials, InstancePatch, InstanceRecord, InstanceStore, QrImages, QrRecord } from './instances.ports.js';
import { type InstanceState, type InstanceVariant, statusIn } from './state-machine.js';
import { newPairingCode, pairingCodeInput } from './pairing-code.js';
import type { Ownership } from './ownership.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface LiveQr extends QrRecord {
  dataUrl: string;
}

/** How long a request waits for the engine to issue a QR code or register a pairing code. */
export const PAIRING_WAIT_MS = 10_000;

/** Instance states a new pairing can start from. */
const PAIRABLE: InstanceState[] = ['created', 'qr', 'disconnected', 'banned', 'error'];

/** A webhook signing secret in the Standard Webhooks form (`whsec_` + base64 of 24 random bytes). */
function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export type InstancesService = ReturnType<typeof createInstancesService>;

export function createInstancesService(deps: {
  instances: InstanceStore;
  qrImages: QrImages;
  engines: EngineRegistry;
  /** Where credentials engines' instances keep their credentials. */
  credentials: EngineCredentials;
  /** Work for an instance's owning node (the engine's connection lives there). */
  ownership: Pick<Ownership, 'notify'>;
  clock: Clock;
  urls: UrlPolicy;
  /** A usable instance appeared for the tenant: it takes the tenant's waiting routed messages. */
  handOverWaiting: (tenantId: string) => Promise<unknown>;
  /** How long to wait for the engine's answer (PAIRING_WAIT_MS unless a test says otherwise). */
  pairingWaitMs?: number;
}) {
  const { instances, qrImages, engines, clock } = deps;
  const pairingWaitMs = deps.pairingWaitMs ?? PAIRING_WAIT_MS;

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

  async function liveQr(instance: InstanceRecord): Promise<LiveQr | null> {
    if (instance.state !== 'qr' && instance.state !== 'created') return null;
    const live = await instances.liveQr(instance.id, clock.now());
    return live && { ...live, dataUrl: await qrImages.toDataUrl(live.code) };
  }

  /**
   * Reads the instance until `found` has something or the pairing wait passed: the engine answers
   * on the instance's owning node, which may be another one, and writes what it got to the database.
   */
  async function awaitOwner<T>(instanceId: string, found: (instance: InstanceRecord) => Promise<T | null>): Promise<T | null> {
    const deadline = Date.now() + pairingWaitMs;
    for (let pause = 20; ; pause = Math.min(pause * 2, 200)) {
      const instance = await instances.findById(instanceId);
      if (!instance) throw new NotFound('Instance');
      const result = await found(instance);
      if (result !== null) return result;
      // The pairing ended without one: waiting longer cannot help.
      if (instance.pairingSince === null) return null;
      const left = deadline - Date.now();
      if (left <= 0) return null;
      await sleep(Math.min(pause, left));
    }
  }

  const awaitQr = (instanceId: string) => awaitOwner(instanceId, liveQr);

  /** A new pairing: every live code stops working, and the owner's engine starts over. */
  async function startPairing(instance: InstanceRecord, patch: InstancePatch = {}): Promise<InstanceRecord> {
    const started = await instances.change(instance.id, { pairingSince: clock.now(), ...patch }, [], { ifState: PAIRABLE, retireQr: true });
    if (!started || started === 'name_taken') throw new Conflict('instance_unavailable', 'The instance changed meanwhile; try again.');
    deps.ownership.notify(instance.id, 'sync');
    return started;
  }

  /** A code was asked for: an initializing instance shows it from now on (v1 qr_code). */
  async function showingCode(id: string): Promise<InstanceRecord | null> {
    const now = await instances.findById(id);
    if (now?.state !== 'created') return now;
    try {
      return await move(now, 'qr_issued');
    } catch (error) {
      // Paired or moved on meanwhile: the code answered is still the one that was live.
      if (!(error instanceof Conflict)) throw error;
      return instances.findById(id);
    }
  }

  function noCodeInTime(what: string): never {
    throw new Unavailable(`The chat network issued no ${what} within ${pairingWaitMs / 1000} s; try again.`);
  }

  const connectsWithCredentials = (integration: string) => linksBy(engines.of(integration), 'credentials');

  /** QR codes and pairing codes mean nothing to an instance that connects with API credentials. */
  function refuseCredentialsInstance(instance: InstanceRecord) {
    if (connectsWithCredentials(instance.engine)) {
      throw new Conflict(
        'instance_unavailable',
        `A ${instance.engine} instance connects with its API credentials: it has no QR code or pairing code (give a new access token with PUT).`,
      );
    }
  }

  function refuseWhileLinked(instance: InstanceRecord) {
    if (instance.state === 'connected' || instance.state === 'connecting') {
      throw new Conflict('instance_unavailable', `The instance is already ${statusIn(instance.variant, instance.state)}.`);
    }
  }

  /** The integration a create asks for, or the deployment's default; one not offered is refused naming those that are. */
  function integrationOf(input: unknown): string {
    const asked = input && typeof input === 'object' ? (input as { integration?: unknown }).integration : undefined;
    // Absent: the default. Not a string: the input schema reports it.
    if (typeof asked !== 'string') return engines.defaultIntegration;
    if (!engines.offered.includes(asked)) {
      throw Invalid.at('integration', `must be one of ${engines.offered.join(', ')} (the engines this gateway offers)`);
    }
    return asked;
  }

  return {
    engines: engines.offered,

    async create(actor: Actor, variant: InstanceVariant, input: unknown) {
      const [data, checkedUrl, integration] = await allValid(
        () => (variant === 'v1' ? parseInput(createV1Input, input) : { ...parseInput(createSessionInput, input), description: null, webhookEvents: null }),
        () => webhookUrl(textField(input, 'webhookUrl'), 'webhookUrl'),
        async () => integrationOf(input),
      );
      const withCredentials = connectsWithCredentials(integration);
      if (withCredentials && !data.cloud) {
        throw Invalid.at('cloud', `is required for ${integration}: {phoneNumberId, accessToken, appSecret, businessAccountId?}`);
      }
      if (!withCredentials && data.cloud) throw Invalid.at('cloud', `is only for an instance that connects with API credentials (integration ${integration} pairs by QR code)`);
      const created = await instances.createWithinLimit(
        {
          tenantId: actor.tenantId,
          name: data.name,
          description: data.description ?? null,
          variant,
          engine: integration,
          webhookUrl: checkedUrl ?? null,
          webhookEvents: data.webhookEvents ?? [...eventsOf(variant)],
          webhookSecret: newWebhookSecret(),
          // Pairing starts at once: a node takes the new instance and its engine issues the codes (or,
          // for a credentials engine, checks the credentials).
          pairingSince: clock.now(),
          cloudPhoneNumberId: data.cloud?.phoneNumberId ?? null,
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
      if (data.cloud) {
        try {
          await deps.credentials.save(created.id, data.cloud);
        } catch (error) {
          await instances.delete(created.id);
          throw error;
        }
        // The owner checks them with the API; the answer does not wait (201 at once, no QR).
        deps.ownership.notify(created.id, 'sync');
        return { instance: created, qr: null };
      }
      // Placed on a node at once; its engine issues the codes. v1: the answer carries the first code if
      // the network issues it in time, and the instance stays "initializing" until GET …/qr.
      // Session: the code follows on its own (spec 3.2).
      deps.ownership.notify(created.id, 'sync');
      if (variant === 'v1') return { instance: created, qr: await awaitQr(created.id) };
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
      if (data.cloud) {
        if (!connectsWithCredentials(instance.engine)) throw Invalid.at('cloud', `is only for an instance that connects with API credentials (this one runs on ${instance.engine})`);
        if (!(await deps.credentials.replace(instance.id, data.cloud))) throw new NotFound('Instance');
        // A new check with the API, on the owner: connected again if the new token works.
        patch.pairingSince = clock.now();
      }
      // Nothing to change (an empty body, unknown keys, fields of the other variant) still answers with the instance.
      if (Object.keys(patch).length === 0) return { instance, qr: await liveQr(instance) };
      const updated = await instances.change(id, patch, []);
      if (updated === 'name_taken') nameTaken();
      if (!updated) throw new NotFound('Instance');
      if (patch.pairingSince) deps.ownership.notify(id, 'sync');
      return { instance: updated, qr: await liveQr(updated) };
    },

    async remove(actor: Actor, id: string) {
      const instance = await ownedInstance(actor, id);
      // Best effort: the owner logs the linked device out of the network while it still holds the connection.
      if (instance.phone !== null) deps.ownership.notify(instance.id, 'forget');
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

    /**
     * v1: the live code, or the first code of a new pairing (waiting up to PAIRING_WAIT_MS for the
     * network to issue it); moves an initializing instance to qr_code.
     */
    async qrCode(actor: Actor, id: string): Promise<LiveQr> {
      let instance = await ownedInstance(actor, id);
      refuseCredentialsInstance(instance);
      refuseWhileLinked(instance);
      let live = await liveQr(instance);
      if (!live) {
        if (instance.pairingSince === null) instance = await startPairing(instance);
        live = (await awaitQr(instance.id)) ?? noCodeInTime('QR code');
      }
      await showingCode(id);
      return live;
    },

    /** Session: a new pairing, its first code waited for (up to PAIRING_WAIT_MS). */
    async regenerateQr(actor: Actor, id: string) {
      const instance = await ownedInstance(actor, id);
      refuseCredentialsInstance(instance);
      refuseWhileLinked(instance);
      await startPairing(instance);
      const qr = (await awaitQr(id)) ?? noCodeInTime('QR code');
      return { instance: (await showingCode(id)) ?? instance, qr };
    },

    /**
     * The network's "link with phone number": a code the phone `input.phone` enters instead of
     * scanning. Starts a pairing if none runs; answers once the owner's engine registered the code
     * with the network (up to PAIRING_WAIT_MS).
     */
    async requestPairingCode(actor: Actor, id: string, input: unknown): Promise<{ code: string; expiresAt: Date }> {
      const instance = await ownedInstance(actor, id);
      refuseCredentialsInstance(instance);
      const { phone } = parseInput(pairingCodeInput, input);
      refuseWhileLinked(instance);
      const code = newPairingCode();
      const asked = { pairingCode: code, pairingPhone: phone, pairingCodeExpiresAt: null };
      if (instance.pairingSince === null) {
        await startPairing(instance, asked);
      } else {
        const changed = await instances.change(id, asked, [], { ifPairingSince: instance.pairingSince });
        if (!changed || changed === 'name_taken') throw new Conflict('instance_unavailable', 'The instance changed meanwhile; try again.');
        deps.ownership.notify(id, 'sync');
      }
      const ready = await awaitOwner(id, async (now) =>
        now.pairingCode === code && now.pairingCodeExpiresAt !== null ? { code, expiresAt: now.pairingCodeExpiresAt } : null,
      );
      return ready ?? noCodeInTime('confirmation of the pairing code');
    },

    /** Logs the phone out: the instance is disconnected at once; its owner tells the network and erases the engine state. */
    async disconnect(actor: Actor, id: string) {
      const instance = await ownedInstance(actor, id);
      const loggedOut = await move(
        instance,
        'logged_out',
        { phone: null, pairingSince: null, pairingCode: null, pairingPhone: null, pairingCodeExpiresAt: null, logoutPending: instance.phone !== null || instance.logoutPending },
        { retireQr: true },
      );
      deps.ownership.notify(id, 'sync');
      return loggedOut;
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

    /** The live pairing code of an instance already read, or null when it shows none. */
    currentQr: liveQr,

    ownedInstance,
  };
}
