import { randomBytes } from 'node:crypto';
import type { ChatEngine, InstanceSession, LinkTerms } from '../../domain/network/engine.port.js';
import type { EngineMessage, MessageRef, SendOutcome } from '../../domain/network/engine-messages.js';
import type { InstanceRecord } from '../../domain/instances/instances.ports.js';
import { type Lease, LeaseLost } from '../../domain/ownership/lease.js';
import { Conflict, NetworkError } from '../../domain/errors.js';
import { GROUP_ID } from '../../domain/messages/send-kinds.input.js';
import { digits } from '../../domain/phone.js';
import { typedBeforeSending, typingMsOf } from '../../domain/settings/typing.js';
import { SANDBOX_INTEGRATION, type SandboxDirectory } from './directory.js';
import { createSandboxGroupAdmin } from './group-admin.js';
import { isAdmin, isMember, type SandboxGroups } from './groups.js';
import type { SandboxHandoffs } from './handoffs.js';
import type { SandboxMedia } from './media.js';
import type { Signal, SandboxSignals } from './signals.js';
import { createSandboxReports } from './reports.js';
import { createSandboxWorld } from './world.js';
import { createPastSync } from './past-sync.js';
import type { SandboxPasts } from './pasts.js';
import type { ChatChange } from '../../domain/network/engine-history.js';
import type { SandboxDevices } from './devices.js';
import type { SandboxOwnAccount } from './own-account.js';

export { SANDBOX_INTEGRATION };

/** A pairing this node runs: its codes, one after the other, until one is scanned or they run out. */
interface Pairing {
  /** The pairing it runs (the instance's pairingSince). */
  since: number;
  startedAt: number;
  endsAt: number;
  timer?: NodeJS.Timeout;
}

/**
 * The sandbox chat network: pairs phones, carries messages both ways, sends receipts, drops connections,
 * bans numbers. Its state lives in the database, so a restart keeps it and every node sees one network;
 * the owner's session issues the pairing's codes, hands messages over and brings a dropped connection back.
 */
export function createSandboxEngine(options: {
  handoffs: SandboxHandoffs;
  directory: SandboxDirectory;
  groups: SandboxGroups;
  media: SandboxMedia;
  signals: SandboxSignals;
  pasts: SandboxPasts;
  ownAccount: SandboxOwnAccount;
  /** Where the control API serves profile pictures: PUBLIC_URL, or '' for a path on the gateway. */
  publicUrl: string;
  deliveryDelayMs: number;
  reconnectDelayMs: number;
  onRetry?: (error: unknown) => void;
}) {
  const { handoffs } = options;
  const reports = createSandboxReports(options.onRetry);
  const devices: SandboxDevices = new Map();
  const world = createSandboxWorld({ directory: options.directory, groups: options.groups, media: options.media, pasts: options.pasts, reports, devices });
  const manageGroup = createSandboxGroupAdmin({ groups: options.groups, directory: options.directory, reports });
  /** How to stop the pairing of each session open on this node (pairings stop with the engine). */
  const pairingStops = new Set<() => void>();
  const confirm = (instanceId: string, messageId: string) =>
    reports.later(options.deliveryDelayMs, () => reports.events.receipts(instanceId, [{ networkMessageId: messageId, status: 'delivered' }]));
  const unavailable = () => new Conflict('instance_unavailable', 'This node no longer holds the instance; retry.');

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

  /** One instance's connection under one lease: its pairing's codes, hand-offs, and the reconnect of a drop. */
  async function attach(first: InstanceRecord, lease: Lease): Promise<InstanceSession> {
    const instanceId = first.id;
    let pairing: Pairing | undefined;
    let detached = false;
    /** Whether the device last showed the account online (alwaysOnline), so a change is told once. */
    let shownOnline = false;
    const past = createPastSync({ instanceId, pasts: options.pasts, directory: options.directory, reports, publicUrl: options.publicUrl, detached: () => detached });

    /** What the instance tells a phone beside messages; refused when the network cannot. */
    async function tell(signals: Signal[]) {
      if (detached) throw unavailable();
      const told = await options.signals.tell(instanceId, lease, signals);
      if (told === 'lease_lost') throw unavailable();
      if (told === 'unknown_message') throw new NetworkError('The network carried no such message for this instance.');
    }

    /**
     * The device, while connected, does what the instance's settings ask of it (docs/settings.md): it
     * answers calls and reads messages as they arrive, and shows the account online to the network.
     */
    async function setUpDevice(instance: InstanceRecord, terms: LinkTerms) {
      if (instance.state !== 'connected' || instance.phone === null) return void devices.delete(instanceId);
      devices.set(instanceId, {
        settings: terms.settings,
        markRead: (from, networkMessageId) => tell([{ to: from, kind: 'read', networkMessageId }]),
      });
      if (terms.settings.alwaysOnline === shownOnline) return;
      try {
        // Told to the account's own number: the presence the network keeps for it.
        await tell([{ kind: 'presence', state: terms.settings.alwaysOnline ? 'available' : 'unavailable' }]);
        shownOnline = terms.settings.alwaysOnline;
      } catch (error) {
        // This node no longer holds the instance: its new owner's session shows it.
        if (!(error instanceof Conflict)) throw error;
      }
    }

    function stopPairing() {
      clearTimeout(pairing?.timer);
      pairing = undefined;
    }

    /** The next code of the pairing, or its end once every code has had its time. */
    async function nextCode(running: Pairing, ttlMs: number) {
      if (pairing !== running || detached) return;
      const now = Date.now();
      if (now >= running.endsAt) {
        pairing = undefined;
        await reports.once(() => reports.events.pairingEnded(instanceId, lease));
        return;
      }
      const expiresAt = Math.min(now + ttlMs, running.endsAt);
      const stillPairing = await reports.once(() =>
        reports.events.qrCode(instanceId, lease, { text: `sandbox:${randomBytes(24).toString('base64url')}`, expiresAt: new Date(expiresAt) }),
      );
      if (!stillPairing) return stopPairing();
      running.timer = setTimeout(() => void nextCode(running, ttlMs).catch(reports.onRetry), expiresAt - now);
    }

    async function runPairing(instance: InstanceRecord, terms: LinkTerms) {
      const since = instance.pairingSince!.getTime();
      if (pairing?.since !== since) {
        stopPairing();
        const ttlMs = terms.qr.lifetimeMs;
        const startedAt = Date.now();
        const running: Pairing = { since, startedAt, endsAt: startedAt + ttlMs * terms.qr.codes };
        pairing = running;
        await nextCode(running, ttlMs);
      }
      // A pairing code asked for is "registered" by the network at once; it works as long as the pairing.
      if (pairing && instance.pairingCode && !instance.pairingCodeExpiresAt) {
        const endsAt = pairing.endsAt;
        await reports.once(() => reports.events.pairingCodeReady(instanceId, lease, instance.pairingCode!, new Date(endsAt)));
      }
    }

    /** The number the instance is linked to, for what concerns its own account. */
    async function ownPhone(): Promise<string> {
      if (detached) throw unavailable();
      const phone = await options.directory.phoneOf(instanceId);
      if (!phone) throw new Conflict('instance_unavailable', 'The instance is linked to no number.');
      return phone;
    }

    const session: InstanceSession = {
      async update(instance, terms) {
        if (detached) return;
        if (instance.logoutPending) {
          // Nothing to tell a simulated network: the logout is done.
          await reports.once(() => reports.events.closed(instanceId, lease, 'logged_out'));
          return;
        }
        if (instance.pairingSince !== null) return runPairing(instance, terms);
        stopPairing();
        await setUpDevice(instance, terms);
        if (instance.state === 'connected' && instance.phone !== null) past.connected(instance.phone, terms);
        // A dropped connection comes back by itself, from whichever node holds it.
        if (instance.state === 'disconnected' && instance.phone !== null) {
          reports.later(options.reconnectDelayMs, async () => {
            if (detached) return;
            try {
              await reports.events.connected(instanceId, lease);
            } catch (error) {
              if (!(error instanceof LeaseLost) && !(error instanceof Conflict)) throw error;
              return;
            }
            await setUpDevice({ ...instance, state: 'connected' }, terms);
            past.connected(instance.phone!, terms);
            await world.handOverWaiting();
          });
        }
      },
      async send(messages, phone) {
        const refusals = await groupRefusals(digits(phone), messages);
        const carried = messages.filter((message) => !refusals.has(message.messageId));
        for (const message of carried) {
          if (!typedBeforeSending(message)) continue;
          // The phone sees typing for as long as the text would take to type (docs/settings.md, "Sending").
          await tell([{ to: message.to, kind: 'presence', state: 'composing' }]);
          await new Promise((resolve) => setTimeout(resolve, typingMsOf(message.text!)));
        }
        const taken = await handoffs.handOff({ id: instanceId, phone }, carried, lease);
        if (taken === 0 && carried.length > 0) throw new LeaseLost(instanceId);
        // The simulated phones have them at once; they report delivery shortly after. The network knows a
        // message by the gateway's own id.
        for (const message of carried) confirm(instanceId, message.messageId);
        return messages.map((message) => refusals.get(message.messageId) ?? { messageId: message.messageId, networkMessageId: message.messageId });
      },
      async holding(messageIds) {
        return new Map([...(await handoffs.holding(messageIds))].map((id) => [id, id]));
      },
      detach() {
        detached = true;
        devices.delete(instanceId);
        pairingStops.delete(stopPairing);
        stopPairing();
      },
      async forget() {
        session.detach();
      },
      async edit(target, text) {
        await tell([{ ...ownMessage(target), kind: 'edit', text }]);
      },
      async delete(target) {
        await tell([{ ...ownMessage(target), kind: 'delete' }]);
      },
      async markRead(targets) {
        // In a group, the read mark goes to the participant who wrote the message.
        await tell(targets.map((target) => ({ to: target.participant ?? target.chat, kind: 'read' as const, networkMessageId: target.networkMessageId })));
      },
      async presence(chat, state) {
        await tell([{ to: chat, kind: 'presence', state }]);
      },
      async chatState(chat, change) {
        await tell([{ kind: 'chat_state', text: chat, state: JSON.stringify(shownChange(change)) }]);
      },
      async backfill(chat, count, oldest, oldestAt) {
        if (detached) throw unavailable();
        await past.backfill(chat, count, oldest, oldestAt);
      },
      async block(phone, blocked) {
        await tell([{ kind: 'block', text: phone, state: blocked ? 'blocked' : 'unblocked' }]);
      },
      async profile(phone) {
        if (detached) throw unavailable();
        return past.profile(phone);
      },
      async blocklist() {
        return options.ownAccount.blocked(await ownPhone());
      },
      async ownProfile(change) {
        const phone = await ownPhone();
        let stored = await options.ownAccount.profile(phone);
        if (change) {
          stored = options.ownAccount.changed(stored, change);
          await tell([{ kind: 'own_profile', state: JSON.stringify(stored) }]);
        }
        return options.ownAccount.shown(phone, stored);
      },
      async privacy(change) {
        const phone = await ownPhone();
        let settings = await options.ownAccount.privacy(phone);
        if (change) {
          settings = { ...settings, ...change };
          await tell([{ kind: 'privacy', state: JSON.stringify(settings) }]);
        }
        return settings;
      },
      async checkNumbers(phones) {
        if (detached) throw unavailable();
        const registered = await options.directory.registered(phones);
        return phones.map((phone) => ({ phone, exists: registered.has(phone) }));
      },
      async groups(op) {
        return manageGroup(await ownPhone(), op);
      },
    };
    pairingStops.add(stopPairing);
    // Taken over: confirm what the phones received under the previous owner but never confirmed.
    for (const messageId of await handoffs.unconfirmed(instanceId)) confirm(instanceId, messageId);
    return session;
  }

  const engine: ChatEngine = { integration: SANDBOX_INTEGRATION, media: options.media.source, attach };

  return {
    engine,
    /** Wires the engine to the domain's handlers, and to the owners of instances. */
    connect: reports.connect,
    /** The control API of the simulated network (the "outside world" a real phone would be). */
    control: world.control,
    stop() {
      reports.stop();
      for (const stop of pairingStops) stop();
      world.stop();
    },
  };
}

/** A chat's change as its phone records it (JSON): a mute's end as an instant. */
const shownChange = (change: ChatChange) => ('mutedUntil' in change && change.mutedUntil instanceof Date ? { mutedUntil: change.mutedUntil.toISOString() } : change);

export type SandboxNetwork = ReturnType<typeof createSandboxEngine>;
