import type { Lease, Ownership, OwnerWork } from '../../domain/instances/ownership.js';
import type { OwnerDuties } from '../../domain/instances/owner-duties.js';
import type { InvalidationBus } from '../cache/invalidation-bus.js';
import type { Logger } from '../logger.js';
import type { Redis } from '../redis.js';
import type { LeaseStatements, LiveNode } from './lease-statements.js';
import { createNodeBus } from './node-bus.js';
import { rendezvousWinner } from './rendezvous.js';

/** How soon after a change (an instance connected, a node left) every node looks for instances to take. */
const PLACE_SOON_MS = 20;

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
 * One owner per instance across the nodes sharing a database. Every lease-renewal interval (a
 * third of the lease) each node announces itself, renews its leases, and takes the instances
 * without an owner that rendezvous hashing over the live nodes gives it. A node that stops renewing
 * (killed, frozen, cut off) loses its leases when they expire; a stopping node hands them back.
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

  const bus = createNodeBus(node, { work: handle, place: () => soon() }, options.redis);

  function take(lease: Lease) {
    leases.set(lease.instanceId, lease);
    owners.set(lease.instanceId, node);
    duties!.acquired(lease).catch(report(`taking over instance ${lease.instanceId} failed`));
  }

  function lose(instanceId: string) {
    leases.delete(instanceId);
    duties?.lost(instanceId);
  }

  async function round() {
    await sql.heartbeat(node);
    const renewed = await sql.renew(node);
    const kept = new Map(renewed.map((lease) => [lease.instanceId, lease]));
    for (const instanceId of [...leases.keys()]) if (!kept.has(instanceId)) lose(instanceId);
    // A lease the database gives this node that it did not know of (an acquisition whose answer was lost).
    for (const lease of renewed) if (leases.get(lease.instanceId)?.token !== lease.token) take(lease);

    const candidates = await sql.freshNodes();
    if (!candidates.includes(node)) candidates.push(node);
    const next = new Map<string, string>();
    const mine: string[] = [];
    for (const { id, owner, orphanedMs } of await sql.placement()) {
      if (owner) next.set(id, owner);
      // Placed by rendezvous hashing; one left without an owner for a whole round goes to whoever sees it first.
      else if (orphanedMs > renewalMs || rendezvousWinner(id, candidates) === node) mine.push(id);
    }
    owners = next;
    if (stopped) return;
    for (const lease of await sql.acquire(node, mine)) take(lease);
  }

  function runRound() {
    if (running) {
      again = true;
      return;
    }
    running = round()
      .catch(report('placement round failed'))
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          runRound();
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
    },

    async start(ownerDuties) {
      duties = ownerDuties;
      stopped = false;
      // Leases left by an earlier run of this node (same NODE_ID) are handed back, not waited out.
      await sql.releaseAll(node);
      runRound();
      await running;
      loop = setInterval(runRound, renewalMs);
    },

    async stop() {
      stopped = true;
      clearInterval(loop);
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
