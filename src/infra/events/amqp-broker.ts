import type { ChannelModel, ConfirmChannel } from 'amqplib';
import { once } from 'node:events';
import type { Logger } from '../logger.js';
import { type Broker, type BrokerMessage, reconnectDelayMs, redactedUrl } from './broker.js';

/** How long a batch may wait for the broker's confirms before it counts as not published. */
const CONFIRM_TIMEOUT_MS = 5000;

/**
 * RabbitMQ through `amqplib`: a durable topic exchange, persistent messages with routing key
 * `<tenantId>.<instanceId>.<event>`, on a confirm channel (a message counts as published once the
 * broker confirmed it, i.e. it is on disk in every durable queue bound to it).
 */
export function createAmqpBroker(options: { url: string; exchange: string; logger: Logger }): Broker {
  const { url, exchange } = options;
  const logger = options.logger.child({ broker: 'amqp' });
  let connection: ChannelModel | undefined;
  let channel: ConfirmChannel | undefined;
  let up = false;
  let wasUp = false;
  let failures = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const listeners: Array<() => void> = [];
  const downListeners: Array<() => void> = [];

  function down(reason: string) {
    const was = up;
    up = false;
    channel = undefined;
    const closing = connection;
    connection = undefined;
    closing?.close().catch(() => {});
    if (was) {
      logger.warn({ reason }, 'event broker down (RabbitMQ); events wait in the outbox');
      for (const listener of downListeners) listener();
    }
    if (!stopped) retry();
  }

  function retry() {
    clearTimeout(timer);
    failures += 1;
    timer = setTimeout(() => void open(), reconnectDelayMs(failures));
    timer.unref();
  }

  async function open() {
    if (stopped || connection) return;
    try {
      // The client is loaded on first use: a gateway without EVENTS_AMQP_URL never loads it (a faster start).
      const { connect } = await import('amqplib');
      const opened = await connect(url, { clientProperties: { connection_name: `messaging-gateway events ${process.pid}` } });
      connection = opened;
      opened.on('error', () => {});
      opened.on('close', () => connection === opened && down('connection closed'));
      const confirm = await opened.createConfirmChannel();
      confirm.on('error', () => {});
      confirm.on('close', () => connection === opened && down('channel closed'));
      await confirm.assertExchange(exchange, 'topic', { durable: true });
      if (stopped) return void opened.close().catch(() => {});
      channel = confirm;
      up = true;
      failures = 0;
      logger.info({ exchange, url: redactedUrl(url) }, wasUp ? 'event broker back (RabbitMQ)' : 'event broker connected (RabbitMQ)');
      wasUp = true;
      for (const listener of listeners) listener();
    } catch (error) {
      const message = (error as Error).message;
      if (failures === 0) logger.warn({ url: redactedUrl(url), err: { message } }, 'EVENTS_AMQP_URL: cannot reach RabbitMQ; retrying');
      const opened = connection;
      connection = undefined;
      opened?.close().catch(() => {});
      if (!stopped) retry();
    }
  }

  /** Sends one message; `confirmed` settles with the broker's confirm, `full` says the channel's buffer is full. */
  function send(ch: ConfirmChannel, m: BrokerMessage): { confirmed: Promise<void>; full: boolean } {
    let full = false;
    const confirmed = new Promise<void>((resolve, reject) => {
      full = !ch.publish(
        exchange,
        `${m.tenantId}.${m.instanceId}.${m.event}`,
        m.body,
        { persistent: true, messageId: m.id, type: m.event, contentType: 'application/json', headers: m.headers },
        (error) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve()),
      );
    });
    return { confirmed, full };
  }

  /** Waits for the channel's buffer to drain: true, or false if the channel closed first. */
  async function drained(ch: ConfirmChannel): Promise<boolean> {
    const stop = new AbortController();
    try {
      return await Promise.race([once(ch, 'drain', { signal: stop.signal }).then(() => true), once(ch, 'close', { signal: stop.signal }).then(() => false)]);
    } finally {
      stop.abort();
    }
  }

  return {
    name: 'amqp',
    isUp: () => up,
    async publish(messages) {
      const ch = channel;
      if (!ch || !up) return 0;
      const confirms: Promise<void>[] = [];
      for (const message of messages) {
        const sent = send(ch, message);
        confirms.push(sent.confirmed);
        // The socket's buffer is full: go on once it drains (or stop if the channel closes meanwhile).
        if (sent.full && !(await drained(ch))) break;
      }
      let timeout: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timeout = setTimeout(() => resolve('late'), CONFIRM_TIMEOUT_MS)));
      const settled = await Promise.race([Promise.allSettled(confirms), late]);
      clearTimeout(timeout);
      if (settled === 'late') {
        down('no confirms within 5 s');
        return 0;
      }
      const firstFailure = settled.findIndex((s) => s.status === 'rejected');
      return firstFailure === -1 ? settled.length : firstFailure;
    },
    onUp: (listener) => void listeners.push(listener),
    onDown: (listener) => void downListeners.push(listener),
    start() {
      stopped = false;
      void open();
    },
    async close() {
      stopped = true;
      clearTimeout(timer);
      up = false;
      const closing = connection;
      connection = undefined;
      channel = undefined;
      await closing?.close().catch(() => {});
    },
  };
}
