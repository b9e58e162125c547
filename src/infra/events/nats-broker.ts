import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '../logger.js';
import { type Broker, reconnectDelayMs, redactedUrl } from './broker.js';

/** How long a batch may wait for the stream's acks before it counts as not published. */
const ACK_TIMEOUT_MS = 5000;

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
  let js: JetStreamClient | undefined;
  let up = false;
  let wasUp = false;
  let declared = false;
  let failures = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const listeners: Array<() => void> = [];
  const downListeners: Array<() => void> = [];

  /** Creates the stream, or adds our subjects to it. */
  async function declare(nc: NatsConnection) {
    const manager = await jetstreamManager(nc);
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
      if (stopped || connection !== nc) return;
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
      if (status.type === 'disconnect') down('disconnected');
      // A restarted server may have lost the stream (memory storage, a new server): declare it again.
      if (status.type === 'reconnect') {
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
      const nc = await connect({
        servers: url,
        name: `messaging-gateway events ${process.pid}`,
        waitOnFirstConnect: true,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 500,
        // Otherwise every request (each publish waits for an ack) allocates an Error for its stack:
        // a tenth of the gateway's CPU under load.
        noAsyncTraces: true,
      });
      clearTimeout(unreachable);
      if (stopped) return void nc.close().catch(() => {});
      connection = nc;
      js = jetstream(nc, { timeout: ACK_TIMEOUT_MS });
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
      const client = js;
      if (!client || !up) return 0;
      // Pipelined: every publish is sent before the first ack is awaited; the connection keeps their order.
      const acks = messages.map((m) => {
        const h = headers();
        for (const [name, value] of Object.entries(m.headers)) h.set(name, value);
        h.set('Content-Type', 'application/json');
        return client.publish(`${subjectPrefix}.${m.tenantId}.${m.instanceId}.${m.event}`, m.body, { msgID: m.id, headers: h, timeout: ACK_TIMEOUT_MS });
      });
      const settled = await Promise.allSettled(acks);
      const firstFailure = settled.findIndex((s) => s.status === 'rejected');
      if (firstFailure !== -1) {
        const reason = (settled[firstFailure] as PromiseRejectedResult).reason as Error;
        logger.debug({ err: { message: reason.message } }, 'NATS publish not acknowledged');
        // The stream may be gone (deleted, a server without it): declare it before the next try.
        if (/no responders|stream not found/i.test(reason.message) && connection) {
          declared = false;
          void ready(connection);
        }
        return firstFailure;
      }
      return settled.length;
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
      js = undefined;
      await closing?.close().catch(() => {});
    },
  };
}
