/**
 * Kept media as users run it, PostgreSQL + Redis (docs/benchmarks.md, "Media"): images kept a second, sends while they
 * are kept, a kept video's first byte. Usage: npm run bench:media [-- --images 1000 --rounds 2 --skip kept,sends,download]
 */
import { createHash, randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { deflateSync } from 'node:zlib';
import pg from 'pg';
import { connectedV1Instance, newPhone, sleep } from '../factories/sandbox.js';
import { createKey, login } from '../factories/tenants.js';
import { client } from '../helpers/http.js';
import { REDIS_URL } from '../kit/modes.js';
import { createTestDatabase } from '../kit/postgres.js';
import { buildIfChanged, npmStart, type StartedGateway } from './as-users-run-it.js';
import { formatSplit, measureCpu } from './cpu-split.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '2' },
    /** Images sent per round of (a). */
    images: { type: 'string', default: '1000' },
    /** Images in flight at once (sandbox phones sending). */
    senders: { type: 'string', default: '16' },
    /** Seconds per round of (b). */
    duration: { type: 'string', default: '10' },
    'send-connections': { type: 'string', default: '50' },
    /** Downloads of (c). */
    downloads: { type: 'string', default: '200' },
    'download-concurrency': { type: 'string', default: '4' },
    /** Where media is kept: folder (the default), or s3://bucket/prefix with MEDIA_S3_* from the environment. */
    store: { type: 'string', default: 'folder' },
    skip: { type: 'string', default: '', description: 'comma-separated: kept, sends, download' },
  },
});
const skip = new Set(values.skip!.split(',').filter(Boolean));
const ROUNDS = Number(values.rounds);
const IMAGE_BYTES = 100 * 1024;
const VIDEO_BYTES = 10 * 1024 * 1024;
const run = promisify(execFile);

const ADMIN = { GATEWAY_ADMIN_EMAIL: 'media-bench@example.com', GATEWAY_ADMIN_PASSWORD: 'media-bench-password', GATEWAY_ADMIN_PLAN: 'enterprise' };
const LIMITS = { RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PER_HOUR: '10000000', RATE_LIMIT_BURST: '10000', DAILY_MESSAGES_ENTERPRISE: '100000000' };

// ---- A PNG of `bytes` random pixels (so each image is bytes of its own, not one object kept once). ----
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buffer: Buffer) => {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type: string, data: Buffer) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
};
/** An RGB PNG of about `bytes` bytes (random pixels barely compress). */
function randomPng(bytes: number): Buffer {
  const width = 256;
  const height = Math.ceil(bytes / (width * 3));
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) randomBytes(width * 3).copy(raw, y * (width * 3 + 1) + 1);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 1 })), chunk('IEND', Buffer.alloc(0))]);
}

// ---- A gateway as users run it, on a PostgreSQL database and a media folder of its own. ----
interface Running {
  started: StartedGateway;
  db: pg.Client;
  key: string;
  instance: { id: string; phone: string };
  mediaDir: string;
  stop(): Promise<void>;
}

let storages = 0;
async function startGateway(env: Record<string, string>, where = values.store!): Promise<Running> {
  const database = await createTestDatabase();
  const mediaDir = mkdtempSync(join(tmpdir(), 'mgw-bench-media-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'mgw-bench-media-data-'));
  const store: Record<string, string> = where === 'folder' ? { MEDIA_STORE: 'folder', MEDIA_DIR: mediaDir } : { MEDIA_STORE: where };
  let started: StartedGateway | undefined;
  const db = new pg.Client({ connectionString: database.url });
  const stop = async () => {
    await started?.stop();
    await db.end().catch(() => {});
    await database.drop();
    rmSync(mediaDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    started = await npmStart({ DATA_DIR: dataDir, DATABASE_URL: database.url, REDIS_URL, REDIS_PREFIX: `mgwbench-media:${process.pid}:${++storages}:`, ...store, ...ADMIN, ...LIMITS, ...env });
    await db.connect();
    const api = client(started.url);
    const key = await createKey(api, await login(api, ADMIN.GATEWAY_ADMIN_EMAIL, ADMIN.GATEWAY_ADMIN_PASSWORD), { name: 'media bench' });
    const instance = await connectedV1Instance(api, key, 'media bench');
    return { started, db, key, instance, mediaDir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

const count = async (db: pg.Client, where: string, params: unknown[]) => Number((await db.query(`SELECT count(*)::int AS n FROM "Message" WHERE ${where}`, params)).rows[0].n);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Sends `images` (base64 bodies, made beforehand) from sandbox phones to the instance, `senders` at a time. */
async function sendImages(g: Running, images: string[], stopWhen?: () => boolean) {
  let next = 0;
  const retried = { n: 0 };
  const refused: string[] = [];
  const phones = Array.from({ length: Number(values.senders) }, () => newPhone().slice(1));
  await Promise.all(
    phones.map(async (from) => {
      while (next < images.length && !stopWhen?.()) {
        const data = images[next++ % images.length]!;
        const body = JSON.stringify({ from, to: g.instance.phone.slice(1), type: 'image', media: { data, mimetype: 'image/png' } });
        // A 503 says "retry": the phone sends again, as the network does, and the run counts it.
        let answer = await fetch(`${g.started.url}/sandbox/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        for (let again = 0; answer.status === 503 && again < 5; again++) {
          retried.n++;
          await answer.arrayBuffer();
          answer = await fetch(`${g.started.url}/sandbox/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        }
        if (answer.status !== 200) refused.push(`${answer.status} ${(await answer.text()).slice(0, 200)}`);
        if (stopWhen) next %= images.length;
      }
    }),
  );
  if (refused.length) throw new Error(`the sandbox refused ${refused.length} images: ${refused[0]}`);
  if (retried.n) console.log(`  (${retried.n} images answered 503 and were sent again)`);
}

/** Waits until `n` of the instance's received images are where `where` says (none more to come: stalled for 60 s is a failure). */
async function waitFor(g: Running, where: string, n: number) {
  let last = -1;
  let since = performance.now();
  for (;;) {
    const now = await count(g.db, `"instanceId" = $1::uuid AND direction = 'in' AND type = 'image' AND ${where}`, [g.instance.id]);
    if (now >= n) return;
    if (now !== last) [last, since] = [now, performance.now()];
    if (performance.now() - since > 60_000) throw new Error(`stalled at ${now} of ${n} (${where})`);
    await sleep(20);
  }
}

/**
 * (a) Received images kept a second: from the first send until every one is stored (mediaState), on a gateway
 * that keeps media, against the time until every one is received on one that keeps none (MEDIA_KEEP=none).
 */
async function measureKept() {
  const n = Number(values.images);
  console.log(`(a) making ${n * ROUNDS} images of ${IMAGE_BYTES} bytes…`);
  const batches = Array.from({ length: ROUNDS }, () => Array.from({ length: n }, () => randomPng(IMAGE_BYTES).toString('base64')));
  const keeping = { name: 'kept', ...(await startGateway({ MEDIA_KEEP: 'all' })) };
  const receiving = { name: 'received only', ...(await startGateway({ MEDIA_KEEP: 'none' })) };
  const rows: Array<Record<string, string | number>> = [];
  const sums = { kept: 0, 'received only': 0 };
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const images = batches[round - 1]!;
      const rates: Record<string, number> = {};
      for (const g of round % 2 ? [keeping, receiving] : [receiving, keeping]) {
        const before = await count(g.db, `"instanceId" = $1::uuid AND direction = 'in' AND type = 'image'`, [g.instance.id]);
        const cpu = measureCpu();
        const started = performance.now();
        await sendImages(g, images);
        await waitFor(g, g.name === 'kept' ? `"mediaState" = 'stored'` : 'true', before + n);
        const seconds = (performance.now() - started) / 1000;
        const split = cpu(g.started.pid);
        const failed = await count(g.db, `"instanceId" = $1::uuid AND "mediaState" = 'failed'`, [g.instance.id]);
        rates[g.name] = n / seconds;
        sums[g.name as 'kept'] += n / seconds;
        rows.push({ round, gateway: g.name, 'images/s': Math.round(n / seconds), 'MB/s': ((n * IMAGE_BYTES) / seconds / 1e6).toFixed(1), failed, 'cores: gateway / PostgreSQL / Redis / rest (busy of all)': formatSplit(split) });
      }
      rows.at(-1)!['kept ÷ received only'] = `${((100 * rates.kept!) / rates['received only']!).toFixed(1)} %`;
    }
  } finally {
    await keeping.stop();
    await receiving.stop();
  }
  console.log(`(a) received ${IMAGE_BYTES / 1024} KB images, ${values.senders} phones sending, ${n} a round, store ${values.store}; kept ÷ received only over all rounds ${((100 * sums.kept) / sums['received only']).toFixed(1)} %:`);
  console.table(rows);
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  other: number;
}

async function autocannon(url: string, key: string, body: unknown): Promise<Load> {
  const { stdout } = await run(
    join('node_modules', '.bin', 'autocannon'),
    ['--json', '-d', values.duration!, '-c', values['send-connections']!, '-H', `authorization=Bearer ${key}`, '-m', 'POST', '-H', 'content-type=application/json', '-b', JSON.stringify(body), `${url}/v1/messages/send`],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const result = JSON.parse(stdout);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, other: result.non2xx + result.errors };
}

/** (b) Text sends (POST /v1/messages/send) alone, and while sandbox phones send images the gateway keeps: the ratio. */
async function measureSends() {
  const g = await startGateway({ MEDIA_KEEP: 'all' });
  const body = { to: '5511987654321', text: 'benchmark message' };
  const images = Array.from({ length: 200 }, () => randomPng(IMAGE_BYTES).toString('base64'));
  const rows: Array<Record<string, string | number>> = [];
  const sums = { alone: 0, busy: 0 };
  try {
    await autocannon(g.started.url, g.key, body);
    for (let round = 1; round <= ROUNDS; round++) {
      const figures: Record<string, Load> = {};
      for (const what of round % 2 ? ['alone', 'busy'] : ['busy', 'alone']) {
        const cpu = measureCpu();
        const storedBefore = await count(g.db, `"mediaState" = 'stored'`, []);
        let done = false;
        const feeding = what === 'busy' ? sendImages(g, images, () => done) : Promise.resolve();
        const measured = await autocannon(g.started.url, g.key, body);
        done = true;
        await feeding;
        const split = cpu(g.started.pid);
        const kept = (await count(g.db, `"mediaState" = 'stored'`, [])) - storedBefore;
        figures[what] = measured;
        sums[what as 'alone'] += measured.rps;
        rows.push({ round, sends: what === 'alone' ? 'alone' : 'while images are kept', 'req/s': Math.round(measured.rps), 'p50 ms': measured.p50, 'p99 ms': measured.p99, 'non-2xx': measured.other, 'images kept meanwhile': kept, 'cores: gateway / PostgreSQL / Redis / rest (busy of all)': formatSplit(split) });
      }
      rows.at(-1)!['busy ÷ alone'] = `${((100 * figures.busy!.rps) / figures.alone!.rps).toFixed(1)} %`;
    }
  } finally {
    await g.stop();
  }
  console.log(`(b) POST /v1/messages/send, ${values['send-connections']} connections, ${values.duration} s a round; while images are kept ÷ alone over all rounds ${((100 * sums.busy) / sums.alone).toFixed(1)} %:`);
  console.table(rows);
}

/**
 * (c) The first byte of a kept 10 MB video (GET /v1/messages/<id>/media), read whole, from the data folder:
 * the object written as the folder store names it, its blob and a received message holding it in the database.
 */
async function measureDownload() {
  if (values.store !== 'folder') console.log('(c) measured on the data folder (the --store given is for (a) and (b))');
  const g = await startGateway({ MEDIA_KEEP: 'all' }, 'folder');
  try {
    const video = randomBytes(VIDEO_BYTES);
    const sha256 = createHash('sha256').update(video).digest('hex');
    mkdirSync(join(g.mediaDir, sha256.slice(0, 2)), { recursive: true, mode: 0o700 });
    writeFileSync(join(g.mediaDir, sha256.slice(0, 2), sha256), video, { mode: 0o600 });
    await g.db.query(`INSERT INTO "MediaBlob" (sha256, size, mimetype) VALUES ($1, $2, 'video/mp4')`, [sha256, VIDEO_BYTES]);
    const tenant = (await g.db.query(`SELECT "tenantId" FROM "Instance" WHERE id = $1::uuid`, [g.instance.id])).rows[0].tenantId;
    const media = { type: 'video', mimetype: 'video/mp4', size: VIDEO_BYTES, fileName: 'bench.mp4' };
    const id = (
      await g.db.query(
        `INSERT INTO "Message" (id, "tenantId", "instanceId", direction, "to", "from", type, mode, status, media, "mediaSha256", "mediaState", "updatedAt")
         VALUES (gen_random_uuid(), $1::uuid, $2::uuid, 'in', $3, '5511900000000', 'video', 'production', 'delivered', $4, $5, 'stored', now()) RETURNING id`,
        [tenant, g.instance.id, g.instance.phone.slice(1), JSON.stringify(media), sha256],
      )
    ).rows[0].id as string;
    const url = `${g.started.url}/v1/messages/${id}/media`;
    /** One download: the time to its first byte and to its last. */
    const download = async () => {
      const started = performance.now();
      const answer = await fetch(url, { headers: { authorization: `Bearer ${g.key}` } });
      if (answer.status !== 200) throw new Error(`GET media: ${answer.status} ${(await answer.text()).slice(0, 300)}`);
      const reader = answer.body!.getReader();
      let first = 0;
      let size = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!first) first = performance.now() - started;
        size += value.length;
      }
      if (size !== VIDEO_BYTES) throw new Error(`GET media answered ${size} bytes, not ${VIDEO_BYTES}`);
      return { first, whole: performance.now() - started };
    };
    for (let i = 0; i < 5; i++) await download();
    const firsts: number[] = [];
    const wholes: number[] = [];
    const total = Number(values.downloads);
    let next = 0;
    const cpu = measureCpu();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: Number(values['download-concurrency']) }, async () => {
        while (next++ < total) {
          const { first, whole } = await download();
          firsts.push(first);
          wholes.push(whole);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const split = cpu(g.started.pid);
    firsts.sort((a, b) => a - b);
    wholes.sort((a, b) => a - b);
    console.log(
      `(c) GET a kept 10 MB video from the data folder, ${total} downloads, ${values['download-concurrency']} at once: first byte p50 ${percentile(firsts, 50).toFixed(1)} ms, ` +
        `p99 ${percentile(firsts, 99).toFixed(1)} ms; whole file p50 ${percentile(wholes, 50).toFixed(0)} ms, p99 ${percentile(wholes, 99).toFixed(0)} ms; ` +
        `${((total * VIDEO_BYTES) / seconds / 1e6).toFixed(0)} MB/s; cores: gateway / PostgreSQL / Redis / rest (busy of all) ${formatSplit(split)}`,
    );
  } finally {
    await g.stop();
  }
}

await buildIfChanged();
if (!skip.has('kept')) await measureKept();
if (!skip.has('sends')) await measureSends();
if (!skip.has('download')) await measureDownload();
process.exit(0);
