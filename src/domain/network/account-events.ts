import { NotFound } from '../errors.js';
import { callEvent, restrictedEvent } from '../events/instance-payloads.js';
import type { InstanceRecord, InstanceStore } from '../instances/instances.ports.js';
import type { MessageStore } from '../messages/messages.ports.js';
import type { Dispatcher } from '../messages/dispatcher.js';
import { storedSettingsOf } from '../settings/instance-settings.js';
import type { EngineEvents } from './engine.port.js';

/**
 * What an engine reports of the account itself rather than its messages (docs/settings.md): calls to
 * its number, and the network holding its sending.
 */
export function createAccountEvents(deps: {
  instances: InstanceStore;
  messages: Pick<MessageStore, 'emit'>;
  dispatcher: Pick<Dispatcher, 'kick'>;
  /** Sends a call's rejection message to the caller, as the instance's own send. */
  replyToCall?: (instance: InstanceRecord, to: string, text: string, callId: string) => Promise<void>;
}): Pick<EngineEvents, 'call' | 'restricted'> {
  const { instances } = deps;

  async function find(instanceId: string) {
    const instance = await instances.findById(instanceId);
    if (!instance) throw new NotFound('Instance');
    return instance;
  }

  return {
    async call(instanceId, call) {
      const instance = await find(instanceId);
      const data = { id: call.id, from: call.from, video: call.video, status: call.status, at: call.at.toISOString() };
      await deps.messages.emit({ tenantId: instance.tenantId, instanceId }, [callEvent(data)]);
      // Only a call the instance rejected by its own setting, with rejecting still on and a message set:
      // a rejection by the phone's owner, or a setting turned off meanwhile, sends nothing.
      const { calls } = storedSettingsOf(instance);
      if (call.status === 'reject' && call.rejectedByInstance && calls.reject && calls.message && deps.replyToCall) {
        await deps.replyToCall(instance, call.from, calls.message, call.id);
      }
    },

    async restricted(instanceId, lease, { reason, until }) {
      await find(instanceId);
      const changed = await instances.change(instanceId, { restrictedUntil: until, restrictedReason: until ? reason : null }, [restrictedEvent(reason, until)], { fence: lease });
      // Lifted, the queue goes again; set, the dispatch sees the hold and wakes when it ends.
      if (changed) deps.dispatcher.kick(instanceId);
    },
  };
}
