import { setMaxListeners } from 'node:events';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { createPubSub, SlidingBuffer } from '@graphql-yoga/subscription';
import type { InstanceEventKind, LiveEvent, LiveFeed, TenantEventKind } from '../domain/network/live-events.js';
import type { Logger } from './logger.js';
import { createRedis, type Redis } from './redis.js';

type MessageEvent = Extract<LiveEvent, { kind: 'message' }>;
type ReceivedEvent = Extract<LiveEvent, { kind: 'received' }>;
type ChatEvent = Extract<LiveEvent, { kind: 'chat' }>;

/**
 * Instance kinds are published per instance, tenant kinds per tenant. Message status changes come
 * by the hundred from one statement: they travel as one publication per tenant and batch.
 */
type Topics = { [K in Exclude<LiveEvent['kind'], 'message' | 'received' | 'chat'>]: [id: string, event: Extract<LiveEvent, { kind: K }>] } & {
  messages: [tenantId: string, events: MessageEvent[]];
  received: [tenantId: string, events: ReceivedEvent[]];
  chats: [tenantId: string, events: ChatEvent[]];
};

/** A subscriber that falls behind keeps the newest events: a QR code or status is only worth its latest value. */
const SUBSCRIBER_BUFFER = 16;

/** How long a new subscriber waits for Redis to confirm its subscription before reading the state anyway. */
const ATTACH_WAIT_MS = 2000;

/**
 * Live events through graphql-yoga's pub/sub: in-process, or with Redis through Redis pub/sub so a
 * subscriber on any node receives what any node publishes (each node subscribes once per watched
 * instance, then fans out in-process).
 */
export function createLiveFeed(redis: { url: string; publisher: Redis; prefix: string; logger: Logger } | undefined): LiveFeed {
  let subscriber: Redis | undefined;
  let eventTarget;
  if (redis) {
    // A subscribing connection cannot run other commands; it queues SUBSCRIBEs while Redis is away
    // and re-subscribes on reconnect.
    subscriber = createRedis(redis.url, redis.logger, 'live-feed', { subscriber: true });
    eventTarget = createRedisEventTarget<CustomEvent>({
      publishClient: loggingRejections(redis.publisher, redis.logger),
      subscribeClient: loggingRejections(subscriber, redis.logger),
    });
  } else {
    const local = new EventTarget();
    setMaxListeners(0, local);
    eventTarget = local;
  }
  const resumed = new Set<() => void>();
  if (subscriber) {
    let interrupted = false;
    subscriber.on('close', () => (interrupted = true));
    subscriber.on('ready', () => {
      if (!interrupted) return;
      interrupted = false;
      // ioredis subscribes its channels again as it gets ready; give that a moment before readers re-read.
      setTimeout(() => {
        for (const listener of resumed) listener();
      }, 200).unref();
    });
  }
  const pubsub = createPubSub<Topics>({ eventTarget, repeaterBuffer: new SlidingBuffer(SUBSCRIBER_BUFFER) });
  // Channel names carry the prefix so gateways sharing a Redis under different prefixes stay apart.
  const topic = (id: string) => `${redis?.prefix ?? ''}${id}`;

  return {
    publish(events) {
      // One topic per kind and instance (or tenant): a subscriber gets only what it asked for, without a filter stage.
      const messages = new Map<string, MessageEvent[]>();
      const received = new Map<string, ReceivedEvent[]>();
      const chats = new Map<string, ChatEvent[]>();
      // A chat or message named twice in one commit (a message's upsert and update) is read back once.
      const chatsNamed = new Set<string>();
      const add = <T>(batches: Map<string, T[]>, tenantId: string, event: T) => {
        const batch = batches.get(tenantId);
        if (batch) batch.push(event);
        else batches.set(tenantId, [event]);
      };
      for (const event of events) {
        if (event.kind === 'qr') pubsub.publish('qr', topic(event.instanceId), event);
        else if (event.kind === 'connection') pubsub.publish('connection', topic(event.instanceId), event);
        else if (event.kind === 'instance') pubsub.publish('instance', topic(event.tenantId), event);
        else if (event.kind === 'received') add(received, event.tenantId, event);
        else if (event.kind === 'chat') {
          const key = `${event.instanceId}|${event.chatId ?? ''}|${event.messageId ?? ''}|${event.deleted}`;
          if (!chatsNamed.has(key)) {
            chatsNamed.add(key);
            add(chats, event.tenantId, event);
          }
        }
        else add(messages, event.tenantId, event);
      }
      for (const [tenantId, batch] of messages) pubsub.publish('messages', topic(tenantId), batch);
      // A topic of its own: a status log does not wake for received messages, nor the reverse.
      for (const [tenantId, batch] of received) pubsub.publish('received', topic(`received:${tenantId}`), batch);
      for (const [tenantId, batch] of chats) pubsub.publish('chats', topic(`chats:${tenantId}`), batch);
    },
    subscribe<K extends InstanceEventKind>(instanceId: string, kind: K) {
      const events = kind === 'qr' ? pubsub.subscribe('qr', topic(instanceId)) : pubsub.subscribe('connection', topic(instanceId));
      // The branch above picks the topic of `kind`; TypeScript cannot narrow K through it.
      return events as AsyncIterableIterator<Extract<LiveEvent, { kind: K }>>;
    },
    subscribeTenant<K extends TenantEventKind>(tenantId: string, kind: K) {
      const events =
        kind === 'instance'
          ? pubsub.subscribe('instance', topic(tenantId))
          : kind === 'received'
            ? oneByOne(pubsub.subscribe('received', topic(`received:${tenantId}`)))
            : kind === 'chat'
              ? oneByOne(pubsub.subscribe('chats', topic(`chats:${tenantId}`)))
              : oneByOne(pubsub.subscribe('messages', topic(tenantId)));
      return events as AsyncIterableIterator<Extract<LiveEvent, { kind: K }>>;
    },
    onResumed(listener) {
      resumed.add(listener);
      return () => void resumed.delete(listener);
    },
    async attached() {
      if (!subscriber) return;
      // Redis answers a connection's commands in order: its PONG comes after every SUBSCRIBE sent
      // before it. While Redis is away this gives up after a while; onResumed covers the rest.
      let timer: NodeJS.Timeout | undefined;
      const later = new Promise<void>((resolve) => (timer = setTimeout(resolve, ATTACH_WAIT_MS)));
      await Promise.race([subscriber.ping().then(() => {}, () => {}), later]);
      clearTimeout(timer);
    },
    async close() {
      resumed.clear();
      subscriber?.disconnect();
    },
  };
}

/** The Redis event target drops the promises of PUBLISH/SUBSCRIBE; a failure is logged instead of going unhandled. */
function loggingRejections(client: Redis, logger: Logger): Redis {
  const guarded = new Set<PropertyKey>(['publish', 'subscribe', 'unsubscribe']);
  return new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (!guarded.has(property)) return value.bind(target);
      return (...args: unknown[]) =>
        (value.apply(target, args) as Promise<unknown>).catch((error: unknown) =>
          logger.warn({ err: { message: (error as Error).message }, command: String(property) }, 'live feed: redis command failed'),
        );
    },
  });
}

/**
 * The events of batches one at a time. Ending it ends the source at once, even while it waits for
 * a batch (an async generator would wait for the next one first, keeping the subscription open).
 */
function oneByOne<T>(batches: AsyncIterableIterator<T[]>): AsyncIterableIterator<T> {
  let pending: T[] = [];
  let next = 0;
  const iterator: AsyncIterableIterator<T> = {
    async next() {
      while (next >= pending.length) {
        const batch = await batches.next();
        if (batch.done) return { done: true, value: undefined };
        pending = batch.value;
        next = 0;
      }
      return { done: false, value: pending[next++]! };
    },
    async return() {
      pending = [];
      await batches.return?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
