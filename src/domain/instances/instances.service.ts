import type { z } from 'zod';
import { type MediaPolicy, mediaPolicyOf } from '../media/keep-policy.js';
import { type Actor, assertSameTenant } from '../actor.js';
import { Conflict, DomainError, Invalid, NotFound } from '../errors.js';
import type { Clock } from '../ports.js';
import { limitSource } from '../tenants/plans.js';
import { allValid, parseInput, textField } from '../validation.js';
import type { UrlPolicy } from '../webhooks/url-policy.js';
import type { EngineRegistry } from '../network/engine.port.js';
import { eventsOf } from '../events/catalogue.js';
import { createPairing, PAIRING_WAIT_MS } from './instance-pairing.js';
import { checkedWebhookUrl, createWebhookSettings, newWebhookSecret } from './instance-webhooks.js';
import { instanceInputs } from './instances.input.js';
import type { InstancePatch, InstanceRecord, InstanceStanding, InstanceStore, NamedStanding, QrImages } from './instances.ports.js';
import { createCredentialsRules } from './instance-credentials.js';
import type { Ownership } from '../ownership/ownership.js';
import type { InstanceVariant } from './state-machine.js';

export { PAIRING_WAIT_MS, type LiveQr } from './instance-pairing.js';

export type InstancesService = ReturnType<typeof createInstancesService>;

export function createInstancesService(deps: {
  instances: InstanceStore;
  qrImages: QrImages;
  engines: EngineRegistry;
  /** Work for an instance's owning node (the engine's connection lives there). */
  ownership: Pick<Ownership, 'notify'>;
  clock: Clock;
  urls: UrlPolicy;
  /** A usable instance appeared for the tenant: it takes the tenant's waiting routed messages. */
  handOverWaiting: (tenantId: string) => Promise<unknown>;
  /** How long to wait for the engine's answer (PAIRING_WAIT_MS unless a test says otherwise). */
  pairingWaitMs?: number;
  /** The media an instance without a policy of its own keeps (MEDIA_KEEP, MEDIA_MAX_BYTES). */
  mediaDefault?: MediaPolicy;
}) {
  const { instances, engines, clock } = deps;

  /** The one rule for "the caller's instance": 404 when it exists nowhere, 403 when it is another tenant's. */
  function owned<T extends { tenantId: string }>(actor: Actor, instance: T | null): T {
    if (!instance) throw new NotFound('Instance');
    assertSameTenant(actor, instance);
    return instance;
  }

  /** The caller's instance by id, read from the database. */
  async function ownedInstance(actor: Actor, id: string): Promise<InstanceRecord> {
    return owned(actor, await instances.findById(id));
  }

  /**
   * The caller's instance's standing (owner, engine, state), as a send checks it on every request:
   * from this node's memory, or with `fresh` from the database.
   */
  async function ownedStanding(actor: Actor, id: string, fresh = false): Promise<InstanceStanding> {
    return owned(actor, await instances.standing(id, { fresh }));
  }

  const webhookUrl = (raw: string | null | undefined, field: string) => checkedWebhookUrl(deps.urls, raw, field);
  const pairing = createPairing({ ...deps, ownedInstance, pairingWaitMs: deps.pairingWaitMs ?? PAIRING_WAIT_MS });
  const { liveQr, awaitQr } = pairing;
  const webhooks = createWebhookSettings({ ...deps, ownedInstance });
  const inputs = instanceInputs(engines.known);
  const credentials = createCredentialsRules(engines);

  function nameTaken(): never {
    throw new Conflict('instance_name_taken', 'An instance with this name already exists.');
  }

  async function setActive(instance: InstanceRecord, active: boolean): Promise<InstanceRecord> {
    if (instance.active === active) return instance;
    const updated = await instances.change(instance.id, { active }, []);
    if (!updated || updated === 'name_taken') throw new NotFound('Instance');
    // An instance that can carry messages again takes the tenant's waiting routed ones.
    if (updated.active && updated.state === 'connected') await deps.handOverWaiting(updated.tenantId);
    return updated;
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
        () => (variant === 'v1' ? parseInput(inputs.createV1, input) : { ...parseInput(inputs.createSession, input), description: null, webhookEvents: null }),
        () => webhookUrl(textField(input, 'webhookUrl'), 'webhookUrl'),
        async () => integrationOf(input),
      );
      // The engine's credentials as its schema validated them; the domain only hands them over.
      const given = credentials.forCreate(integration, data);
      const created = await instances.createWithinLimit(
        {
          tenantId: actor.tenantId,
          name: data.name,
          description: data.description ?? null,
          variant,
          engine: integration,
          webhookUrl: checkedUrl ?? null,
          webhookEvents: data.webhookEvents ?? [...eventsOf(variant)],
          webhookFormat: ('webhookFormat' in data ? data.webhookFormat : null) ?? 'gateway',
          webhookSecret: newWebhookSecret(),
          // Pairing starts at once: a node takes the new instance and its engine issues the codes (or,
          // for a credentials engine, checks the credentials).
          pairingSince: clock.now(),
          externalId: given?.externalId ?? null,
          historySync: data.historySync ?? null,
          mediaPolicy: data.media ?? null,
        },
        actor.limits.instances,
      );
      if (created === 'name_taken') nameTaken();
      if (created === 'limit_reached') {
        throw new DomainError(
          'instance_limit_reached',
          `${capitalised(limitSource(actor, 'instances'))} allows ${actor.limits.instances} instance(s); delete one or upgrade.`,
        );
      }
      if (given) {
        try {
          await given.store.save(created.id, given.value);
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

    /** The same as a send checks it on every request: its standing, from this node's memory. */
    async namedStanding(actor: Actor, name: string): Promise<NamedStanding> {
      const found = await instances.standingByName(actor.tenantId, name);
      if (!found) throw new NotFound(`The "${name}" instance`);
      return found;
    },

    /** The caller's instance of exactly this name; another tenant's is not found (docs/evolution.md, "Authentication"). */
    async named(actor: Actor, name: string): Promise<InstanceRecord> {
      const found = await instances.findByName(actor.tenantId, name);
      if (!found) throw new NotFound(`The "${name}" instance`);
      return found;
    },

    /** The media the instance keeps: its own policy, else the gateway's default (docs/media.md). */
    mediaPolicyOf(instance: InstanceRecord): MediaPolicy {
      return mediaPolicyOf(instance, deps.mediaDefault);
    },

    async get(actor: Actor, id: string) {
      const instance = await ownedInstance(actor, id);
      return { instance, qr: await liveQr(instance) };
    },

    async update(actor: Actor, id: string, input: unknown) {
      const instance = await ownedInstance(actor, id);
      // A session-variant body has no description or events; the v1 shape is a superset of it.
      const [data, checkedUrl] = await allValid(
        (): z.output<typeof inputs.updateV1> => (instance.variant === 'v1' ? parseInput(inputs.updateV1, input) : parseInput(inputs.updateSession, input)),
        () => webhookUrl(textField(input, 'webhookUrl'), 'webhookUrl'),
      );
      const patch: InstancePatch = {};
      if (data.name !== undefined) patch.name = data.name;
      if (data.description !== undefined) patch.description = data.description;
      if (data.webhookUrl !== undefined) patch.webhookUrl = checkedUrl ?? null;
      if (data.historySync !== undefined) patch.historySync = data.historySync ?? null;
      if (data.webhookFormat !== undefined) patch.webhookFormat = data.webhookFormat ?? 'gateway';
      if (data.media !== undefined) patch.mediaPolicy = data.media ?? null;
      if (data.webhookEvents !== undefined) {
        patch.webhookEvents = data.webhookEvents ?? [...eventsOf(instance.variant)];
      }
      const replacing = credentials.forUpdate(instance.engine, data);
      if (replacing) {
        if (!(await replacing.store.replace(instance.id, replacing.value))) throw new NotFound('Instance');
        // A new check with the API, on the owner: connected again if the new token works.
        patch.pairingSince = clock.now();
      }
      // Nothing to change (an empty body, unknown keys, fields of the other variant) still answers with the instance.
      if (Object.keys(patch).length === 0) return { instance, qr: await liveQr(instance) };
      const updated = await instances.change(id, patch, []);
      if (updated === 'name_taken') nameTaken();
      if (!updated) throw new NotFound('Instance');
      // New credentials or a new history policy reach the running link through its owner.
      if (patch.pairingSince || 'historySync' in patch) deps.ownership.notify(id, 'sync');
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

    qrCode: pairing.qrCode,
    regenerateQr: pairing.regenerateQr,
    requestPairingCode: pairing.requestPairingCode,
    disconnect: pairing.disconnect,
    setWebhook: webhooks.setWebhook,
    rotateWebhookSecret: webhooks.rotateWebhookSecret,

    /** The live pairing code of an instance already read, or null when it shows none. */
    currentQr: liveQr,

    ownedInstance,
    ownedStanding,
  };
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
