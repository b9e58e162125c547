import type { OwnerAction } from '../../domain/network/engine.port.js';
import { Conflict } from '../../domain/errors.js';
import type { Ownership, OwnerWork } from '../../domain/ownership/ownership.js';
import type { Lease } from '../../domain/ownership/lease.js';
import type { OwnerDuties } from '../../domain/ownership/owner-duties.js';
import type { InvalidationBus } from '../cache/invalidation-bus.js';
import type { Logger } from '../logger.js';
import type { Redis } from '../redis.js';
import type { LeaseStatements, LiveNode } from './lease-statements.js';
import { createNodeBus } from './node-bus.js';
import { rendezvousWinner } from './rendezvous.js';

/** How soon after a change (an instance connected, a node left) every node looks for instances to take. */
const PLACE_SOON_MS = 20;

/**
 * How often a node does its round while no instance needs an owner: it only says it is alive
 * (changes reach it by notification; this is the safety net).
 */
export const IDLE_ROUND_MS = 30_000;

export interface Placement {
  readonly node: string;
  ownership: Ownership;
  /** Joins the node set and starts taking, renewing and handing back leases. */
  start(duties: OwnerDuties): Promise<void>;
  /** Stops acting as an owner here (nothing new is dispatched); the leases are still held. */
  stop(): Promise<void>;
  /** Hands every lease back and leaves the node set, so other nodes take over at once. */
  release(): Promise<void>;
  /** The live nodes and how many instances each owns. */
  liveNodes(): Promise<LiveNode[]>;
}

/**
 * One owner per instance across the nodes of a database: each round a node renews its leases and takes
 * the unowned instances rendezvous hashing gives it; one that stops renewing loses them as they expire
 * (docs/operating.md, "Running several nodes"; the rounds' pace: docs/architecture.md, "The plumbing, why").
 */
export function createPlacement(options: {
  node: string;
  leaseMs: number;
  sql: LeaseStatements;
  invalidation: InvalidationBus;
  redis: { url: string; publisher: Redis; prefix: string; logger: Logger } | undefined;
  logger: Logger;
}): Placement {
  const { node, sql, logger } = options;
  const renewalMs = Math.max(100, Math.floor(options.leaseMs / 3));
  const leases = new Map<string, Lease>();
  /** Owners of instances as of the last round, to route work to them. */
  let owners = new Map<string, string>();
  let duties: OwnerDuties | undefined;
  let stopped = true;
  let loop: NodeJS.Timeout | undefined;
  let soonTimer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  const report = (what: string) => (error: unknown) => logger.warn({ err: { message: (error as Error).message }, node }, what);

  function handle(instanceId: string, work: OwnerWork) {
    if (!duties || !leases.has(instanceId)) return;
    duties.work(instanceId, work).catch(report(`owner work (${work}) for instance ${instanceId} failed`));
  }

  async function perform(instanceId: string, action: OwnerAction) {
    if (!duties || !leases.has(instanceId)) throw new Conflict('instance_unavailable', 'This node does not hold the instance; retry.');
    return duties.perform(instanceId, action);
  }

  const bus = createNodeBus(node, { work: handle, place: () => soon(), perform }, options.redis);

  function take(lease: Lease) {
    leases.set(lease.instanceId, lease);
    owners.set(lease.instanceId, node);
    duties!.acquired(lease).catch(report(`taking over instance ${lease.instanceId} failed`));
  }

  function lose(instanceId: string) {
    leases.delete(instanceId);
    duties?.lost(instanceId);
  }

  /** Whether the next round must come soon: any instance needs an owner (this one or another). */
  let busy = false;

  async function round() {
    // Announced as live past the next round, with room for a late one.
    const nextMs = busy ? renewalMs : IDLE_ROUND_MS;
    const { renewed, fresh, wanted } = await sql.round(node, Math.max(options.leaseMs, nextMs * 2));
    const kept = new Map(renewed.map((lease) => [lease.instanceId, lease]));
    for (const instanceId of [...leases.keys()]) if (!kept.has(instanceId)) lose(instanceId);
    // A lease the database gives this node that it did not know of (an acquisition whose answer was lost).
    for (const lease of renewed) if (leases.get(lease.instanceId)?.token !== lease.token) take(lease);

    const candidates = fresh.includes(node) ? fresh : [...fresh, node];
    const next = new Map<string, string>();
    const mine: string[] = [];
    for (const { id, owner, orphanedMs } of wanted) {
      if (owner) next.set(id, owner);
      // Placed by rendezvous hashing; one left without an owner for a whole round goes to whoever sees it first.
      else if (orphanedMs > renewalMs || rendezvousWinner(id, candidates) === node) mine.push(id);
    }
    owners = next;
    if (stopped) return;
    for (const lease of await sql.acquire(node, mine)) take(lease);
    // Leases to renew, or instances that another node holds (it may die: taken over within a lease)
    // or that still wait for one: the next round comes soon.
    busy = leases.size > 0 || wanted.length > 0;
  }

  function schedule() {
    clearTimeout(loop);
    if (stopped) return;
    loop = setTimeout(runRound, busy ? renewalMs : IDLE_ROUND_MS);
  }

  function runRound() {
    if (running) {
      again = true;
      return;
    }
    running = round()
      .catch((error: unknown) => {
        // A round that failed (the database is away) is tried again soon, not after an idle pause.
        busy = true;
        report('placement round failed')(error);
      })
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          runRound();
        } else {
          schedule();
        }
      });
  }

  function soon() {
    if (stopped || soonTimer) return;
    soonTimer = setTimeout(() => {
      soonTimer = undefined;
      runRound();
    }, PLACE_SOON_MS);
  }

  let placeAllAt = 0;
  /** Every node places soon; at most every PLACE_SOON_MS, however many sends wait for an owner. */
  function placeEverywhere() {
    const now = Date.now();
    if (now - placeAllAt < PLACE_SOON_MS) return;
    placeAllAt = now;
    bus.placeAll();
  }

  options.invalidation.subscribe((invalidation) => {
    if (invalidation.kind === 'instances' || invalidation.kind === 'everything') soon();
  });

  return {
    node,
    ownership: {
      leaseOf: (instanceId) => leases.get(instanceId),
      owned: () => [...leases.values()],
      notify(instanceId, work) {
        if (leases.has(instanceId)) return handle(instanceId, work);
        const owner = owners.get(instanceId);
        if (owner && owner !== node) return bus.send(owner, instanceId, work);
        // No owner yet (or it just changed): whoever takes it drains and attaches it.
        placeEverywhere();
      },
      perform(instanceId, action) {
        if (leases.has(instanceId)) return perform(instanceId, action);
        const owner = owners.get(instanceId);
        if (owner && owner !== node) return bus.ask(owner, instanceId, action);
        placeEverywhere();
        return Promise.reject(new Conflict('instance_unavailable', 'No node holds the instance right now (it is not connected, or is being taken over); retry.'));
      },
    },

    async start(ownerDuties) {
      duties = ownerDuties;
      stopped = false;
      // Leases left by an earlier run of this node (same NODE_ID) are handed back, not waited out.
      await sql.releaseAll(node);
      runRound();
      await running;
    },

    async stop() {
      stopped = true;
      clearTimeout(loop);
      clearTimeout(soonTimer);
      await running;
      for (const instanceId of [...leases.keys()]) lose(instanceId);
    },

    async release() {
      try {
        await sql.releaseAll(node);
        await sql.leave(node);
        bus.placeAll();
      } catch (error) {
        report('handing leases back failed; they expire instead')(error);
      }
      await bus.close();
    },

    liveNodes: () => sql.liveNodes(),
  };
}
