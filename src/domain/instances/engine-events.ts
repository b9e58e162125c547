import { Invalid, NotFound } from '../errors.js';
import { statusEvent, upsertEvent } from '../messages/message-events.js';
import type { MessageStore } from '../messages/messages.ports.js';
import type { Dispatcher } from '../messages/dispatcher.js';
import type { Clock } from '../ports.js';
import type { EngineEvents } from './engine.port.js';
import { digits } from './events.js';
import type { InstanceStore } from './instances.ports.js';
import type { Transitions } from './transitions.js';
import type { Lease } from './ownership.js';

const E164 = /^\+[1-9][0-9]{6,14}$/;

/** Turns what an engine reports into state changes, stored messages and events. */
export function createEngineEvents(deps: {
  instances: InstanceStore;
  transitions: Transitions;
  messages: MessageStore;
  dispatcher: Dispatcher;
  clock: Clock;
  /** A usable instance appeared for the tenant: it takes the tenant's waiting routed messages. */
  handOverWaiting: (tenantId: string) => Promise<void>;
}): EngineEvents {
  const { instances, transitions, messages, dispatcher, clock } = deps;

  async function find(instanceId: string) {
    const instance = await instances.findById(instanceId);
    if (!instance) throw new NotFound('Instance');
    return instance;
  }

  async function connect(instanceId: string, fence?: Lease) {
    const linked = await transitions.move(await find(instanceId), 'linked', { lastConnection: clock.now() }, { fence });
    dispatcher.kick(linked.id);
    // An inactive instance still sends what was addressed to it, never routed messages.
    if (linked.active) await deps.handOverWaiting(linked.tenantId);
  }

  return {
    async scanned(code, phone) {
      if (typeof phone !== 'string' || !E164.test(phone)) throw Invalid.at('phone', 'must be +digits with the country code (8-16 characters)');
      if (typeof code !== 'string' || code === '') throw Invalid.at('code', 'is required');
      const qr = await instances.useQr(code, clock.now());
      if (!qr) throw Invalid.at('code', 'unknown, already used or expired');
      await transitions.move(await find(qr.instanceId), 'scanned', { phone });
      await connect(qr.instanceId);
      return { instanceId: qr.instanceId };
    },

    async dropped(instanceId) {
      await transitions.move(await find(instanceId), 'dropped');
    },

    async reconnected(instanceId, lease) {
      await transitions.move(await find(instanceId), 'reconnecting', {}, { fence: lease });
      await connect(instanceId, lease);
    },

    async banned(instanceId) {
      await transitions.move(await find(instanceId), 'banned');
    },

    async inbound(instancePhone, message) {
      const [instance] = await instances.findConnectedByPhone(instancePhone);
      if (!instance) {
        if (await instances.isPairedOffline(instancePhone)) return { held: true };
        throw new NotFound('Instance paired with that phone');
      }
      const stored = await messages.createInbound(
        {
          tenantId: instance.tenantId,
          instanceId: instance.id,
          from: message.from,
          to: digits(instance.phone),
          type: message.type,
          text: message.text,
          location: message.location,
          at: clock.now(),
        },
        (created) => [upsertEvent(created, { pushName: message.pushName })],
      );
      return { messageId: stored.id };
    },

    async receipt(messageId, status) {
      const updated = await messages.recordStatus(messageId, status, clock.now(), (message) => [statusEvent(message)]);
      if (!updated) throw new NotFound('Message');
    },

    async deleted(messageId, deletedBy, forEveryone) {
      const message = await messages.findById(messageId);
      if (!message) throw new NotFound('Message');
      await messages.emit(message, [{ event: 'messages.delete', data: { messageId, deletedBy, forEveryone } }]);
    },
  };
}
