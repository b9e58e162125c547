import { randomBytes, randomUUID } from 'node:crypto';
import type { ChatEngine, EngineEvents, InboundMessage, MessageRef } from '../../domain/instances/engine.port.js';
import type { Capability } from '../../domain/instances/capabilities.js';
import type { InstanceRecord } from '../../domain/instances/instances.ports.js';
import { type Lease, LeaseLost } from '../../domain/instances/ownership.js';
import { normalPairingCode } from '../../domain/instances/pairing-code.js';
import { Conflict, Invalid, NetworkError, NotFound } from '../../domain/errors.js';
import { untilStored } from '../../domain/retry.js';
import type { SandboxHandoffs } from './sandbox-handoffs.js';
import type { SandboxMedia } from './sandbox-media.js';
import type { Signal, SandboxSignals } from './sandbox-signals.js';
import type { NetworkEvent } from '../../domain/instances/network-events.js';
import { SANDBOX_INTEGRATION, type SandboxDirectory } from './sandbox-directory.js';

export { SANDBOX_INTEGRATION };

/** How often messages the network holds for an offline phone are offered again. */
const HELD_RETRY_MS = 1000;

const E164 = /^\+[1-9][0-9]{6,14}$/;

/** Everything the network offers but templates (a business API's own) and, for now, groups and polls. */
export const SANDBOX_CAPABILITIES: readonly Capability[] = [
  'text',
  'media',
  'voice',
  'sticker',
  'location',
  'contacts',
  'reaction',
  'reply',
  'mentions',
  'edit',
  'delete',
  'read',
  'typing',
  'number_check',
];

/** The sandbox's QR timings (QR_*): each code's lifetime by variant, and codes per pairing. */
export interface SandboxQrTimings {
  sessionTtlSeconds: number;
  v1TtlSeconds: number;
  attempts: number;
}

/** A pairing this node runs: its codes, one after the other, until one is scanned or they run out. */
interface Pairing {
  /** The pairing it runs (the instance's pairingSince). */
  since: number;
  lease: Lease;
  startedAt: number;
  endsAt: number;
  timer?: NodeJS.Timeout;
}

/**
 * The sandbox chat network: pairs phones by QR code or pairing code, carries messages both ways,
 * sends receipts, drops connections and bans numbers. Its state lives in the gateway's database
 * (pairings are instance rows, every hand-off is a row), so a restart keeps it and every node sees the
 * same network. The node owning an instance holds its "connection": it issues the pairing's codes,
 * hands messages over, reports receipts and brings a dropped connection back.
 */
export function createSandboxEngine(options: {
  handoffs: SandboxHandoffs;
  directory: SandboxDirectory;
  media: SandboxMedia;
  signals: SandboxSignals;
  qr: SandboxQrTimings;
  deliveryDelayMs: number;
  reconnectDelayMs: number;
  onRetry?: (error: unknown) => void;
}) {
  const { handoffs, directory } = options;
  let events: EngineEvents | undefined;
  /** Tells an instance's owner that its connection changed (it may be another node). */
  let tellOwner: (instanceId: string) => void = () => {};
  let stopped = false;
  /** The connections this node holds, by instance, with the lease they are held under. */
  const held = new Map<string, Lease>();
  const pairings = new Map<string, Pairing>();
  /** Messages to phones whose instance is offline, by phone, oldest first: the network holds them. */
  const waiting = new Map<string, InboundMessage[]>();
  let heldRetry: NodeJS.Timeout | undefined;

  /** Hands waiting messages over, in order, to every phone whose instance is connected again. */
  async function handOverWaiting() {
    for (const [phone, queue] of waiting) {
      while (queue.length) {
        let result: Awaited<ReturnType<typeof deliver>>;
        try {
          result = await deliver(phone, queue[0]!);
        } catch (error) {
          // Stored by an earlier hand-over whose answer was lost: it has arrived.
          if (!(error instanceof Conflict)) throw error;
          result = { messageId: '' };
        }
        if (result === 'held') break;
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

  /** A message to the instance paired with `phone`: delivered when it is connected, held while it is offline. */
  async function deliver(phone: string, message: InboundMessage): Promise<{ messageId: string } | 'held'> {
    const instance = await directory.connectedByPhone(phone);
    if (!instance) {
      if (await directory.pairedOffline(phone)) return 'held';
      throw new NotFound('Instance paired with that phone');
    }
    const stored = await events!.inbound(instance.id, message);
    if (!stored) throw new Conflict('instance_unavailable', 'That message was already delivered.');
    return stored;
  }

  const timers = new Set<NodeJS.Timeout>();
  /**
   * What the network reports on its own (receipts, reconnects, codes) is reported until the gateway
   * stores it: a database outage delays it, never drops it. A report refused for good (the instance
   * or message was deleted meanwhile, the lease moved, the instance moved on) is dropped.
   */
  const later = (ms: number, work: () => Promise<unknown>) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      untilStored(work, { stopped: () => stopped, onRetry: options.onRetry }).catch(() => {});
    }, ms);
    timers.add(timer);
  };
  const confirm = (instanceId: string, messageId: string) =>
    later(options.deliveryDelayMs, () => events!.receipts(instanceId, [{ networkMessageId: messageId, status: 'delivered' }]));

  const isCurrent = (instanceId: string, lease: Lease) => held.get(instanceId)?.token === lease.token;

  /** What the instance tells a phone beside messages, under its lease; refused when the network cannot. */
  async function tell(instanceId: string, lease: Lease, signals: Signal[]) {
    if (!isCurrent(instanceId, lease)) throw new Conflict('instance_unavailable', 'This node no longer holds the instance; retry.');
    const told = await options.signals.tell(instanceId, lease, signals);
    if (told === 'lease_lost') throw new Conflict('instance_unavailable', 'This node no longer holds the instance; retry.');
    if (told === 'unknown_message') throw new NetworkError('The network carried no such message for this instance.');
  }

  /** An edit or a delete is of a message the instance sent to a phone (groups are not on the sandbox yet). */
  function ownMessage(target: MessageRef) {
    if (!target.fromMe) throw new NetworkError('Only a message this number sent can be edited or deleted for everyone.');
    return { to: target.chat, networkMessageId: target.networkMessageId };
  }

  function stopPairing(instanceId: string) {
    const pairing = pairings.get(instanceId);
    if (!pairing) return;
    clearTimeout(pairing.timer);
    pairings.delete(instanceId);
  }

  /** The next code of the pairing, or its end once every code has had its time. */
  async function nextCode(instanceId: string, pairing: Pairing, ttlMs: number) {
    if (pairings.get(instanceId) !== pairing || !isCurrent(instanceId, pairing.lease)) return;
    const now = Date.now();
    if (now >= pairing.endsAt) {
      pairings.delete(instanceId);
      await reportOnce(() => events!.pairingEnded(instanceId, pairing.lease));
      return;
    }
    const expiresAt = Math.min(now + ttlMs, pairing.endsAt);
    const stillPairing = await reportOnce(() =>
      events!.qrCode(instanceId, pairing.lease, { text: `sandbox:${randomBytes(24).toString('base64url')}`, expiresAt: new Date(expiresAt) }),
    );
    if (!stillPairing) return stopPairing(instanceId);
    pairing.timer = setTimeout(() => void nextCode(instanceId, pairing, ttlMs).catch(options.onRetry), expiresAt - now);
  }

  /** Reports until stored; false when the report was refused for good (the instance moved on, the lease went). */
  async function reportOnce(work: () => Promise<unknown>): Promise<boolean> {
    try {
      await untilStored(work, { stopped: () => stopped, onRetry: options.onRetry });
      return true;
    } catch (error) {
      if (error instanceof Conflict || error instanceof LeaseLost || error instanceof NotFound) return false;
      throw error;
    }
  }

  async function runPairing(instance: InstanceRecord, lease: Lease) {
    const since = instance.pairingSince!.getTime();
    const running = pairings.get(instance.id);
    if (!running || running.since !== since || running.lease.token !== lease.token) {
      stopPairing(instance.id);
      const ttlMs = (instance.variant === 'v1' ? options.qr.v1TtlSeconds : options.qr.sessionTtlSeconds) * 1000;
      const startedAt = Date.now();
      const pairing: Pairing = { since, lease, startedAt, endsAt: startedAt + ttlMs * options.qr.attempts };
      pairings.set(instance.id, pairing);
      await nextCode(instance.id, pairing, ttlMs);
    }
    // A pairing code asked for is "registered" by the network at once; it works as long as the pairing.
    const pairing = pairings.get(instance.id);
    if (pairing && instance.pairingCode && !instance.pairingCodeExpiresAt) {
      await reportOnce(() => events!.pairingCodeReady(instance.id, lease, instance.pairingCode!, new Date(pairing.endsAt)));
    }
  }

  const engine: ChatEngine = {
    integration: SANDBOX_INTEGRATION,
    capabilities: SANDBOX_CAPABILITIES,
    async send(instance, messages, lease) {
      const taken = await handoffs.handOff(instance, messages, lease);
      if (taken === 0 && messages.length > 0) throw new LeaseLost(instance.id);
      // The simulated phone has them at once; it reports delivery shortly after. The network knows a
      // message by the gateway's own id.
      for (const message of messages) confirm(instance.id, message.messageId);
      return messages.slice(0, taken).map((message) => ({ messageId: message.messageId, networkMessageId: message.messageId }));
    },
    async holding(_instanceId, messageIds) {
      return new Map([...(await handoffs.holding(messageIds))].map((id) => [id, id]));
    },
    async attach(instance, lease) {
      const before = held.get(instance.id);
      held.set(instance.id, lease);
      if (before?.token !== lease.token) {
        // Taken over: confirm what the phones received under the previous owner but never confirmed.
        for (const messageId of await handoffs.unconfirmed(instance.id)) confirm(instance.id, messageId);
      }
      if (instance.logoutPending) {
        // Nothing to tell a simulated network: the logout is done.
        await reportOnce(() => events!.closed(instance.id, lease, 'logged_out'));
        return;
      }
      if (instance.pairingSince !== null) return runPairing(instance, lease);
      stopPairing(instance.id);
      // A dropped connection comes back by itself, from whichever node holds it.
      if (instance.state === 'disconnected' && instance.phone !== null) {
        later(options.reconnectDelayMs, async () => {
          if (!isCurrent(instance.id, lease)) return;
          try {
            await events!.connected(instance.id, lease);
          } catch (error) {
            if (!(error instanceof LeaseLost) && !(error instanceof Conflict)) throw error;
            return;
          }
          await handOverWaiting();
        });
      }
    },
    detach(instanceId) {
      held.delete(instanceId);
      stopPairing(instanceId);
    },
    async forget() {},
    media: options.media.source,
    async edit(instanceId, lease, target, text) {
      await tell(instanceId, lease, [{ ...ownMessage(target), kind: 'edit', text }]);
    },
    async deleteForEveryone(instanceId, lease, target) {
      await tell(instanceId, lease, [{ ...ownMessage(target), kind: 'delete' }]);
    },
    async markRead(instanceId, lease, targets) {
      await tell(instanceId, lease, targets.map((target) => ({ to: target.chat, kind: 'read' as const, networkMessageId: target.networkMessageId })));
    },
    async sendPresence(instanceId, lease, chat, state) {
      await tell(instanceId, lease, [{ to: chat, kind: 'presence', state }]);
    },
    async checkNumbers(instanceId, lease, phones) {
      if (!isCurrent(instanceId, lease)) throw new Conflict('instance_unavailable', 'This node no longer holds the instance; retry.');
      const registered = await directory.registered(phones);
      return phones.map((phone) => ({ phone, exists: registered.has(phone) }));
    },
  };

  /** A phone completes a pairing: linking, then connected at once (the simulated network confirms immediately). */
  async function link(instanceId: string, phone: string) {
    await events!.paired(instanceId, undefined, phone);
    await events!.connected(instanceId, undefined);
    // The owner stops its codes; held messages go to the newly connected phone.
    tellOwner(instanceId);
    later(0, handOverWaiting);
    return { instanceId };
  }

  function checkPhone(phone: unknown): asserts phone is string {
    if (typeof phone !== 'string' || !E164.test(phone)) throw Invalid.at('phone', 'must be +digits with the country code (8-16 characters)');
  }

  async function sandboxInstance(instanceId: string) {
    if (!(await directory.isSandboxInstance(instanceId))) throw new NotFound('Sandbox instance');
    return instanceId;
  }

  return {
    engine,
    /** Wires the engine to the domain's handlers, and to the owners of instances. */
    connect(handlers: EngineEvents, owners: { tell: (instanceId: string) => void }) {
      events = handlers;
      tellOwner = owners.tell;
    },
    /** The control API of the simulated network (the "outside world" a real phone would be). */
    control: {
      /** A phone scans the text of a QR image. */
      async scan(code: string, phone: string) {
        checkPhone(phone);
        if (typeof code !== 'string' || code === '') throw Invalid.at('code', 'is required');
        const instanceId = await directory.useQr(code, new Date());
        if (!instanceId) throw Invalid.at('code', 'unknown, already used or expired');
        return link(instanceId, phone);
      },
      /** The phone `phone` enters a pairing code ("link with phone number"). */
      async pair(code: string, phone: string) {
        checkPhone(phone);
        const pairing = await directory.pairingCode(normalPairingCode(code), new Date());
        if (!pairing) throw Invalid.at('code', 'unknown or expired');
        if (pairing.pairingPhone !== phone) throw Invalid.at('phone', 'is not the number this pairing code was asked for');
        return link(pairing.id, phone);
      },
      async inbound(instancePhone: string, sent: InboundMessage): Promise<{ messageId: string } | { held: true }> {
        // Like a real network, the sandbox gives every message an id of its own as it is sent: a delete
        // or a receipt finds the message by it, and a held message handed over twice is stored once.
        const message = { ...sent, networkMessageId: sent.networkMessageId ?? randomUUID() };
        // What waits for this phone goes first, so messages arrive in the order they were sent; a
        // hand-over that failed earlier (the database was away) is tried again before holding more.
        if (waiting.get(instancePhone)?.length) await handOverWaiting();
        const queue = waiting.get(instancePhone);
        const result = queue?.length ? 'held' : await deliver(instancePhone, message);
        if (result === 'held') {
          waiting.set(instancePhone, [...(queue ?? []), message]);
          retryWaiting();
          return { held: true };
        }
        return result;
      },
      /** The phone `phone` edits a message it sent to the instance paired with `instancePhone`, named by the gateway's id. */
      async edit(phone: string, instancePhone: string, messageId: string, text: string) {
        const message = await directory.receivedFromPhone(messageId);
        if (!message || message.from !== phone.replace(/^\+/, '') || message.instancePhone !== instancePhone) {
          throw new NotFound('Message that phone sent to that instance');
        }
        const connected = await directory.connectedByPhone(instancePhone);
        if (connected?.id !== message.instanceId) throw new Conflict('instance_unavailable', 'The instance is offline; the phone edits once it is connected again.');
        await events!.edited(message.instanceId, message.networkMessageId, text, new Date());
        return { messageId, edited: true as const };
      },
      /** A phone uploads a file it is about to send: the source of its message's media descriptor. */
      keepMedia: (bytes: Buffer, mimetype: string) => options.media.put(bytes, mimetype),
      /** The file of a received message expires: its media answers 410 from now on. */
      async expireMedia(messageId: string) {
        if (!(await options.media.expire(messageId))) throw new NotFound('Received media message');
      },
      async read(messageId: string) {
        const message = await directory.messageOnNetwork(messageId);
        if (!message) throw new NotFound('Message');
        await events!.receipts(message.instanceId, [{ networkMessageId: message.networkMessageId, status: 'read' }]);
      },
      /** A phone deletes a message, sent or received, named by the gateway's id. */
      async deleted(messageId: string, deletedBy: string, forEveryone: boolean) {
        const message = await directory.messageOnNetwork(messageId);
        if (!message) throw new NotFound('Message');
        await events!.deleted(message.instanceId, message.networkMessageId, deletedBy, forEveryone);
      },
      /** The network tells the instance's device of a group, contact or presence change (session instances only). */
      async raise(instanceId: string, event: NetworkEvent) {
        if (!(await events!.network(await sandboxInstance(instanceId), event))) {
          throw new Conflict('instance_unavailable', 'A v1 instance has no group, contact or presence events (they belong to the session variant).');
        }
      },
      async drop(instanceId: string) {
        await events!.closed(await sandboxInstance(instanceId), undefined, 'connection_lost');
        // The owner's connection is the one that fell; the owner brings it back.
        tellOwner(instanceId);
      },
      async ban(instanceId: string) {
        await events!.closed(await sandboxInstance(instanceId), undefined, 'banned');
        tellOwner(instanceId);
      },
    },
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const instanceId of [...pairings.keys()]) stopPairing(instanceId);
      clearTimeout(heldRetry);
    },
  };
}

export type SandboxNetwork = ReturnType<typeof createSandboxEngine>;
