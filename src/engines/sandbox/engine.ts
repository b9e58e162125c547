import { randomBytes } from 'node:crypto';
import type { ChatEngine, EngineMessage, LinkTerms, MessageRef, SendOutcome } from '../../domain/instances/engine.port.js';
import type { InstanceRecord } from '../../domain/instances/instances.ports.js';
import { type Lease, LeaseLost } from '../../domain/instances/ownership.js';
import { Conflict, NetworkError } from '../../domain/errors.js';
import { GROUP_ID } from '../../domain/messages/send-kinds.input.js';
import { digits } from '../../domain/phone.js';
import { SANDBOX_INTEGRATION, type SandboxDirectory } from './directory.js';
import { createSandboxGroupAdmin } from './group-admin.js';
import { isAdmin, isMember, type SandboxGroups } from './groups.js';
import type { SandboxHandoffs } from './handoffs.js';
import type { SandboxMedia } from './media.js';
import type { Signal, SandboxSignals } from './signals.js';
import { createSandboxReports } from './reports.js';
import { createSandboxWorld } from './world.js';

export { SANDBOX_INTEGRATION };

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
  groups: SandboxGroups;
  media: SandboxMedia;
  signals: SandboxSignals;
  deliveryDelayMs: number;
  reconnectDelayMs: number;
  onRetry?: (error: unknown) => void;
}) {
  const { handoffs } = options;
  const reports = createSandboxReports(options.onRetry);
  const world = createSandboxWorld({ directory: options.directory, groups: options.groups, media: options.media, reports });
  const manageGroup = createSandboxGroupAdmin({ groups: options.groups, directory: options.directory, reports });
  /** The connections this node holds, by instance, with the lease they are held under. */
  const held = new Map<string, Lease>();
  const pairings = new Map<string, Pairing>();
  const confirm = (instanceId: string, messageId: string) =>
    reports.later(options.deliveryDelayMs, () => reports.events.receipts(instanceId, [{ networkMessageId: messageId, status: 'delivered' }]));

  const isCurrent = (instanceId: string, lease: Lease) => held.get(instanceId)?.token === lease.token;

  /** What the instance tells a phone beside messages, under its lease; refused when the network cannot. */
  async function tell(instanceId: string, lease: Lease, signals: Signal[]) {
    if (!isCurrent(instanceId, lease)) throw new Conflict('instance_unavailable', 'This node no longer holds the instance; retry.');
    const told = await options.signals.tell(instanceId, lease, signals);
    if (told === 'lease_lost') throw new Conflict('instance_unavailable', 'This node no longer holds the instance; retry.');
    if (told === 'unknown_message') throw new NetworkError('The network carried no such message for this instance.');
  }

  /**
   * What the network refuses of messages to groups: a group it does not have, one the number is not
   * in, or one where only admins write. The others go on.
   */
  async function groupRefusals(phone: string, messages: EngineMessage[]): Promise<Map<string, SendOutcome>> {
    const toGroups = messages.filter((message) => GROUP_ID.test(message.to));
    const groups = await options.groups.many(toGroups.map((message) => message.to));
    const refusals = new Map<string, SendOutcome>();
    for (const message of toGroups) {
      const group = groups.get(message.to);
      const reason = !group || !isMember(group, phone) ? 'this number is not a participant of that group' : group.announce && !isAdmin(group, phone) ? "only the group's admins write in it" : null;
      if (reason) refusals.set(message.messageId, { messageId: message.messageId, failed: { code: 'network_refused', message: `The network refused the message: ${reason}.` } });
    }
    return refusals;
  }

  /** An edit or a delete is of a message the instance sent (to a phone or a group). */
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
      await reports.once(() => reports.events.pairingEnded(instanceId, pairing.lease));
      return;
    }
    const expiresAt = Math.min(now + ttlMs, pairing.endsAt);
    const stillPairing = await reports.once(() =>
      reports.events.qrCode(instanceId, pairing.lease, { text: `sandbox:${randomBytes(24).toString('base64url')}`, expiresAt: new Date(expiresAt) }),
    );
    if (!stillPairing) return stopPairing(instanceId);
    pairing.timer = setTimeout(() => void nextCode(instanceId, pairing, ttlMs).catch(reports.onRetry), expiresAt - now);
  }

  async function runPairing(instance: InstanceRecord, lease: Lease, terms: LinkTerms) {
    const since = instance.pairingSince!.getTime();
    const running = pairings.get(instance.id);
    if (!running || running.since !== since || running.lease.token !== lease.token) {
      stopPairing(instance.id);
      const ttlMs = terms.qr.lifetimeMs;
      const startedAt = Date.now();
      const pairing: Pairing = { since, lease, startedAt, endsAt: startedAt + ttlMs * terms.qr.codes };
      pairings.set(instance.id, pairing);
      await nextCode(instance.id, pairing, ttlMs);
    }
    // A pairing code asked for is "registered" by the network at once; it works as long as the pairing.
    const pairing = pairings.get(instance.id);
    if (pairing && instance.pairingCode && !instance.pairingCodeExpiresAt) {
      await reports.once(() => reports.events.pairingCodeReady(instance.id, lease, instance.pairingCode!, new Date(pairing.endsAt)));
    }
  }

  const engine: ChatEngine = {
    integration: SANDBOX_INTEGRATION,
    async send(instance, messages, lease) {
      const refusals = await groupRefusals(digits(instance.phone), messages);
      const carried = messages.filter((message) => !refusals.has(message.messageId));
      const taken = await handoffs.handOff(instance, carried, lease);
      if (taken === 0 && carried.length > 0) throw new LeaseLost(instance.id);
      // The simulated phones have them at once; they report delivery shortly after. The network knows a
      // message by the gateway's own id.
      for (const message of carried) confirm(instance.id, message.messageId);
      return messages.map((message) => refusals.get(message.messageId) ?? { messageId: message.messageId, networkMessageId: message.messageId });
    },
    async holding(_instanceId, messageIds) {
      return new Map([...(await handoffs.holding(messageIds))].map((id) => [id, id]));
    },
    async attach(instance, lease, terms) {
      const before = held.get(instance.id);
      held.set(instance.id, lease);
      if (before?.token !== lease.token) {
        // Taken over: confirm what the phones received under the previous owner but never confirmed.
        for (const messageId of await handoffs.unconfirmed(instance.id)) confirm(instance.id, messageId);
      }
      if (instance.logoutPending) {
        // Nothing to tell a simulated network: the logout is done.
        await reports.once(() => reports.events.closed(instance.id, lease, 'logged_out'));
        return;
      }
      if (instance.pairingSince !== null) return runPairing(instance, lease, terms);
      stopPairing(instance.id);
      // A dropped connection comes back by itself, from whichever node holds it.
      if (instance.state === 'disconnected' && instance.phone !== null) {
        reports.later(options.reconnectDelayMs, async () => {
          if (!isCurrent(instance.id, lease)) return;
          try {
            await reports.events.connected(instance.id, lease);
          } catch (error) {
            if (!(error instanceof LeaseLost) && !(error instanceof Conflict)) throw error;
            return;
          }
          await world.handOverWaiting();
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
      // In a group, the read mark goes to the participant who wrote the message.
      await tell(instanceId, lease, targets.map((target) => ({ to: target.participant ?? target.chat, kind: 'read' as const, networkMessageId: target.networkMessageId })));
    },
    async sendPresence(instanceId, lease, chat, state) {
      await tell(instanceId, lease, [{ to: chat, kind: 'presence', state }]);
    },
    async checkNumbers(instanceId, lease, phones) {
      if (!isCurrent(instanceId, lease)) throw new Conflict('instance_unavailable', 'This node no longer holds the instance; retry.');
      const registered = await options.directory.registered(phones);
      return phones.map((phone) => ({ phone, exists: registered.has(phone) }));
    },
    async manageGroup(instanceId, lease, op) {
      if (!isCurrent(instanceId, lease)) throw new Conflict('instance_unavailable', 'This node no longer holds the instance; retry.');
      const phone = await options.directory.phoneOf(instanceId);
      if (!phone) throw new Conflict('instance_unavailable', 'The instance is linked to no number.');
      return manageGroup(phone, op);
    },
  };

  return {
    engine,
    /** Wires the engine to the domain's handlers, and to the owners of instances. */
    connect: reports.connect,
    /** The control API of the simulated network (the "outside world" a real phone would be). */
    control: world.control,
    stop() {
      reports.stop();
      for (const instanceId of [...pairings.keys()]) stopPairing(instanceId);
      world.stop();
    },
  };
}

export type SandboxNetwork = ReturnType<typeof createSandboxEngine>;
