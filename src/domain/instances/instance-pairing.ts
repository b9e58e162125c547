import type { Actor } from '../actor.js';
import { Conflict, NotFound, Unavailable } from '../errors.js';
import type { Clock } from '../ports.js';
import { linksBy } from '../network/capabilities.js';
import type { EngineRegistry } from '../network/engine.port.js';
import type { InstancePatch, InstanceRecord, InstanceStore, QrImages, QrRecord } from './instances.ports.js';
import type { Ownership } from '../ownership/ownership.js';
import { newPairingCode, pairingCodeInput } from '../network/pairing-code.js';
import { type InstanceState, statusIn } from './state-machine.js';
import { createTransitions } from './transitions.js';
import { parseInput } from '../validation.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface LiveQr extends QrRecord {
  dataUrl: string;
}

/** How long a request waits for the engine to issue a QR code or register a pairing code. */
export const PAIRING_WAIT_MS = 10_000;

/** Instance states a new pairing can start from. */
const PAIRABLE: InstanceState[] = ['created', 'qr', 'disconnected', 'banned', 'error'];

export type Pairing = ReturnType<typeof createPairing>;

/**
 * How an instance links to its network: QR codes, pairing codes and the logout. Any node asks; the
 * owner's engine answers by writing to the instance's row, which the asking request reads back.
 */
export function createPairing(deps: {
  instances: InstanceStore;
  qrImages: QrImages;
  engines: EngineRegistry;
  ownership: Pick<Ownership, 'notify'>;
  clock: Clock;
  /** The caller's instance by id (404 / 403). */
  ownedInstance: (actor: Actor, id: string) => Promise<InstanceRecord>;
  pairingWaitMs: number;
}) {
  const { instances, qrImages, engines, clock, ownedInstance, pairingWaitMs } = deps;
  const { move } = createTransitions(instances);

  async function liveQr(instance: InstanceRecord): Promise<LiveQr | null> {
    if (instance.state !== 'qr' && instance.state !== 'created') return null;
    // Only a v1 instance shows a code while "created" (initializing). A session instance's code is
    // written with its move to qr, so a code found after reading it as created is newer than that
    // read: shown together they would describe a state the instance never was in.
    if (instance.state === 'created' && instance.variant !== 'v1') return null;
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

  return {
    liveQr,
    awaitQr,
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
  };
}
