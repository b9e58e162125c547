import { randomBytes } from 'node:crypto';
import type { ChatEngine, EngineEvents, InboundMessage } from '../../domain/instances/engine.port.js';
import { type Lease, LeaseLost } from '../../domain/instances/ownership.js';
import { untilStored } from '../../domain/retry.js';
import type { SandboxHandoffs } from './sandbox-handoffs.js';

export const SANDBOX_INTEGRATION = 'CHAT-SANDBOX';

/** How often messages the network holds for an offline phone are offered again. */
const HELD_RETRY_MS = 1000;

/**
 * The sandbox chat network: pairs phones by QR, carries messages both ways, sends receipts, drops
 * connections and bans numbers. Its state lives in the gateway's database (pairings are instance
 * rows, every hand-off is a row), so a restart keeps it and every node sees the same network. Each
 * node holds the connections of the instances it owns: it hands their messages over, reports their
 * receipts and brings dropped connections back.
 */
export function createSandboxEngine(options: {
  handoffs: SandboxHandoffs;
  deliveryDelayMs: number;
  reconnectDelayMs: number;
  onRetry?: (error: unknown) => void;
}) {
  const { handoffs } = options;
  let events: EngineEvents | undefined;
  /** Tells an instance's owner that its connection changed (it may be another node). */
  let tellOwner: (instanceId: string) => void = () => {};
  let stopped = false;
  /** The connections this node holds, by instance, with the lease they are held under. */
  const held = new Map<string, Lease>();
  /** Messages to phones whose instance is offline, by phone, oldest first: the network holds them. */
  const waiting = new Map<string, InboundMessage[]>();
  let heldRetry: NodeJS.Timeout | undefined;
  /** Hands waiting messages over, in order, to every phone whose instance is connected again. */
  async function handOverWaiting() {
    for (const [phone, queue] of waiting) {
      while (queue.length) {
        const result = await events!.inbound(phone, queue[0]!);
        if ('held' in result) break;
        queue.shift();
      }
      if (!queue.length) waiting.delete(phone);
    }
  }
  // The instance may come back on another node: waiting messages are offered again until taken.
  function retryWaiting() {
    if (heldRetry || stopped || waiting.size === 0) return;
    heldRetry = setTimeout(() => {
      heldRetry = undefined;
      handOverWaiting().catch(() => {}).finally(retryWaiting);
    }, HELD_RETRY_MS);
  }
  const timers = new Set<NodeJS.Timeout>();
  /**
   * What the network reports on its own (receipts, reconnects) is reported until the gateway stores
   * it: a database outage delays it, never drops it. A report refused for good (the instance or
   * message was deleted meanwhile, the lease moved) is dropped.
   */
  const later = (ms: number, work: () => Promise<unknown>) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      untilStored(work, { stopped: () => stopped, onRetry: options.onRetry }).catch(() => {});
    }, ms);
    timers.add(timer);
  };
  const confirm = (messageId: string) => later(options.deliveryDelayMs, () => events!.receipt(messageId, 'delivered'));

  const engine: ChatEngine = {
    integration: SANDBOX_INTEGRATION,
    jidDomain: 'sandbox.chat',
    async newPairingCode() {
      return `sandbox:${randomBytes(24).toString('base64url')}`;
    },
    async send(instance, messages, lease) {
      const taken = await handoffs.handOff(instance, messages, lease);
      if (taken === 0 && messages.length > 0) throw new LeaseLost(instance.id);
      // The simulated phone has them at once; it reports delivery shortly after.
      for (const message of messages) confirm(message.messageId);
      return taken;
    },
    holding: (_instanceId, messageIds) => handoffs.holding(messageIds),
    async attach(instance, lease) {
      const before = held.get(instance.id);
      held.set(instance.id, lease);
      if (before?.token !== lease.token) {
        // Taken over: confirm what the phones received under the previous owner but never confirmed.
        for (const messageId of await handoffs.unconfirmed(instance.id)) confirm(messageId);
      }
      // A dropped connection comes back by itself, from whichever node holds it.
      if (instance.state === 'disconnected' && instance.phone !== null) {
        later(options.reconnectDelayMs, async () => {
          const current = held.get(instance.id);
          if (current?.token !== lease.token) return;
          try {
            await events!.reconnected(instance.id, current);
          } catch (error) {
            if (!(error instanceof LeaseLost)) throw error;
            return;
          }
          await handOverWaiting();
        });
      }
    },
    detach(instanceId) {
      held.delete(instanceId);
    },
    async logout() {},
  };

  return {
    engine,
    /** Wires the engine to the domain's handlers, and to the owners of instances. */
    connect(handlers: EngineEvents, owners: { tell: (instanceId: string) => void }) {
      events = handlers;
      tellOwner = owners.tell;
    },
    /** The control API of the simulated network (the "outside world" a real phone would be). */
    control: {
      async scan(code: string, phone: string) {
        const paired = await events!.scanned(code, phone);
        later(0, handOverWaiting);
        return paired;
      },
      async inbound(instancePhone: string, message: InboundMessage) {
        // What waits for this phone goes first, so messages arrive in the order they were sent; a
        // hand-over that failed earlier (the database was away) is tried again before holding more.
        if (waiting.get(instancePhone)?.length) await handOverWaiting();
        const queue = waiting.get(instancePhone);
        const result = queue?.length ? ({ held: true } as const) : await events!.inbound(instancePhone, message);
        if ('held' in result) {
          waiting.set(instancePhone, [...(queue ?? []), message]);
          retryWaiting();
        }
        return result;
      },
      read: (messageId: string) => events!.receipt(messageId, 'read'),
      deleted: (messageId: string, deletedBy: string, forEveryone: boolean) => events!.deleted(messageId, deletedBy, forEveryone),
      async drop(instanceId: string) {
        await events!.dropped(instanceId);
        // The owner's connection is the one that fell; the owner brings it back.
        tellOwner(instanceId);
      },
      ban: (instanceId: string) => events!.banned(instanceId),
    },
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      clearTimeout(heldRetry);
    },
  };
}

export type SandboxNetwork = ReturnType<typeof createSandboxEngine>;
