/**
 * Subscription fan-out: N graphql-ws subscribers on one gateway process, the time one event takes to reach all
 * and the memory each costs (docs/benchmarks.md, "Each benchmark in detail").
 * Usage: npm run bench:subscriptions [-- --subscribers 10000 --events 5 --redis]
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createTestDatabase } from '../kit/postgres.js';
import { client } from '../helpers/http.js';
import { REDIS_URL } from '../kit/modes.js';
import { login } from '../factories/tenants.js';

const { values } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '10000' },
    events: { type: 'string', default: '5' },
    redis: { type: 'boolean', default: false },
  },
});
const subscribers = Number(values.subscribers);

/** The gateway process, forked with IPC so it can report its memory after a full collection. */
async function startGateway(env: Record<string, string>) {
  const child: ChildProcess = fork('test/bench/fanout-gateway.ts', {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0', ...env },
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { url: string }).url));
    child.once('exit', () => reject(new Error('gateway exited')));
  });
  return {
    url,
    memory: () =>
      new Promise<NodeJS.MemoryUsage>((resolve) => {
        child.once('message', (m) => resolve((m as { memory: NodeJS.MemoryUsage }).memory));
        child.send('memory');
      }),
    stop: () => new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.send('stop');
    }),
  };
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const dataDir = mkdtempSync(join(tmpdir(), 'mgw-bench-subs-'));
const database = values.redis ? await createTestDatabase() : undefined;
const gateway = await startGateway({
  ...(database ? { DATABASE_URL: database.url, REDIS_URL, REDIS_PREFIX: `mgwbench:${Date.now()}:` } : { DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '' }),
  GATEWAY_ADMIN_EMAIL: 'bench@example.com',
  GATEWAY_ADMIN_PASSWORD: 'bench-password-1',
  RATE_LIMIT_PER_MINUTE: '1000000',
  RATE_LIMIT_PER_HOUR: '10000000',
  // Every subscriber here shares one key; in production they would be many callers.
  RATE_LIMIT_BURST: '10000',
});
const clients: Client[] = [];
try {
  const api = client(gateway.url);
  const cookie = await login(api, 'bench@example.com', 'bench-password-1');
  const key = (await api.post('/api-keys', { cookie, body: { name: 'bench' } })).body.data.key as string;
  const instanceId = (await api.post('/v1/chat/instances', { key, body: { name: 'fan-out' } })).body.data.id as string;
  await api.get(`/v1/chat/instances/${instanceId}/qr`, { key });

  // Per QR attempt: how many subscribers have it, when the first and the last got it.
  const received = new Map<string, { count: number; firstAt: number; allAt?: number }>();
  const onEvent = (attemptId: string) => {
    const now = performance.now();
    const seen = received.get(attemptId) ?? { count: 0, firstAt: now };
    seen.count += 1;
    if (seen.count === subscribers) seen.allAt = now;
    received.set(attemptId, seen);
  };

  await sleep(1000);
  const before = await gateway.memory();
  const connectStarted = performance.now();
  const url = gateway.url.replace('http', 'ws') + '/graphql';
  const BATCH = 250;
  // Connections first (authenticated, idle), then one subscription on each: memory is reported for both steps.
  for (let offset = 0; offset < subscribers; offset += BATCH) {
    await Promise.all(
      Array.from({ length: Math.min(BATCH, subscribers - offset) }, async () => {
        let acknowledged!: () => void;
        const ready = new Promise<void>((resolve) => (acknowledged = resolve));
        const ws = createClient({
          url,
          webSocketImpl: WebSocket,
          lazy: false,
          connectionParams: { authorization: `Bearer ${key}` },
          retryAttempts: 0,
          on: { connected: () => acknowledged() },
        });
        clients.push(ws);
        await ready;
      }),
    );
  }
  const connectMs = performance.now() - connectStarted;
  await sleep(1000);
  const connected = await gateway.memory();
  for (const ws of clients) {
    ws.subscribe(
      { query: 'subscription ($id: ID!) { qrUpdated(instanceId: $id) { attemptId } }', variables: { id: instanceId } },
      { next: (r) => onEvent((r.data as { qrUpdated: { attemptId: string } }).qrUpdated.attemptId), error: (e) => console.error('subscription error', e), complete: () => {} },
    );
  }
  /** Regenerates the QR code; resolves with the timing once every subscriber has the event, or null after `waitMs`. */
  async function oneEvent(waitMs: number) {
    const sent = performance.now();
    const regenerated = await fetch(`${gateway.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: `mutation { regenerateQrCode(input: { id: "${instanceId}" }) { qrCode { attemptId } userErrors { code message } } }` }),
    }).then((r) => r.json() as Promise<{ data: { regenerateQrCode: { qrCode: { attemptId: string } | null; userErrors: unknown[] } } }>);
    const answeredAt = performance.now();
    const attemptId = regenerated.data.regenerateQrCode.qrCode?.attemptId;
    if (!attemptId) throw new Error(`regenerate failed: ${JSON.stringify(regenerated)}`);
    while (received.get(attemptId)?.allAt === undefined) {
      if (performance.now() > answeredAt + waitMs) return null;
      await sleep(5);
    }
    const seen = received.get(attemptId)!;
    return { first: seen.firstAt - sent, all: seen.allAt! - sent, answered: answeredAt - sent };
  }

  // Every subscription is live once one event has reached them all (the server may still be working
  // through subscribe messages for a while); only then is memory measured and are events timed.
  const settleUntil = performance.now() + 60_000;
  while (!(await oneEvent(2000))) {
    if (performance.now() > settleUntil) throw new Error('not every subscriber received an event within 60 s');
  }
  await sleep(500);
  const after = await gateway.memory();

  const timings: Array<{ first: number; all: number; answered: number }> = [];
  for (let n = 0; n < Number(values.events); n++) {
    const timing = await oneEvent(30_000);
    if (!timing) throw new Error(`an event did not reach all ${subscribers} subscribers within 30 s`);
    timings.push(timing);
    await sleep(500);
  }

  const kept = (m: NodeJS.MemoryUsage) => m.heapUsed + m.external + m.arrayBuffers;
  const perSubscriberKiB = (kept(after) - kept(before)) / 1024 / subscribers;
  const perConnectionKiB = (kept(connected) - kept(before)) / 1024 / subscribers;
  const rssPerSubscriberKiB = (after.rss - before.rss) / 1024 / subscribers;
  console.log(`${subscribers} graphql-ws subscribers on one gateway process (${values.redis ? 'PostgreSQL + Redis pub/sub' : 'embedded, in-process pub/sub'})`);
  console.log(`connected in ${(connectMs / 1000).toFixed(1)} s; kept per idle authenticated connection ${perConnectionKiB.toFixed(1)} KiB, per subscription on it ${(perSubscriberKiB - perConnectionKiB).toFixed(1)} KiB`);
  console.log(
    `memory kept per subscriber after GC (heap + external): ${perSubscriberKiB.toFixed(1)} KiB (goal < 20 KB); ` +
      `resident set grew ${((after.rss - before.rss) / 1048576).toFixed(0)} MiB, ${rssPerSubscriberKiB.toFixed(1)} KiB per subscriber`,
  );
  console.table(
    timings.map((t, i) => ({
      event: i + 1,
      'mutation answered ms': Math.round(t.answered),
      'first subscriber ms': Math.round(t.first),
      'all subscribers ms': Math.round(t.all),
      'first → last ms': Math.round(t.all - t.first),
    })),
  );
  const worst = Math.max(...timings.map((t) => t.all));
  const spread = Math.max(...timings.map((t) => t.all - t.first));
  // The event exists once the mutation commits, somewhat before the first subscriber has it.
  console.log(
    `slowest event: ${Math.round(spread)} ms from the first to the last of ${subscribers} subscribers, ` +
      `${Math.round(worst)} ms from sending the mutation (which renders a QR image and commits) to the last (goal < 1000 ms)`,
  );
} finally {
  await Promise.all(clients.map((c) => c.dispose()));
  await gateway.stop();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
