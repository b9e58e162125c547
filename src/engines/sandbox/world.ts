import { randomUUID } from 'node:crypto';
import type { InboundMessage } from '../../domain/network/engine-messages.js';
import { normalPairingCode } from '../../domain/network/pairing-code.js';
import type { NetworkEvent } from '../../domain/network/network-events.js';
import { Conflict, Invalid, NotFound } from '../../domain/errors.js';
import { digits } from '../../domain/phone.js';
import type { SandboxDirectory } from './directory.js';
import { isAdmin, isMember, type SandboxGroups } from './groups.js';
import type { SandboxMedia } from './media.js';
import type { SandboxReports } from './reports.js';
import type { PhonePast } from './past.js';
import type { SandboxPasts } from './pasts.js';
import { createSandboxCalls } from './calls.js';
import type { SandboxDevices } from './devices.js';

/** How often messages the network holds for an offline phone are offered again. */
const HELD_RETRY_MS = 1000;

const E164 = /^\+[1-9][0-9]{6,14}$/;

/**
 * The simulated outside world: the phones that scan codes, enter pairing codes, send messages (held
 * while their instance is offline; in groups too), vote on polls, read and delete messages, and the
 * network's own doings (group and presence events, drops, bans). Its control API (routes.ts) is what a real phone would be.
 */
export function createSandboxWorld(deps: {
  directory: SandboxDirectory;
  groups: SandboxGroups;
  media: SandboxMedia;
  pasts: SandboxPasts;
  reports: SandboxReports;
  /** The instances' devices on this node: how they answer calls and whether they read at once. */
  devices: SandboxDevices;
}) {
  const { directory, groups, media, reports } = deps;
  const calls = createSandboxCalls({ directory, devices: deps.devices, reports });
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
    if (heldRetry || reports.stopped || waiting.size === 0) return;
    heldRetry = setTimeout(() => {
      heldRetry = undefined;
      handOverWaiting().catch(() => {}).finally(retryWaiting);
    }, HELD_RETRY_MS);
  }

  /** A message to the instance paired with `phone`: delivered when it is connected, held while it is offline. */
  async function deliver(phone: string, message: InboundMessage): Promise<{ messageId: string | null } | 'held'> {
    const { connected: instance, offline } = await directory.reachByPhone(phone);
    if (!instance) {
      if (offline) return 'held';
      throw new NotFound('Instance paired with that phone');
    }
    const stored = await reports.events.inbound(instance.id, message);
    // Taken by the device either way: stored before (handed over again), or dropped by the instance's settings.
    if (!stored) return { messageId: null };
    const device = deps.devices.get(instance.id);
    // A read mark is the device's own doing, best effort like a phone's: a lost one leaves the message unread.
    if (device?.settings.autoRead && message.from) await device.markRead(message.from, message.networkMessageId!).catch(() => {});
    return stored;
  }

  /** A phone completes a pairing: linking, then connected at once (the simulated network confirms immediately). */
  async function link(instanceId: string, phone: string) {
    await reports.events.paired(instanceId, undefined, phone);
    await reports.events.connected(instanceId, undefined);
    // The owner stops its codes; held messages go to the newly connected phone.
    reports.tellOwner(instanceId);
    reports.later(0, handOverWaiting);
    return { instanceId };
  }

  function checkPhone(phone: unknown): asserts phone is string {
    if (typeof phone !== 'string' || !E164.test(phone)) throw Invalid.at('phone', 'must be +digits with the country code (8-16 characters)');
  }

  async function sandboxInstance(instanceId: string) {
    if (!(await directory.isSandboxInstance(instanceId))) throw new NotFound('Sandbox instance');
    return instanceId;
  }

  const control = {
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
    async inbound(instancePhone: string, sent: InboundMessage): Promise<{ messageId: string | null } | { held: true }> {
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
    /**
     * The group a phone writes into, as a group message names it: the phone and the instance's phone
     * (+digits) must both be in it, and in a group where only admins write, the phone must be one.
     */
    async groupOf(groupId: string, from: string, instancePhone: string) {
      const group = await groups.get(groupId);
      if (!group) throw Invalid.at('group', 'is not a group of the sandbox network');
      if (!isMember(group, from)) throw Invalid.at('from', 'is not a participant of that group');
      if (!isMember(group, digits(instancePhone))) throw Invalid.at('to', 'is not a participant of that group');
      if (group.announce && !isAdmin(group, from)) throw Invalid.at('from', "is no admin of that group, where only admins write");
      return { id: group.id, subject: group.subject };
    },
    /**
     * The phone `phone` (digits) votes on a poll it received from the instance paired with
     * `instancePhone`: `options` (names; none withdraws the vote) replace its earlier vote. A `group`,
     * when named, must be the one the poll was sent to.
     */
    async pollVote(phone: string, instancePhone: string, messageId: string, options: string[], group?: string) {
      const received = await directory.receivedByPhone(messageId, phone);
      if (!received || received.instancePhone !== instancePhone) throw Invalid.at('pollVote.messageId', 'is not a message that phone received from that instance');
      if (group !== undefined && group !== received.group) {
        throw Invalid.at('group', received.group ? `is not the group that poll was sent to (${received.group})` : 'names a group, but that poll was sent to the phone directly');
      }
      if (received.type !== 'poll' || !received.poll) throw Invalid.at('pollVote.messageId', 'is not a poll');
      const { poll } = received;
      const chosen = [...new Set(options)];
      const unknown = options.findIndex((option) => !poll.options.includes(option));
      if (unknown >= 0) throw Invalid.at(`pollVote.options.${unknown}`, `is not an option of that poll (${poll.options.join(', ')})`);
      if (poll.selectableCount > 0 && chosen.length > poll.selectableCount) throw Invalid.at('pollVote.options', `picks at most ${poll.selectableCount} of that poll's options`);
      const connected = await directory.connectedByPhone(instancePhone);
      if (connected?.id !== received.instanceId) throw new Conflict('instance_unavailable', 'The instance is offline; the phone votes once it is connected again.');
      // The network knows the poll by the gateway's own id.
      await reports.events.pollVote(received.instanceId, messageId, phone, chosen, new Date());
      return { messageId, options: chosen };
    },
    /** The phone `phone` edits a message it sent to the instance paired with `instancePhone`, named by the gateway's id. */
    async edit(phone: string, instancePhone: string, messageId: string, text: string) {
      const message = await directory.receivedFromPhone(messageId);
      if (!message || message.from !== phone.replace(/^\+/, '') || message.instancePhone !== instancePhone) {
        throw new NotFound('Message that phone sent to that instance');
      }
      const connected = await directory.connectedByPhone(instancePhone);
      if (connected?.id !== message.instanceId) throw new Conflict('instance_unavailable', 'The instance is offline; the phone edits once it is connected again.');
      await reports.events.edited(message.instanceId, message.networkMessageId, text, new Date());
      return { messageId, edited: true as const };
    },
    /** A phone uploads a file it is about to send: the source of its message's media descriptor. */
    keepMedia: (bytes: Buffer, mimetype: string) => media.put(bytes, mimetype),
    /** The file of a received message expires: its media answers 410 from now on. */
    async expireMedia(messageId: string) {
      if (!(await media.expire(messageId))) throw new NotFound('Received media message');
    },
    async read(messageId: string) {
      const message = await directory.messageOnNetwork(messageId);
      if (!message) throw new NotFound('Message');
      await reports.events.receipts(message.instanceId, [{ networkMessageId: message.networkMessageId, status: 'read' }]);
    },
    /** A phone deletes a message, sent or received, named by the gateway's id. */
    async deleted(messageId: string, deletedBy: string, forEveryone: boolean) {
      const message = await directory.messageOnNetwork(messageId);
      if (!message) throw new NotFound('Message');
      await reports.events.deleted(message.instanceId, message.networkMessageId, deletedBy, forEveryone);
    },
    /**
     * A phone (digits) is given a past: its instances take it as history when they link next, and a
     * connected one at once (docs/engines.md, "The sandbox's past").
     */
    async givePast(phone: string, past: PhonePast) {
      await deps.pasts.give(phone, past);
      const connected = await directory.connectedOn([phone]);
      for (const instanceId of connected) reports.tellOwner(instanceId);
      return { phone, chats: past.chats.length, contacts: past.contacts.length, messages: past.messages.length, told: connected.length };
    },
    /** A phone's past as its instances take it: the one given, else the made-up one (SANDBOX_PAST=generated), else none. */
    past: (phone: string) => deps.pasts.of(phone),
    /** The network tells the instance's device of a group, contact or presence change (session instances only). */
    async raise(instanceId: string, event: NetworkEvent) {
      await reports.events.network(await sandboxInstance(instanceId), event);
    },
    /** Phone calls to instances' numbers (docs/settings.md, "Calls"). */
    placeCall: calls.place,
    endCall: calls.end,
    callsPlacedBy: calls.placedBy,
    async drop(instanceId: string) {
      await reports.events.closed(await sandboxInstance(instanceId), undefined, 'connection_lost');
      // The owner's connection is the one that fell; the owner brings it back.
      reports.tellOwner(instanceId);
    },
    async ban(instanceId: string) {
      await reports.events.closed(await sandboxInstance(instanceId), undefined, 'banned');
      reports.tellOwner(instanceId);
    },
  };

  return {
    control,
    /** Held messages go to phones whose instance is connected again. */
    handOverWaiting,
    stop() {
      clearTimeout(heldRetry);
    },
  };
}

export type SandboxWorld = ReturnType<typeof createSandboxWorld>;
