import { z } from 'zod';
import { type Actor, assertSameTenant, modeOf } from '../actor.js';
import type { Capability } from '../network/capabilities.js';
import type { NumberCheck, OwnerAction } from '../network/engine.port.js';
import type { InstanceRecord } from '../instances/instances.ports.js';
import type { InstancesService } from '../instances/instances.service.js';
import type { Ownership } from '../ownership/ownership.js';
import type { Clock } from '../ports.js';
import { Conflict, Invalid, NotFound } from '../errors.js';
import { parseInput } from '../validation.js';
import { deleteEvent, editEvent } from '../events/message-payloads.js';
import { editInput, numberCheckInput, presenceInput } from './message-actions.input.js';
import type { MessageRecord, MessageStore } from './messages.ports.js';
import { outboundText } from './messages.service.js';
import { refOf } from './outbound-content.js';
import { actingInstance } from '../instances/acting-instance.js';
import { chatId } from './send-kinds.input.js';
import { type DailyQuotas, type QuotaCounter, takeDailyQuota } from './send-quota.js';

/** How long after it was sent the network lets a message be edited. */
export const EDIT_WINDOW_MS = 15 * 60 * 1000;

export type MessageActionsService = ReturnType<typeof createMessageActionsService>;

/**
 * Actions on an instance's messages and chats that happen on the network at once (docs/messaging.md):
 * the instance's owner carries each out and the answer waits for it, so a success means it happened.
 * What the engine cannot do is refused before anything is asked or stored.
 */
export function createMessageActionsService(deps: {
  messages: Pick<MessageStore, 'findById' | 'recordEdit' | 'recordDelete'>;
  instances: Pick<InstancesService, 'ownedInstance'>;
  ownership: Pick<Ownership, 'perform'>;
  capabilitiesOf: (integration: string) => readonly Capability[];
  clock: Clock;
  quota: QuotaCounter;
  quotas: DailyQuotas;
}) {
  const { messages, ownership, clock, quota, quotas } = deps;
  const connectedInstance = actingInstance(deps);

  /** A message of this instance (another instance's or tenant's is 404, as one that does not exist). */
  async function messageOf(actor: Actor, instance: InstanceRecord, messageId: string): Promise<MessageRecord> {
    const message = await messages.findById(messageId);
    if (!message || message.instanceId !== instance.id) throw new NotFound('Message');
    assertSameTenant(actor, message);
    return message;
  }

  function ownSent(message: MessageRecord, action: string) {
    if (message.direction !== 'out') throw new Conflict('message_not_yours', `Only messages this instance sent can be ${action}; this one was received.`);
  }

  /** A test key stays in its sandbox: it may not change what production traffic put on the network. */
  function sameMode(actor: Actor, message: MessageRecord, action: string) {
    if (modeOf(actor) === 'test' && message.mode !== 'test') {
      throw new Conflict('test_mode_mismatch', `A test key can only ${action} messages sent in test mode; this one was sent in production mode.`);
    }
  }

  const perform = (instance: InstanceRecord, action: OwnerAction) => ownership.perform(instance.id, action);

  const deleted = () => new Conflict('message_deleted', 'The message was deleted for everyone; it can no longer be edited.');

  return {
    async edit(actor: Actor, instanceId: string, messageId: string, input: unknown): Promise<MessageRecord> {
      const { text } = parseInput(editInput, input);
      const instance = await connectedInstance(actor, instanceId, 'edit');
      const message = await messageOf(actor, instance, messageId);
      ownSent(message, 'edited');
      sameMode(actor, message, 'edit');
      if (message.deletedAt) throw deleted();
      if (message.text === null && message.caption === null) throw Invalid.at('messageId', `is a ${message.type} message: only text and captions can be edited`);
      const target = refOf(message);
      const sentAt = message.sentAt ?? message.createdAt;
      if (clock.now().getTime() - sentAt.getTime() > EDIT_WINDOW_MS) {
        throw new Conflict('edit_window_closed', 'The network allows edits for 15 minutes after a message is sent; this one was sent earlier.');
      }
      // What a test key sent stays marked as such.
      const words = outboundText(text, message.mode);
      // An edit reaches the phone as a message does: it counts as one of the caller's daily quota.
      const giveBack = await takeDailyQuota(quota, quotas, actor, clock.now());
      try {
        await perform(instance, { kind: 'edit', target, text: words });
      } catch (error) {
        await giveBack();
        throw error;
      }
      const edited = await messages.recordEdit(message.id, words, clock.now(), (row) => [editEvent(row)]);
      if (!edited) throw new NotFound('Message');
      if (edited === 'deleted') throw deleted();
      return edited;
    },

    async deleteForEveryone(actor: Actor, instanceId: string, messageId: string): Promise<void> {
      const instance = await connectedInstance(actor, instanceId, 'delete');
      const message = await messageOf(actor, instance, messageId);
      ownSent(message, 'deleted for everyone');
      sameMode(actor, message, 'delete');
      // Deleting again succeeds as the first did and changes nothing (docs/messaging.md): a retry after a lost answer is no failure.
      if (message.deletedAt) return;
      await perform(instance, { kind: 'delete', target: refOf(message) });
      // Two deletes at once: the first recorded announces it, the other nothing.
      await messages.recordDelete(message.id, clock.now(), [deleteEvent(message, message.from ?? '', true)]);
    },

    async markRead(actor: Actor, instanceId: string, messageId: string): Promise<void> {
      const instance = await connectedInstance(actor, instanceId, 'read');
      const message = await messageOf(actor, instance, messageId);
      if (message.direction !== 'in') throw new Conflict('message_not_yours', 'Only received messages can be marked read; this one was sent by the instance.');
      await perform(instance, { kind: 'read', targets: [refOf(message)] });
    },

    async presence(actor: Actor, instanceId: string, chat: string, input: unknown): Promise<void> {
      const { state } = parseInput(presenceInput, input);
      const { chat: to } = parseInput(z.object({ chat: chatId }), { chat });
      const instance = await connectedInstance(actor, instanceId, 'typing');
      await perform(instance, { kind: 'presence', chat: to, state });
    },

    async checkNumbers(actor: Actor, instanceId: string, input: unknown): Promise<NumberCheck[]> {
      const { phones } = parseInput(numberCheckInput, input);
      const instance = await connectedInstance(actor, instanceId, 'number_check');
      const unique = [...new Set(phones)];
      const { numbers = [] } = await perform(instance, { kind: 'check_numbers', phones: unique });
      const byPhone = new Map(numbers.map((entry) => [entry.phone, entry]));
      // One answer per phone asked, in the order asked: a phone the network said nothing of does not exist there.
      return unique.map((phone) => byPhone.get(phone) ?? { phone, exists: false });
    },
  };
}
