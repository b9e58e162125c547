import { randomBytes } from 'node:crypto';
import type { ChatEngine, EngineEvents, InboundMessage } from '../../domain/instances/engine.port.js';
import { untilStored } from '../../domain/retry.js';

export const SANDBOX_INTEGRATION = 'CHAT-SANDBOX';

/**
 * The sandbox chat network: pairs phones by QR, carries messages both ways, sends receipts, drops
 * connections and bans numbers, all in-process. Its state lives in the gateway's database (pairings
 * are instance rows, phone inboxes are the messages sent to them), so a restart keeps it.
 */
export function createSandboxEngine(options: {
  deliveryDelayMs: number;
  reconnectDelayMs: number;
  /** Messages the network took and has not yet confirmed (to report their receipts after a restart). */
  unconfirmed?: () => Promise<string[]>;
  onRetry?: (error: unknown) => void;
}) {
  let events: EngineEvents | undefined;
  let stopped = false;
  /** Messages to phones whose instance is offline, by phone, oldest first: the network holds them. */
  const held = new Map<string, InboundMessage[]>();
  /** Hands held messages over, in order, to every phone whose instance is connected again. */
  async function handOverHeld() {
    for (const [phone, queue] of held) {
      while (queue.length) {
        const result = await events!.inbound(phone, queue[0]!);
        if ('held' in result) break;
        queue.shift();
      }
      if (!queue.length) held.delete(phone);
    }
  }
  const timers = new Set<NodeJS.Timeout>();
  /**
   * What the network reports on its own (receipts, reconnects) is reported until the gateway stores
   * it: a database outage delays it, never drops it. A report refused for good (the instance or
   * message was deleted meanwhile) is dropped.
   */
  const later = (ms: number, work: () => Promise<unknown>) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      untilStored(work, { stopped: () => stopped, onRetry: options.onRetry }).catch(() => {});
    }, ms);
    timers.add(timer);
  };

  const engine: ChatEngine = {
    integration: SANDBOX_INTEGRATION,
    jidDomain: 'sandbox.chat',
    async newPairingCode() {
      return `sandbox:${randomBytes(24).toString('base64url')}`;
    },
    async send(_instance, message) {
      // The simulated phone has it at once; it reports delivery shortly after.
      later(options.deliveryDelayMs, () => events!.receipt(message.messageId, 'delivered'));
    },
    async logout() {},
  };

  return {
    engine,
    /** Wires the engine to the domain's handlers. */
    connect(handlers: EngineEvents) {
      events = handlers;
    },
    /** After a start: confirm what the phones received before the last stop but was never confirmed. */
    async resume() {
      for (const messageId of (await options.unconfirmed?.()) ?? []) {
        later(options.deliveryDelayMs, () => events!.receipt(messageId, 'delivered'));
      }
    },
    /** The control API of the simulated network (the "outside world" a real phone would be). */
    control: {
      async scan(code: string, phone: string) {
        const paired = await events!.scanned(code, phone);
        later(0, handOverHeld);
        return paired;
      },
      async inbound(instancePhone: string, message: InboundMessage) {
        // What waits for this phone goes first, so messages arrive in the order they were sent; a
        // hand-over that failed earlier (the database was away) is tried again before holding more.
        if (held.get(instancePhone)?.length) await handOverHeld();
        const queue = held.get(instancePhone);
        const result = queue?.length ? ({ held: true } as const) : await events!.inbound(instancePhone, message);
        if ('held' in result) held.set(instancePhone, [...(queue ?? []), message]);
        return result;
      },
      read: (messageId: string) => events!.receipt(messageId, 'read'),
      deleted: (messageId: string, deletedBy: string, forEveryone: boolean) => events!.deleted(messageId, deletedBy, forEveryone),
      async drop(instanceId: string) {
        await events!.dropped(instanceId);
        later(options.reconnectDelayMs, async () => {
          await events!.reconnected(instanceId);
          await handOverHeld();
        });
      },
      ban: (instanceId: string) => events!.banned(instanceId),
    },
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

export type SandboxNetwork = ReturnType<typeof createSandboxEngine>;
