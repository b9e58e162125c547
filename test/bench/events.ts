/**
 * Event streams against RabbitMQ and NATS JetStream: a backlog's publication rate, and the send path's
 * cost with brokers configured (docs/benchmarks.md). Usage: npm run bench:events [-- --backlog 20000
 * --duration 10 --connections 50 --rounds 2 --mode PostgreSQL --detail]
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { connect as amqpConnect } from 'amqplib';
import { webhookPayload } from '../../src/domain/events/envelopes.js';
import { connectedV1Instance, sleep } from '../factories/sandbox.js';
import { createTenant } from '../factories/tenants.js';
import { AMQP_URL, brokerEnv, brokerNames, dropBrokerNames } from '../kit/worlds/brokers.js';
import { startTestGateway } from '../kit/gateway.js';
import { client } from '../helpers/http.js';
import { MODES } from '../kit/modes.js';

const { values } = parseArgs({
  options: {
    backlog: { type: 'string', default: '20000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '2' },
    mode: { type: 'string', default: '' },
    /** Also measure one broker alone and brokers configured but unreachable (what storing costs apart from publishing). */
    detail: { type: 'boolean', default: false },
  },
});
const BACKLOG = Number(values.backlog);
const run = promisify(execFile);
const modes = MODES.filter((m) => m.name.includes(values.mode!));

type Broker = 'amqp' | 'nats';

/** Events/s publishing a backlog of BACKLOG events to `broker` alone. */
async function publication(mode: (typeof MODES)[number], broker: Broker): Promise<number> {
  const names = brokerNames();
  const env = brokerEnv(names);
  const only: Record<string, string> = broker === 'amqp'
    ? { EVENTS_AMQP_URL: env.EVENTS_AMQP_URL!, EVENTS_AMQP_EXCHANGE: env.EVENTS_AMQP_EXCHANGE! }
    : { EVENTS_NATS_URL: env.EVENTS_NATS_URL!, EVENTS_NATS_STREAM: env.EVENTS_NATS_STREAM!, EVENTS_NATS_SUBJECT_PREFIX: env.EVENTS_NATS_SUBJECT_PREFIX! };
  // RabbitMQ: a durable queue bound to everything, so persistent messages are really written.
  const amqp = await amqpConnect(AMQP_URL);
  const channel = await amqp.createChannel();
  const queue = `bench.${names.exchange}`;
  if (broker === 'amqp') {
    await channel.assertExchange(names.exchange, 'topic', { durable: true });
    await channel.assertQueue(queue, { durable: true });
    await channel.bindQueue(queue, names.exchange, '#');
  }
  const gw = await startTestGateway(mode, { env: { LOG_LEVEL: 'warn', ...only } });
  try {
    const api = client(gw.url);
    const tenant = await createTenant(gw.gateway, api, 'enterprise');
    const instance = await connectedV1Instance(api, tenant.liveKey, 'bench');
    const connection = gw.gateway.infra.eventStreams.brokers[0]!;
    await waitFor(() => connection.isUp());
    const prisma = gw.gateway.infra.db.prisma;
    const published = async () => {
      const metric = await gw.gateway.infra.metrics.registry.getSingleMetric('gateway_events_published_total')!.get();
      return metric.values.find((v) => v.labels.broker === broker)?.value ?? 0;
    };
    await waitFor(async () => (await prisma.outboxEvent.count({ where: { streams: { has: broker } } })) === 0);
    const before = await published();
    // The backlog, as the outbox keeps it (a message event of 200-odd bytes each).
    const now = new Date();
    for (let start = 0; start < BACKLOG; start += 2000) {
      await prisma.outboxEvent.createMany({
        data: Array.from({ length: Math.min(2000, BACKLOG - start) }, (_, n) => {
          const data = { messageId: randomUUID(), from: '5511900000001', to: '5511900000002', fromMe: false, type: 'text', text: `backlog ${start + n}`, timestamp: now.toISOString() };
          return {
            tenantId: tenant.tenantId,
            instanceId: instance.id,
            event: 'messages.upsert',
            data,
            createdAt: now,
            deliveryId: randomUUID(),
            payload: webhookPayload({ id: instance.id, name: 'bench', variant: 'v1' }, 'messages.upsert', data, now, 'sandbox.chat'),
            streams: [broker],
          };
        }),
      });
    }
    const started = performance.now();
    gw.gateway.infra.eventStreams.committed(now);
    await waitFor(async () => (await published()) - before >= BACKLOG, 20);
    return BACKLOG / ((performance.now() - started) / 1000);
  } finally {
    await gw.close();
    if (broker === 'amqp') await channel.deleteQueue(queue).catch(() => {});
    await amqp.close();
    await dropBrokerNames(names);
  }
}

async function waitFor(check: () => boolean | Promise<boolean>, everyMs = 100, timeoutMs = 300_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('benchmark condition not met in time');
    await sleep(everyMs);
  }
}

type Variant = 'off' | 'on' | 'amqp' | 'nats' | 'unreachable';
const cpuPerSend: Record<Variant, number[]> = { off: [], on: [], amqp: [], nats: [], unreachable: [] };
/** Share of one core the broker servers on this machine (RabbitMQ's beam.smp, nats-server) used during a round. */
const brokerCpu: Record<Variant, number[]> = { off: [], on: [], amqp: [], nats: [], unreachable: [] };

/** CPU seconds used so far by the local broker server processes (Linux /proc; 0 where there is none). */
function brokerServerCpuSeconds(): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (name !== 'beam.smp' && name !== 'nats-server') continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks / 100;
}

/** The broker settings of a variant: none, both, one, or both pointing at a closed port (events kept, not published). */
function variantEnv(variant: Variant, names: ReturnType<typeof brokerNames>): Record<string, string> {
  const env = brokerEnv(names);
  if (variant === 'off') return {};
  if (variant === 'amqp') return { EVENTS_AMQP_URL: env.EVENTS_AMQP_URL!, EVENTS_AMQP_EXCHANGE: env.EVENTS_AMQP_EXCHANGE! };
  if (variant === 'nats') return { EVENTS_NATS_URL: env.EVENTS_NATS_URL!, EVENTS_NATS_STREAM: env.EVENTS_NATS_STREAM!, EVENTS_NATS_SUBJECT_PREFIX: env.EVENTS_NATS_SUBJECT_PREFIX! };
  if (variant === 'unreachable') return { ...env, EVENTS_AMQP_URL: 'amqp://127.0.0.1:1', EVENTS_NATS_URL: 'nats://127.0.0.1:1' };
  return env;
}

/** Accepted sends/s on a gateway in one of those variants. */
async function sendRate(mode: (typeof MODES)[number], variant: Variant): Promise<number> {
  const names = brokerNames();
  const brokers = variant !== 'off' && variant !== 'unreachable';
  const gw = await startTestGateway(mode, { env: { LOG_LEVEL: 'error', ...variantEnv(variant, names) }, infra: { rateLimiting: false } });
  try {
    const api = client(gw.url);
    const tenant = await createTenant(gw.gateway, api, 'enterprise');
    await connectedV1Instance(api, tenant.liveKey, 'bench line');
    if (brokers) await waitFor(() => gw.gateway.infra.eventStreams.brokers.every((b) => b.isUp()));
    const cpuBefore = process.cpuUsage();
    const brokersBefore = brokerServerCpuSeconds();
    const { stdout } = await run(
      join('node_modules', '.bin', 'autocannon'),
      [
        '--json',
        '-d', values.duration!,
        '-c', values.connections!,
        '-m', 'POST',
        '-H', `authorization=Bearer ${tenant.liveKey}`,
        '-H', 'content-type=application/json',
        '-b', JSON.stringify({ to: '5511987654321', text: 'benchmark message' }),
        `${gw.url}/v1/messages/send`,
      ],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    const result = JSON.parse(stdout);
    const cpu = process.cpuUsage(cpuBefore);
    // The gateway runs in this process: its CPU time per accepted send (publication included).
    cpuPerSend[variant].push(((cpu.user + cpu.system) / 1000) / Math.max(1, result['2xx'] as number));
    brokerCpu[variant].push(((brokerServerCpuSeconds() - brokersBefore) / Number(values.duration)) * 100);
    return (result['2xx'] as number) / Number(values.duration);
  } finally {
    await gw.close();
    if (variant !== 'off') await dropBrokerNames(names);
  }
}

const rows = [];
for (const mode of modes) {
  const amqp = await publication(mode, 'amqp');
  const nats = await publication(mode, 'nats');
  const off: number[] = [];
  const on: number[] = [];
  const detail: Record<string, number[]> = { amqp: [], nats: [], unreachable: [] };
  for (let round = 0; round < Number(values.rounds); round++) {
    off.push(await sendRate(mode, 'off'));
    on.push(await sendRate(mode, 'on'));
    if (values.detail) for (const variant of ['amqp', 'nats', 'unreachable'] as const) detail[variant]!.push(await sendRate(mode, variant));
  }
  const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
  if (values.detail) {
    const ms = (v: Variant) => mean(cpuPerSend[v]).toFixed(3);
    const servers = (v: Variant) => `${mean(brokerCpu[v]).toFixed(0)} %`;
    console.log(mode.name, 'gateway CPU ms per send: off', ms('off'), 'both', ms('on'), 'RabbitMQ only', ms('amqp'), 'NATS only', ms('nats'), 'kept, not published', ms('unreachable'));
    console.log(mode.name, 'broker servers, % of a core: off', servers('off'), 'both', servers('on'), 'RabbitMQ only', servers('amqp'), 'NATS only', servers('nats'));
    for (const list of [...Object.values(cpuPerSend), ...Object.values(brokerCpu)]) list.length = 0;
    console.log(mode.name, 'sends/s: off', Math.round(mean(off)), 'both', Math.round(mean(on)), 'RabbitMQ only', Math.round(mean(detail.amqp!)), 'NATS only', Math.round(mean(detail.nats!)), 'kept, not published', Math.round(mean(detail.unreachable!)));
  }
  rows.push({
    mode: mode.name,
    'RabbitMQ events/s': Math.round(amqp),
    'NATS events/s': Math.round(nats),
    'sends/s, brokers off': Math.round(mean(off)),
    'sends/s, both on': Math.round(mean(on)),
    'on/off': Number((mean(on) / mean(off)).toFixed(3)),
  });
}
console.log(`publication from a backlog of ${BACKLOG} events per broker; send path ${values.connections} connections × ${values.duration} s, ${values.rounds} alternating rounds:`);
console.table(rows);
process.exit(0);
