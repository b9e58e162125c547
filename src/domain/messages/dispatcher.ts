import type { ChatEngine } from '../instances/engine.port.js';
import { digits } from '../instances/events.js';
import type { InstanceStore } from '../instances/instances.ports.js';
import type { Clock } from '../ports.js';
import { statusEvent, upsertEvent } from './message-events.js';
import type { MessageStore } from './messages.ports.js';

export type Dispatcher = ReturnType<typeof createDispatcher>;

/**
 * Hands queued messages of a connected instance to its engine, oldest first. The database is the
 * queue: whatever is still queued after a restart goes out when its instance is connected again.
 */
export function createDispatcher(deps: {
  messages: MessageStore;
  instances: Pick<InstanceStore, 'findById'>;
  engine: ChatEngine;
  clock: Clock;
  onError: (error: unknown, instanceId: string) => void;
}) {
  const { messages, instances, engine, clock } = deps;
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();

  async function drain(instanceId: string) {
    const instance = await instances.findById(instanceId);
    if (!instance || instance.state !== 'connected' || !instance.phone) return;
    for (;;) {
      const batch = await messages.queuedFor(instanceId, 50);
      if (batch.length === 0) return;
      for (const message of batch) {
        await engine.send(
          { id: instance.id, phone: instance.phone },
          { messageId: message.id, to: message.to, type: message.type as 'text', text: message.text, mediaUrl: message.mediaUrl, caption: message.caption },
        );
        const sentAt = clock.now();
        const sent = { ...message, from: digits(instance.phone), status: 'sent' as const, sentAt };
        await messages.markSent(message.id, sentAt, [upsertEvent(sent), statusEvent(sent)]);
      }
    }
  }

  async function dispatch(instanceId: string): Promise<void> {
    const current = running.get(instanceId);
    if (current) {
      again.add(instanceId);
      return current;
    }
    const run = (async () => {
      do {
        again.delete(instanceId);
        await drain(instanceId);
      } while (again.has(instanceId));
    })().finally(() => running.delete(instanceId));
    running.set(instanceId, run);
    return run;
  }

  return {
    dispatch,
    /** Dispatches soon, off the caller's path. */
    kick(instanceId: string) {
      setImmediate(() => dispatch(instanceId).catch((error: unknown) => deps.onError(error, instanceId)));
    },
    /** Resolves when nothing is being dispatched (tests, shutdown). */
    async idle() {
      while (running.size) await Promise.allSettled([...running.values()]);
    },
  };
}
