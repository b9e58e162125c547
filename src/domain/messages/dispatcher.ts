import type { ChatEngine } from '../instances/engine.port.js';
import { digits } from '../instances/events.js';
import type { Clock } from '../ports.js';
import { statusEvent, upsertEvent } from './message-events.js';
import type { MessageStore } from './messages.ports.js';

export type Dispatcher = ReturnType<typeof createDispatcher>;

/** Messages handed to the engine per read of the queue and marked sent per write. */
const BATCH_SIZE = 100;

/**
 * Hands queued messages of a connected instance to its engine, oldest first, a batch at a time: one
 * read of the queue and one write of the `sent` marks per batch. The database is the queue: whatever
 * is still queued after a restart goes out when its instance is connected again.
 */
export function createDispatcher(deps: {
  messages: MessageStore;
  engine: ChatEngine;
  clock: Clock;
  onError: (error: unknown, instanceId: string) => void;
}) {
  const { messages, engine, clock } = deps;
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();
  const kicked = new Set<string>();

  async function drain(instanceId: string) {
    for (;;) {
      const batch = await messages.sendingBatch(instanceId, BATCH_SIZE);
      if (!batch || batch.messages.length === 0) return;
      const { instance } = batch;
      const sent: Parameters<MessageStore['markSent']>[1] = [];
      try {
        for (const message of batch.messages) {
          await engine.send(
            { id: instance.id, phone: instance.phone },
            { messageId: message.id, to: message.to, type: message.type as 'text', text: message.text, mediaUrl: message.mediaUrl, caption: message.caption },
          );
          const at = clock.now();
          const record = { ...message, from: digits(instance.phone), status: 'sent' as const, sentAt: at };
          sent.push({ message: record, at, events: [upsertEvent(record), statusEvent(record)] });
        }
      } finally {
        // What the engine took is marked sent in one write, even when a later send of the batch failed.
        if (sent.length) await messages.markSent(instance, sent);
      }
      // A short batch emptied the queue; whatever was accepted since kicked the dispatcher, which drains again.
      if (batch.messages.length < BATCH_SIZE) return;
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
    /**
     * Dispatches soon, off the caller's path. Kicks for one instance in the same turn (every send of
     * an accepted group) make one dispatch.
     */
    kick(instanceId: string) {
      if (kicked.has(instanceId)) return;
      kicked.add(instanceId);
      setImmediate(() => {
        kicked.delete(instanceId);
        dispatch(instanceId).catch((error: unknown) => deps.onError(error, instanceId));
      });
    },
    /** Resolves when nothing is being dispatched (tests, shutdown). */
    async idle() {
      while (running.size) await Promise.allSettled([...running.values()]);
    },
  };
}
