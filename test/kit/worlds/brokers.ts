import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createConnection, createServer, type Server } from 'node:net';
import { promisify } from 'node:util';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect as natsConnect } from '@nats-io/transport-node';
import { connect as amqpConnect } from 'amqplib';
import { freePort } from '../process.js';
import { startTcpProxy } from '../../helpers/tcp-proxy.js';

export const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
export const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/** One event as a consumer received it, from either broker. */
export interface Consumed {
  /** Routing key (RabbitMQ) or subject (NATS). */
  key: string;
  body: string;
  headers: Record<string, string>;
  /** AMQP properties messageId / type / contentType, or the NATS Nats-Msg-Id. */
  id: string;
  type?: string;
  contentType?: string;
}

/** Names of a test's own: an exchange, a stream and a subject prefix no other run uses. */
export function brokerNames() {
  const tag = randomBytes(4).toString('hex');
  return { exchange: `mgwtest.${tag}`, stream: `MGWTEST_${tag}`, prefix: `mgwtest${tag}` };
}

/** The environment that points a gateway at both brokers under those names. */
export function brokerEnv(names: ReturnType<typeof brokerNames>): Record<string, string> {
  return {
    EVENTS_AMQP_URL: AMQP_URL,
    EVENTS_AMQP_EXCHANGE: names.exchange,
    EVENTS_NATS_URL: NATS_URL,
    EVENTS_NATS_STREAM: names.stream,
    EVENTS_NATS_SUBJECT_PREFIX: names.prefix,
  };
}

const text = (value: unknown) => (Buffer.isBuffer(value) ? value.toString('utf8') : String(value));

/**
 * A RabbitMQ consumer as a tenant's internal tool would run it: its own queue, bound to the exchange
 * (declared here too, so binding before the gateway starts works) with `bindingKey`.
 */
export async function amqpConsumer(exchange: string, bindingKey: string) {
  const connection = await amqpConnect(AMQP_URL);
  const channel = await connection.createChannel();
  await channel.assertExchange(exchange, 'topic', { durable: true });
  const { queue } = await channel.assertQueue('', { exclusive: true });
  await channel.bindQueue(queue, exchange, bindingKey);
  const received: Consumed[] = [];
  await channel.consume(
    queue,
    (message) => {
      if (!message) return;
      received.push({
        key: message.fields.routingKey,
        body: message.content.toString('utf8'),
        headers: Object.fromEntries(Object.entries(message.properties.headers ?? {}).map(([k, v]) => [k, text(v)])),
        id: String(message.properties.messageId),
        type: message.properties.type as string | undefined,
        contentType: message.properties.contentType as string | undefined,
      });
    },
    { noAck: true },
  );
  return {
    received,
    async close() {
      await connection.close().catch(() => {});
    },
  };
}

/** Reads a JetStream stream from its start (an ordered consumer), keeping the messages on `filter`. */
export async function natsConsumer(stream: string, filter: string, url = NATS_URL) {
  const connection = await natsConnect({ servers: url, maxReconnectAttempts: -1, reconnectTimeWait: 250 });
  const received: Consumed[] = [];
  let stopped = false;
  const js = jetstream(connection);
  const reading = (async () => {
    // The stream may not exist yet: the gateway creates it once it connects.
    const manager = await jetstreamManager(connection);
    for (;;) {
      if (stopped) return;
      try {
        await manager.streams.info(stream);
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const consumer = await js.consumers.get(stream, { filter_subjects: filter });
    const messages = await consumer.consume();
    for await (const message of messages) {
      const headers: Record<string, string> = {};
      for (const [name, values] of message.headers ?? []) headers[name] = values[0]!;
      received.push({ key: message.subject, body: message.string(), headers, id: headers['Nats-Msg-Id']!, contentType: headers['Content-Type'] });
      if (stopped) break;
    }
  })().catch((error: unknown) => {
    if (!stopped) console.error('NATS test consumer stopped:', error);
  });
  return {
    received,
    async close() {
      stopped = true;
      await connection.close().catch(() => {});
      await reading;
    },
  };
}

/** Removes a test's exchange and stream. */
export async function dropBrokerNames(names: ReturnType<typeof brokerNames>) {
  const connection = await amqpConnect(AMQP_URL);
  const channel = await connection.createChannel();
  await channel.deleteExchange(names.exchange).catch(() => {});
  await connection.close().catch(() => {});
  const nc = await natsConnect({ servers: NATS_URL });
  const manager = await jetstreamManager(nc);
  await manager.streams.delete(names.stream).catch(() => {});
  await nc.close();
}

const run = promisify(execFile);

/** Closes, from the server's side, every RabbitMQ connection the gateway in process `pid` opened for its events. */
export async function closeGatewayAmqpConnections(pid: number): Promise<number> {
  const { stdout } = await run('rabbitmqctl', ['-q', 'list_connections', 'pid', 'client_properties'], { timeout: 30_000 });
  const pids = stdout
    .split('\n')
    .filter((line) => line.includes(`messaging-gateway events ${pid}"`))
    .map((line) => line.split('\t')[0]!.trim());
  for (const connection of pids) await run('rabbitmqctl', ['-q', 'close_connection', connection, 'test: broker outage'], { timeout: 30_000 });
  return pids.length;
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

async function waitForPort(port: number, open: boolean) {
  const deadline = Date.now() + 30_000;
  while ((await portOpen(port)) !== open) {
    if (Date.now() > deadline) throw new Error(`port ${port} did not ${open ? 'open' : 'close'}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A nats-server with JetStream of a test's own, to stop and start at will. While stopped, a listener
 * that hangs up keeps its port, so the gateway never reconnects to another file's server there.
 */
export async function privateNats(port: number) {
  const dir = mkdtempSync(join(tmpdir(), 'mgw-nats-'));
  let child: ChildProcess | undefined;
  let holder: Server | undefined;
  const server = {
    url: `nats://127.0.0.1:${port}`,
    async start() {
      if (child) return;
      if (holder) {
        await new Promise((resolve) => holder!.close(resolve));
        holder = undefined;
      }
      child = spawn('/usr/sbin/nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir], { stdio: 'ignore' });
      await waitForPort(port, true);
    },
    /** Stops it (SIGTERM, then SIGKILL) and holds its port; its streams stay on disk for the next start. */
    async stop(options: { holdPort?: boolean } = {}) {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      const exited = once(running, 'exit');
      running.kill('SIGTERM');
      const timer = setTimeout(() => running.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      if (options.holdPort === false) return waitForPort(port, false);
      holder = createServer((socket) => socket.destroy());
      await new Promise<void>((resolve, reject) => {
        holder!.once('error', reject);
        holder!.listen(port, '127.0.0.1', resolve);
      });
    },
    async close() {
      await server.stop({ holdPort: false });
      if (holder) await new Promise((resolve) => holder!.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}

/**
 * Brokers a suite can take away from its gateway alone: a NATS of its own (`nats.stop()`/`start()`)
 * and RabbitMQ behind a proxy (`rabbit.cut()`/`restore()`). `env` points a gateway at them; `close` ends both.
 */
export async function brokersToCut() {
  const names = brokerNames();
  const nats = await privateNats(await freePort());
  const target = new URL(AMQP_URL);
  const rabbit = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5672) });
  const viaProxy = new URL(AMQP_URL);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(rabbit.port);
  return {
    names,
    nats,
    rabbit,
    env: { ...brokerEnv(names), EVENTS_NATS_URL: nats.url, EVENTS_AMQP_URL: viaProxy.toString() },
    async close() {
      await rabbit.close();
      await dropBrokerNames(names);
      await nats.close();
    },
  };
}
