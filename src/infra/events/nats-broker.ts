import type { Msg, NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '../logger.js';
import { type Broker, reconnectDelayMs, redactedUrl } from './broker.js';

/** How long a batch may wait for the stream's acks before it counts as not published. */
const ACK_TIMEOUT_MS = 5000;

const text = new TextDecoder();

/** The client, loaded when a broker is first opened: a gateway without EVENTS_NATS_URL never loads it (a faster start). */
const client = async () => ({ ...(await import('@nats-io/transport-node')), jetstreamManager: (await import('@nats-io/jetstream')).jetstreamManager });
type Client = Awaited<ReturnType<typeof client>>;

/** Why the stream did not store a message, from its answer to the publish (undefined: stored). */
function refusalOf(msg: Msg): string | undefined {
  // No stream listens on the subject: the server answers with status 503 and no body.
  if (msg.headers?.code === 503) return 'no responders';
  if (msg.data.length === 0) return `status ${msg.headers?.code ?? 'unknown'}`;
  try {
    const ack = JSON.parse(text.decode(msg.data)) as { stream?: string; error?: { description?: string } };
    if (ack.error) return ack.error.description ?? 'refused';
    return ack.stream ? undefined : 'invalid ack';
  } catch {
    return 'unreadable ack';
  }
}

/**
 * NATS JetStream through the nats.js client: stream `stream` over `<prefix>.>`, each event published
 * to `<prefix>.<tenantId>.<instanceId>.<event>` with `Nats-Msg-Id` = its delivery id (the stream
 * drops a repeat within its duplicate window) and counted only once the stream acknowledged it.
 */
export function createNatsBroker(options: { url: string; stream: string; subjectPrefix: string; logger: Logger }): Broker {
  const { url, stream, subjectPrefix } = options;
  const subjects = `${subjectPrefix}.>`;
  const logger = options.logger.child({ broker: 'nats' });
  let connection: NatsConnection | undefined;
  let up = false;
  /** The connection reaches a server now (between a disconnect and the next reconnect it does not). */
  let linked = false;
  let wasUp = false;
  let declared = false;
  let failures = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const listeners: Array<() => void> = [];
  const downListeners: Array<() => void> = [];
  /** Set before the first connection; what publishes uses it only once connected. */
  let nats: Client | undefined;

  /** Creates the stream, or adds our subjects to it. */
  async function declare(nc: NatsConnection) {
    const manager = await nats!.jetstreamManager(nc);
    try {
      const info = await manager.streams.info(stream);
      if (!info.config.subjects?.includes(subjects)) {
        await manager.streams.update(stream, { ...info.config, subjects: [...(info.config.subjects ?? []), subjects] });
      }
    } catch (error) {
      if (!/stream not found/i.test((error as Error).message)) throw error;
      await manager.streams.add({ name: stream, subjects: [subjects] });
    }
    declared = true;
  }

  /** Usable again (connected and the stream declared): tell the stream loop. */
  async function ready(nc: NatsConnection) {
    try {
      if (!declared) await declare(nc);
      // A retry of an earlier failed declare can come after the server went away: up only while linked.
      if (stopped || connection !== nc || !linked) return;
      const was = up;
      up = true;
      failures = 0;
      if (!was) logger.info({ stream, subjects, url: redactedUrl(url) }, wasUp ? 'event broker back (NATS)' : 'event broker connected (NATS)');
      wasUp = true;
      for (const listener of listeners) listener();
    } catch (error) {
      logger.warn({ err: { message: (error as Error).message } }, 'NATS stream could not be declared; retrying');
      failures += 1;
      clearTimeout(timer);
      timer = setTimeout(() => void ready(nc), reconnectDelayMs(failures));
      timer.unref();
    }
  }

  function down(reason: string) {
    if (!up) return;
    up = false;
    logger.warn({ reason }, 'event broker down (NATS); events wait in the outbox');
    for (const listener of downListeners) listener();
  }

  async function watch(nc: NatsConnection) {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect') {
        linked = false;
        down('disconnected');
      }
      // A restarted server may have lost the stream (memory storage, a new server): declare it again.
      if (status.type === 'reconnect') {
        linked = true;
        declared = false;
        void ready(nc);
      }
    }
  }

  async function open() {
    // The client keeps trying before its first connection instead of failing: say so once, naming the variable.
    const unreachable = setTimeout(() => logger.warn({ url: redactedUrl(url) }, 'EVENTS_NATS_URL: cannot reach NATS yet; retrying'), 5000);
    unreachable.unref();
    try {
      // Keeps trying for ever, also before the first connection: a broker down at start delays events, never the gateway.
      nats ??= await client();
      const nc = await nats.connect({
        servers: url,
        name: `messaging-gateway events ${process.pid}`,
        waitOnFirstConnect: true,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 500,
        // Otherwise every request (declaring the stream) allocates an Error for its stack.
        noAsyncTraces: true,
      });
      clearTimeout(unreachable);
      if (stopped) return void nc.close().catch(() => {});
      connection = nc;
      linked = true;
      void watch(nc).catch(() => {});
      void nc.closed().then(() => {
        down('connection closed');
        if (!stopped && connection === nc) {
          connection = undefined;
          failures += 1;
          timer = setTimeout(() => void open(), reconnectDelayMs(failures));
          timer.unref();
        }
      });
      await ready(nc);
    } catch (error) {
      clearTimeout(unreachable);
      logger.warn({ url: redactedUrl(url), err: { message: (error as Error).message } }, 'EVENTS_NATS_URL: cannot connect to NATS; retrying');
      failures += 1;
      if (!stopped) {
        timer = setTimeout(() => void open(), reconnectDelayMs(failures));
        timer.unref();
      }
    }
  }

  return {
    name: 'nats',
    isUp: () => up,
    async publish(messages) {
      const nc = connection;
      if (!nc || !up || messages.length === 0) return 0;
      // Published as plain messages whose reply subjects are one inbox of the batch's own, the stream's
      // acks gathered there: what JetStream's publish does per message (a request, a timer and a
      // promise each) costs twice the CPU. The connection keeps the messages in order.
      const inbox = nats!.createInbox();
      const acked: Array<boolean | undefined> = new Array(messages.length);
      let answered = 0;
      /** Messages handed to the connection (all of them unless it failed midway). */
      let expected = messages.length;
      let refusal: string | undefined;
      let allAnswered!: () => void;
      const answers = new Promise<void>((resolve) => (allAnswered = resolve));
      const subscription = nc.subscribe(`${inbox}.*`, {
        callback: (_error, msg) => {
          const n = Number(msg.subject.slice(inbox.length + 1));
          if (!(n >= 0 && n < messages.length) || acked[n] !== undefined) return;
          const refused = refusalOf(msg);
          acked[n] = refused === undefined;
          if (refused !== undefined) refusal ??= refused;
          if (++answered === expected) allAnswered();
        },
      });
      let handed = 0;
      try {
        for (const m of messages) {
          const h = nats!.headers();
          for (const [name, value] of Object.entries(m.headers)) h.set(name, value);
          h.set('Content-Type', 'application/json');
          h.set('Nats-Msg-Id', m.id);
          nc.publish(`${subjectPrefix}.${m.tenantId}.${m.instanceId}.${m.event}`, m.body, { reply: `${inbox}.${handed}`, headers: h });
          handed += 1;
        }
      } catch (error) {
        // The connection closed or is draining: what was sent may still be acked; the rest waits for the next pass.
        refusal ??= (error as Error).message;
      }
      // No answer can have arrived yet (nothing was awaited): the count to wait for is final before any does.
      expected = handed;
      if (expected === 0) allAnswered();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([answers, new Promise<void>((resolve) => (timer = setTimeout(resolve, ACK_TIMEOUT_MS)))]);
      clearTimeout(timer);
      try {
        subscription.unsubscribe();
      } catch {
        // the connection is gone, and the subscription with it
      }
      const confirmed = acked.findIndex((ok) => ok !== true);
      if (confirmed === -1) return messages.length;
      logger.debug({ reason: refusal ?? 'no ack in time' }, 'NATS publish not acknowledged');
      // The stream may be gone (deleted, a server without it): declare it before the next try. A
      // message in flight while the stream was being deleted is answered by nobody, not refused, so
      // silence is checked the same way (the declare is a look when the stream is there).
      if ((refusal === undefined || /no responders|stream not found/i.test(refusal)) && connection) {
        declared = false;
        void ready(connection);
      }
      return confirmed;
    },
    onUp: (listener) => void listeners.push(listener),
    onDown: (listener) => void downListeners.push(listener),
    start() {
      stopped = false;
      void open();
    },
    async close() {
      stopped = true;
      up = false;
      clearTimeout(timer);
      const closing = connection;
      connection = undefined;
      await closing?.close().catch(() => {});
    },
  };
}
