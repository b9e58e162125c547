/**
 * Webhook delivery: deliveries per second to a local receiver and the time from an event to its
 * first delivery attempt (p50, p99), in both running modes. Events come through the real path
 * (an inbound message: message row, outbox event and delivery in one transaction), produced by
 * 50 concurrent writers. Usage: npm run bench:webhooks [-- --events 3000]
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { createTenant } from '../factories/tenants.js';
import { connectedV1Instance } from '../factories/sandbox.js';
import { startTestGateway } from '../helpers/gateway.js';
import { client } from '../helpers/http.js';
import { MODES } from '../helpers/modes.js';

const { values } = parseArgs({ options: { events: { type: 'string', default: '3000' } } });
const EVENTS = Number(values.events);
const WRITERS = 50;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function run(mode: (typeof MODES)[number]) {
  const createdAt = new Map<string, number>();
  const latencies: number[] = [];
  let first = 0;
  let last = 0;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      res.writeHead(200).end();
      const text = JSON.parse(body).data?.text as string | undefined;
      const started = text && createdAt.get(text);
      if (!started) return;
      const now = performance.now();
      first ||= now;
      last = now;
      latencies.push(now - started);
      createdAt.delete(text);
      if (latencies.length === EVENTS) done();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const gw = await startTestGateway(mode, { env: { LOG_LEVEL: 'warn', WEBHOOK_ALLOW_INSECURE: 'true' } });
  try {
    const api = client(gw.url);
    const tenant = await createTenant(gw.gateway, api, 'enterprise');
    const instance = await connectedV1Instance(api, tenant.liveKey, 'bench');
    await api.post(`/v1/chat/instances/${instance.id}/webhook`, { key: tenant.liveKey, body: { url, events: ['messages.upsert'] } });

    const produceStart = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: WRITERS }, async () => {
        while (next < EVENTS) {
          const text = `bench ${next++}`;
          createdAt.set(text, performance.now());
          await gw.gateway.services.engineEvents.inbound(instance.phone, { from: '5511900000001', type: 'text', text, location: null, pushName: null });
        }
      }),
    );
    const produceSeconds = (performance.now() - produceStart) / 1000;
    await Promise.race([finished, new Promise((r) => setTimeout(r, 120_000))]);
    latencies.sort((a, b) => a - b);
    return {
      mode: mode.name,
      events: EVENTS,
      delivered: latencies.length,
      'events/s produced': Math.round(EVENTS / produceSeconds),
      'deliveries/s': Math.round(latencies.length / ((last - first) / 1000 || 1)),
      'first attempt p50 ms': Math.round(percentile(latencies, 50)),
      'first attempt p99 ms': Math.round(percentile(latencies, 99)),
    };
  } finally {
    await gw.close();
    receiver.close();
  }
}

const rows = [];
for (const mode of MODES) rows.push(await run(mode));
console.table(rows);
process.exit(0);
