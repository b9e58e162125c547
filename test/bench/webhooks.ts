/**
 * Webhook delivery in both modes: throughput from a backlog, and latency from event to first attempt
 * (docs/benchmarks.md, "Each benchmark in detail").
 * Usage: npm run bench:webhooks [-- --backlog 5000 --rate 100 --seconds 10]
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { connectedV1Instance } from '../factories/sandbox.js';
import { createTenant } from '../factories/tenants.js';
import { startTestGateway } from '../kit/gateway.js';
import { client } from '../helpers/http.js';
import { MODES } from '../kit/modes.js';

const { values } = parseArgs({
  options: { backlog: { type: 'string', default: '5000' }, rate: { type: 'string', default: '100' }, seconds: { type: 'string', default: '10' } },
});
const BACKLOG = Number(values.backlog);
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

// The receiver is a process of its own, as a tenant's would be; it reports each body's `text` (or a
// bare tick) back over IPC, stamped with its own arrival time relative to a shared clock start.
const RECEIVER = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    res.writeHead(200).end();
    let text = null;
    try { text = JSON.parse(body).data?.text ?? null; } catch {}
    process.send({ text, at: performance.timeOrigin + performance.now() });
  });
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));`;

async function run(mode: (typeof MODES)[number]) {
  let onBody: (body: { text: string | null; at: number }) => void = () => {};
  const receiver = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve) => receiver.once('message', (m: { port: number }) => resolve(m.port)));
  receiver.on('message', (m: { text: string | null; at: number }) => onBody(m));
  const url = `http://127.0.0.1:${port}/hook`;
  const clock = () => performance.timeOrigin + performance.now();
  const gw = await startTestGateway(mode, { env: { LOG_LEVEL: 'warn', WEBHOOK_ALLOW_INSECURE: 'true' } });
  try {
    const api = client(gw.url);
    const prisma = gw.gateway.infra.db.prisma;
    const tenant = await createTenant(gw.gateway, api, 'enterprise');
    const instance = await connectedV1Instance(api, tenant.liveKey, 'bench');
    await api.post(`/v1/chat/instances/${instance.id}/webhook`, { key: tenant.liveKey, body: { url, events: ['messages.upsert'] } });

    // Throughput: a backlog due now.
    const event = await prisma.outboxEvent.create({ data: { tenantId: tenant.tenantId, instanceId: instance.id, event: 'messages.upsert', data: {} } });
    const now = new Date();
    const backlog = await prisma.webhookDelivery.createManyAndReturn({
      data: Array.from({ length: BACKLOG }, (_, i) => ({
        instanceId: instance.id,
        eventId: event.id,
        event: 'messages.upsert',
        url,
        payload: JSON.stringify({ event: 'messages.upsert', instanceId: instance.id, data: { n: i } }),
        nextAttemptAt: now,
      })),
      select: { id: true },
    });
    let received = 0;
    const allIn = new Promise<void>((resolve) => (onBody = () => ++received === BACKLOG && resolve()));
    const started = clock();
    await gw.gateway.infra.deliveries.scheduled(backlog.map((d) => ({ id: d.id, at: now })));
    await allIn;
    const throughput = BACKLOG / ((clock() - started) / 1000);
    await gw.gateway.infra.deliveries.idle();

    // Latency: a steady stream of real events.
    const sentAt = new Map<string, number>();
    const latencies: number[] = [];
    onBody = ({ text, at }) => {
      const t = text && sentAt.get(text);
      if (t) latencies.push(at - t);
    };
    const total = RATE * SECONDS;
    const streamStart = performance.now();
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < total; i++) {
      const due = streamStart + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const text = `event ${i}`;
      sentAt.set(text, clock());
      writes.push(gw.gateway.services.engineEvents.inbound(instance.id, { networkMessageId: null, from: '5511900000001', type: 'text', text, location: null, pushName: null }));
    }
    await Promise.all(writes);
    const deadline = Date.now() + 30_000;
    while (latencies.length < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    latencies.sort((a, b) => a - b);
    return {
      mode: mode.name,
      'backlog deliveries/s': Math.round(throughput),
      [`first attempt p50 ms (${RATE} events/s)`]: Math.round(percentile(latencies, 50)),
      'first attempt p99 ms': Math.round(percentile(latencies, 99)),
      'events delivered': `${latencies.length}/${total}`,
    };
  } finally {
    await gw.close();
    receiver.kill();
  }
}

const rows = [];
for (const mode of MODES) rows.push(await run(mode));
console.log(`backlog of ${BACKLOG} deliveries; then ${RATE} events/s for ${SECONDS} s through the inbound path:`);
console.table(rows);
process.exit(0);
