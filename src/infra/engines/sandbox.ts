import { randomBytes } from 'node:crypto';
import type { ChatEngine, EngineEvents } from '../../domain/instances/engine.port.js';

export const SANDBOX_INTEGRATION = 'CHAT-SANDBOX';

/**
 * The sandbox chat network: pairs phones by QR, carries messages both ways, sends receipts, drops
 * connections and bans numbers, all in-process. Its state lives in the gateway's database (pairings
 * are instance rows, phone inboxes are the messages sent to them), so a restart keeps it.
 */
export function createSandboxEngine(options: { deliveryDelayMs: number; reconnectDelayMs: number }) {
  let events: EngineEvents | undefined;
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, work: () => Promise<unknown>) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      work().catch(() => {}); // the instance or message may be gone by then
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
    /** The control API of the simulated network (the "outside world" a real phone would be). */
    control: {
      scan: (code: string, phone: string) => events!.scanned(code, phone),
      inbound: (instancePhone: string, message: Parameters<EngineEvents['inbound']>[1]) => events!.inbound(instancePhone, message),
      read: (messageId: string) => events!.receipt(messageId, 'read'),
      deleted: (messageId: string, deletedBy: string, forEveryone: boolean) => events!.deleted(messageId, deletedBy, forEveryone),
      async drop(instanceId: string) {
        await events!.dropped(instanceId);
        later(options.reconnectDelayMs, () => events!.reconnected(instanceId));
      },
      ban: (instanceId: string) => events!.banned(instanceId),
    },
    stop() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

export type SandboxNetwork = ReturnType<typeof createSandboxEngine>;
