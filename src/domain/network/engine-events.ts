import { randomUUID } from 'node:crypto';
import { Conflict, Invalid, NotFound } from '../errors.js';
import { qrEvent } from '../events/instance-payloads.js';
import { deleteEvent, editEvent, pollVoteEvent, statusEvent, upsertEvent } from '../events/message-payloads.js';
import type { JsonValue, MessageRecord, MessageStore } from '../messages/messages.ports.js';
import { type StoredPoll, withVote } from '../messages/poll-tally.js';
import type { Dispatcher } from '../messages/dispatcher.js';
import type { Clock } from '../ports.js';
import { CLOSE_OUTCOMES, type DisconnectReason, type EngineEvents } from './engine.port.js';
import { keepsNetworkEvents } from './link-terms.js';
import { digits } from '../phone.js';
import type { InstancePatch, InstanceRecord, InstanceStore, QrImages } from '../instances/instances.ports.js';
import type { Transitions } from '../instances/transitions.js';
import type { Lease } from '../ownership/lease.js';
import type { ConversationStore } from '../conversations/conversations.ports.js';
import { chatIdOf } from '../conversations/chat-id.js';
import { inboundContent } from '../messages/inbound-content.js';
import type { MediaKeeper } from '../media/media-keeper.js';
import { chatDeleteEvent, chatUpdateEvent, chatUpsertEvent, contactsChangedEvent, contactsUpsertEvent, historySyncEvent } from '../events/conversation-payloads.js';

import { createAccountEvents } from './account-events.js';

const E164 = /^\+[1-9][0-9]{6,14}$/;

/** Tries of a receipt whose message is not found (about 6 s in all). */
const RECEIPT_ATTEMPTS = 6;

/**
 * Whether `deleter` (phone digits, as engines report who deleted) wrote the message: the phone that
 * sent it to us, or for a message we sent, this instance's own number (its `from` once sent).
 */
function isAuthor(message: Pick<MessageRecord, 'from' | 'fromLid'>, deleter: string): boolean {
  const who = digits(deleter);
  return who !== '' && (who === digits(message.from) || who === digits(message.fromLid));
}

/** Tries of recording a pairing whose row another write changed meanwhile. */
const PAIRED_ATTEMPTS = 5;

/** Turns what an engine reports into state changes, stored messages and events. */
export function createEngineEvents(deps: {
  instances: InstanceStore;
  transitions: Transitions;
  messages: MessageStore;
  conversations: ConversationStore;
  dispatcher: Dispatcher;
  qrImages: QrImages;
  clock: Clock;
  /** A usable instance appeared for the tenant: it takes the tenant's waiting routed messages. */
  handOverWaiting: (tenantId: string) => Promise<unknown>;
  /** Keeps received media (docs/media.md): whether a message is marked pending, and keeping it once stored. */
  mediaKeeper?: Pick<MediaKeeper, 'stateFor' | 'keep'>;
}): EngineEvents {
  const { instances, transitions, messages, dispatcher, clock } = deps;

  async function find(instanceId: string) {
    const instance = await instances.findById(instanceId);
    if (!instance) throw new NotFound('Instance');
    return instance;
  }

  async function linked(instance: InstanceRecord, fence?: Lease) {
    const now = clock.now();
    let current = instance;
    if (current.state === 'disconnected') current = await transitions.move(current, 'reconnecting', {}, { fence });
    if (current.state === 'connecting') current = await transitions.move(current, 'linked', { lastConnection: now }, { fence });
    dispatcher.kick(current.id);
    // An inactive instance still sends what was addressed to it, never routed messages.
    if (current.active && current.state === 'connected') await deps.handOverWaiting(current.tenantId);
  }

  /** What a close leaves of the instance: each reason its move, and the reason kept for the detail answer. */
  async function close(instance: InstanceRecord, reason: DisconnectReason, fence?: Lease) {
    const outcome = CLOSE_OUTCOMES[reason];
    // A restart or a new owner: the connection comes back at once, the instance keeps its status.
    if (outcome === 'passing') return;
    const lastDisconnect: InstancePatch = { lastDisconnectReason: reason, lastDisconnectAt: clock.now() };
    const noPairing: InstancePatch = { pairingSince: null, pairingCode: null, pairingPhone: null, pairingCodeExpiresAt: null };
    switch (outcome) {
      case 'logged_out':
        return void (await transitions.move(instance, 'logged_out', { ...lastDisconnect, ...noPairing, phone: null, logoutPending: false }, { fence, reason, retireQr: true }));
      case 'banned':
        return void (await transitions.move(instance, 'banned', { ...lastDisconnect, ...noPairing }, { fence, reason }));
      case 'pairing_expired':
        return void (await transitions.move(instance, 'qr_exhausted', noPairing, { fence, reason }));
      case 'refused':
        // The check the credentials were given for failed: v1 error, session disconnected, until new ones come.
        if (instance.state === 'error') return void (await instances.change(instance.id, { ...lastDisconnect, ...noPairing }, [], { fence }));
        return void (await transitions.move(instance, 'failed', { ...lastDisconnect, ...noPairing }, { fence, reason }));
      case 'lapsed':
        // In use, the credentials stopped working: down (queue kept) until a new token is given.
        if (instance.state === 'connected' || instance.state === 'connecting') {
          return void (await transitions.move(instance, 'dropped', { ...lastDisconnect, ...noPairing }, { fence, reason }));
        }
        return close(instance, 'credentials_rejected', fence);
      case 'dropped':
        // Lost, timed out, closed, unavailable, a bad session, replaced: down until the engine's policy
        // brings it back. A reconnect attempt that fails while down only leaves its reason.
        if (instance.state === 'connected' || instance.state === 'connecting') {
          await transitions.move(instance, 'dropped', lastDisconnect, { fence, reason });
        } else {
          await instances.change(instance.id, lastDisconnect, [], { fence });
        }
    }
  }

  return {
    ...createAccountEvents(deps),

    async qrCode(instanceId, lease, code) {
      const instance = await find(instanceId);
      if (instance.pairingSince === null) throw new Conflict('instance_unavailable', 'The instance is not pairing.');
      const record = { attemptId: randomUUID(), code: code.text, expiresAt: code.expiresAt };
      const dataUrl = await deps.qrImages.toDataUrl(code.text);
      const event = qrEvent(dataUrl, record.expiresAt, record.attemptId);
      // A fresh v1 instance shows "initializing" until its code is asked for (GET …/qr); every other pairing shows its code.
      const since = instance.pairingSince;
      let current = instance;
      if (current.state === 'created' && current.variant === 'v1') {
        const changed = await instances.change(instanceId, {}, [event], { ifState: ['created'], ifPairingSince: since, qr: record, fence: lease });
        if (changed) return;
        // The first GET …/qr moved it on meanwhile: the code is then shown as any later one is.
        current = await find(instanceId);
        if (current.state === 'created' || current.pairingSince?.getTime() !== since.getTime()) throw new Conflict('instance_unavailable', 'The instance changed meanwhile.');
      }
      await transitions.move(current, 'qr_issued', {}, { events: [event], qr: record, fence: lease, ifPairingSince: since });
    },

    async pairingCodeReady(instanceId, lease, code, expiresAt) {
      const instance = await find(instanceId);
      if (instance.pairingCode !== code) throw new Conflict('instance_unavailable', 'Another pairing code was asked for meanwhile.');
      await instances.change(instanceId, { pairingCodeExpiresAt: expiresAt }, [], { fence: lease, ifPairingSince: instance.pairingSince ?? undefined });
    },

    async pairingEnded(instanceId, lease) {
      await close(await find(instanceId), 'pairing_expired', lease);
    },

    async paired(instanceId, lease, phone) {
      if (typeof phone !== 'string' || !E164.test(phone)) throw Invalid.at('phone', 'must be +digits with the country code (8-16 characters)');
      // The phone linked the device: that stands even if the row changed meanwhile (a new code of the same
      // pairing, a v1 QR read moving it to qr_code), so a lost race is read again and tried again.
      for (let attempt = 1; ; attempt++) {
        const instance = await find(instanceId);
        try {
          await transitions.move(
            instance,
            'scanned',
            { phone, pairingSince: null, pairingCode: null, pairingPhone: null, pairingCodeExpiresAt: null, lastDisconnectReason: null, lastDisconnectAt: null },
            { fence: lease, retireQr: true },
          );
          return;
        } catch (error) {
          if (!(error instanceof Conflict) || attempt >= PAIRED_ATTEMPTS || !['created', 'qr'].includes((await find(instanceId)).state)) throw error;
        }
      }
    },

    async verified(instanceId, lease, phone) {
      if (typeof phone !== 'string' || !E164.test(phone)) throw Invalid.at('phone', 'must be +digits with the country code (8-16 characters)');
      let instance = await find(instanceId);
      const checked: InstancePatch = { phone, pairingSince: null, lastDisconnectReason: null, lastDisconnectAt: null };
      if (instance.state === 'connected') {
        await instances.change(instanceId, checked, [], { fence: lease });
        return;
      }
      if (instance.state === 'created') instance = await transitions.move(instance, 'scanned', checked, { fence: lease });
      else if (instance.state === 'disconnected' || instance.state === 'error') instance = await transitions.move(instance, 'reconnecting', checked, { fence: lease });
      await linked(instance, lease);
    },

    async connected(instanceId, lease) {
      await linked(await find(instanceId), lease);
    },

    async closed(instanceId, lease, reason) {
      await close(await find(instanceId), reason, lease);
    },

    async inbound(instanceId, message) {
      const instance = await find(instanceId);
      // A reaction or a reply names the other message by the network's id; the gateway's id is added when it has that message.
      const ours = async (networkMessageId: string | null | undefined) =>
        networkMessageId ? { messageId: (await messages.findByNetworkId(instance.id, networkMessageId))?.id ?? null, networkMessageId } : null;
      const quoted = await ours(message.quotedNetworkId);
      const reacted = message.reaction ? await ours(message.reaction.networkMessageId) : null;
      const content = inboundContent(message);
      const mediaState = deps.mediaKeeper?.stateFor(instance, content.media?.type ?? null) ?? null;
      const stored = await messages.createInbound(
        {
          chatId: chatIdOf({ direction: 'in', to: '', from: message.from, fromLid: message.fromLid, group: message.group }),
          pushName: message.pushName,
          tenantId: instance.tenantId,
          instanceId: instance.id,
          networkMessageId: message.networkMessageId,
          from: message.from,
          fromLid: message.from === null ? (message.fromLid ?? null) : null,
          to: digits(instance.phone),
          ...content,
          mediaState,
          reaction: message.reaction && reacted ? { emoji: message.reaction.emoji, ...reacted } : null,
          quoted,
          at: clock.now(),
        },
        (created, chat) => [upsertEvent(created, { pushName: message.pushName }), chat.created ? chatUpsertEvent(chat.chat) : chatUpdateEvent(chat.chat)],
      );
      // Kept once the message is committed; the sweep resumes it if this node stops first.
      if (stored && mediaState) deps.mediaKeeper!.keep(stored.id);
      return stored && { messageId: stored.id };
    },

    async receipts(instanceId, receipts) {
      const at = clock.now();
      // A receipt can overtake the `sent` mark that stores the network's id (a fast phone): one whose
      // message is not found yet is tried again for a few seconds; then it belongs to a message this
      // gateway no longer has (deleted with its instance) and is dropped.
      let pending = receipts;
      for (let attempt = 0; pending.length > 0 && attempt < RECEIPT_ATTEMPTS; attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
        const applied = await Promise.all(
          pending.map((receipt) =>
            messages.recordNetworkStatus(
              instanceId,
              receipt.networkMessageId,
              receipt.status,
              at,
              // A repeated or overtaken receipt records its time but announces nothing: one messages.update per status.
              (message, before) => (message.status === before.status ? [] : [statusEvent(message)]),
              receipt.error,
            ),
          ),
        );
        pending = pending.filter((_, n) => applied[n] === null);
      }
    },

    async network(instanceId, { event, data }) {
      const instance = await find(instanceId);
      if (!keepsNetworkEvents(instance)) {
        throw new Conflict('instance_unavailable', 'A v1 instance has no group, contact or presence events (they belong to the session variant).');
      }
      const told = { event, data: data as unknown as Record<string, unknown> };
      // A group's subject names its chat (docs/conversations.md): stored with the event, once, in one transaction.
      const named =
        event === 'groups.upsert'
          ? data.groups.map((g) => ({ id: g.id, subject: g.subject, at: g.createdAt ? new Date(g.createdAt) : null }))
          : event === 'groups.update' && data.subject
            ? [{ id: data.id, subject: data.subject, at: null }]
            : [];
      if (named.length === 0) return messages.emit({ tenantId: instance.tenantId, instanceId: instance.id }, [told]);
      await deps.conversations.nameGroups(instance, named, ({ created, renamed }) => [told, ...created.map(chatUpsertEvent), ...renamed.map(chatUpdateEvent)]);
    },

    async edited(instanceId, networkMessageId, text, at, byInstance) {
      const message = await messages.findByNetworkId(instanceId, networkMessageId);
      if (!message) throw new NotFound('Message');
      // Only a message's author edits it: the other side naming one of ours (or we one of theirs) changes nothing.
      if (byInstance !== undefined && byInstance !== (message.direction === 'out')) return;
      await messages.recordEdit(message.id, text, at, (edited) => [editEvent(edited)]);
    },

    async pollVote(instanceId, pollNetworkMessageId, voter, options) {
      const message = await messages.findByNetworkId(instanceId, pollNetworkMessageId);
      if (!message) throw new NotFound('Message');
      if (message.type !== 'poll' || !message.poll) return;
      await messages.recordPollVote(message.id, (poll) => withVote(poll as unknown as StoredPoll, voter, options) as unknown as JsonValue, (changed) => [pollVoteEvent(changed)]);
    },

    async deleted(instanceId, networkMessageId, deletedBy, forEveryone) {
      const message = await messages.findByNetworkId(instanceId, networkMessageId);
      if (!message) throw new NotFound('Message');
      const event = deleteEvent(message, deletedBy, forEveryone);
      // A delete for oneself changes only the deleting side's copy: told as it comes.
      if (!forEveryone) return messages.emit(message, [event]);
      // Only a message's author deletes it for everyone (docs/messaging.md): a peer naming ours, or another
      // participant's, changes nothing in our records. Recorded and told once.
      if (!isAuthor(message, deletedBy)) return;
      await messages.recordDelete(message.id, clock.now(), [event]);
    },

    async history(instanceId, batch) {
      const instance = await find(instanceId);
      // A batch seen before stores nothing and tells nothing; chats it made and the progress are told once.
      await deps.conversations.storeHistory(instance, batch, (stored) =>
        stored.seen ? [] : [...stored.chats.map(chatUpsertEvent), historySyncEvent(stored.progress)],
      );
    },

    async contacts(instanceId, contacts) {
      const instance = await find(instanceId);
      // A LID's chat that moved to its phone's chat: the LID's is gone, the phone's changed.
      await deps.conversations.saveContacts(instance, contacts, ({ created, changed, merged }) => [
        ...(created.length ? [contactsUpsertEvent(created)] : []),
        ...(changed.length ? [contactsChangedEvent(changed)] : []),
        ...merged.flatMap(({ lidChat, chat }) => [chatDeleteEvent(instance.id, lidChat), chatUpdateEvent(chat)]),
      ]);
    },
  };
}
