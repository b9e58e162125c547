import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/compose/config.js';
import type { MediaStore } from '../../../src/domain/media/media-store.port.js';
import { createMediaSweep, holdBlob } from '../../../src/infra/media/media-sweep.js';
import { eventually } from '../../factories/sandbox.js';
import { createTenant, type TestTenant } from '../../factories/tenants.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { type Client, client } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';

const DAY = 86_400_000;

/** A time-ordered id (UUID v7) of a moment: a message made then, as the messages' retention finds it. */
function idAt(ms: number): string {
  const hex = ms.toString(16).padStart(12, '0');
  const tail = randomBytes(8).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${tail.slice(0, 3)}-8${tail.slice(3, 6)}-${tail.slice(4, 16)}`;
}

describe.each(MODES)('kept media over time: references, RETENTION_MEDIA, deletes — $name', (mode) => {
  let gw: TestGateway;
  let api: Client;
  let tenant: TestTenant;
  let store: MediaStore;

  beforeAll(async () => {
    gw = await startTestGateway(mode, {
      // Media goes after a week, messages after a month.
      env: { RETENTION_MESSAGES: '30d', RETENTION_MEDIA: '7d', MEDIA_STORE: 'folder' },
    });
    api = client(gw.url);
    tenant = await createTenant(gw.gateway, api, 'enterprise');
    store = gw.gateway.infra.mediaStore!;
    expect(store?.kind).toBe('folder');
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
  });

  const rows = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => gw.gateway.infra.db.statements.run<T>(sql, params);
  const fileOf = (sha256: string) => join(store.name.slice('folder:'.length), sha256.slice(0, 2), sha256);

  async function newInstance() {
    const created = await api.post('/v1/chat/instances', { key: tenant.liveKey, body: { name: `media ${randomUUID()}` } });
    expect(created.status, created.text).toBe(201);
    return created.body.data.id as string;
  }

  /** Bytes kept as the keeper keeps them: the object, then its row (made a while ago: past the sweep's grace). */
  async function kept(bytes: Buffer) {
    const put = await store.put((async function* () { yield bytes; })(), { maxBytes: 1 << 20, contentType: 'image/png' });
    expect(await holdBlob(gw.gateway.infra.db.statements, store, { ...put, mimetype: 'image/png' })).toBe(true);
    await rows(`UPDATE "MediaBlob" SET "createdAt" = now() - interval '1 hour' WHERE sha256 = $1`, [put.sha256]);
    return put;
  }

  /** A received image message holding `sha256`, made `ageMs` ago (its id and its createdAt). */
  async function message(instanceId: string, sha256: string, ageMs = 0) {
    const at = new Date(Date.now() - ageMs);
    const id = idAt(at.getTime());
    await rows(
      `INSERT INTO "Message" (id, "tenantId", "instanceId", direction, "to", "from", type, mode, status, media, "mediaSha256", "mediaState", "createdAt", "updatedAt")
       VALUES ($1::uuid, $2::uuid, $3::uuid, 'in', '100', '200', 'image', 'production', 'delivered', '{"type":"image","mimetype":"image/png","size":1024,"fileName":"photo.png"}', $4, 'stored', $5, now())`,
      [id, tenant.tenantId, instanceId, sha256, at],
    );
    return id;
  }

  const blobs = async (sha256: string) => (await rows<{ n: number }>(`SELECT count(*)::int AS n FROM "MediaBlob" WHERE sha256 = $1`, [sha256]))[0]!.n;
  const keptCopy = async (id: string) =>
    (await rows<{ mediaSha256: string | null; mediaState: string | null; mediaError: { code: string } | null }>(`SELECT "mediaSha256", "mediaState", "mediaError" FROM "Message" WHERE id = $1::uuid`, [id]))[0];
  /** One retention pass that ran (another node's or the loop's pass may hold the lock a moment). */
  const sweep = () => eventually(() => gw.gateway.infra.retention.sweep(), (deleted) => deleted !== null);

  it('identical bytes are one object; each message going lets go of its reference, and the last one removes the object', async () => {
    const instanceId = await newInstance();
    const bytes = randomBytes(4096);
    const first = await kept(bytes);
    const second = await kept(bytes);
    expect(second.sha256).toBe(first.sha256);
    expect(await blobs(first.sha256)).toBe(1);
    expect(existsSync(fileOf(first.sha256))).toBe(true);

    const older = await message(instanceId, first.sha256, 8 * DAY);
    const newer = await message(instanceId, first.sha256);

    // The older message is past RETENTION_MEDIA: it keeps its record, not its copy; the newer one holds the file.
    await sweep();
    expect(await keptCopy(older)).toMatchObject({ mediaSha256: null, mediaState: null, mediaError: { code: 'media_expired' } });
    expect(await keptCopy(newer)).toMatchObject({ mediaSha256: first.sha256, mediaState: 'stored' });
    expect(await store.has(first.sha256)).toBe(true);
    expect(await blobs(first.sha256)).toBe(1);
    const status = await api.get(`/v1/messages/status/${older}`, { key: tenant.liveKey });
    expect(status.status, status.text).toBe(200);

    // The last reference goes: the object, then its row.
    await rows(`UPDATE "Message" SET "createdAt" = now() - interval '8 days' WHERE id = $1::uuid`, [newer]);
    await sweep();
    expect(await keptCopy(newer)).toMatchObject({ mediaSha256: null, mediaState: null });
    expect(await store.has(first.sha256)).toBe(false);
    expect(existsSync(fileOf(first.sha256))).toBe(false);
    expect(await blobs(first.sha256)).toBe(0);
    // Both messages are still there: only their media went.
    expect((await rows(`SELECT id FROM "Message" WHERE id IN ($1::uuid, $2::uuid)`, [older, newer])).length).toBe(2);
  });

  it('a message past RETENTION_MESSAGES takes its reference with it; the bytes go once nothing else holds them', async () => {
    const instanceId = await newInstance();
    const shared = await kept(randomBytes(2048));
    const gone = await message(instanceId, shared.sha256, 31 * DAY);
    const staying = await message(instanceId, shared.sha256);
    const alone = await kept(randomBytes(2048));
    const goneAlone = await message(instanceId, alone.sha256, 31 * DAY);

    await sweep();
    expect(await keptCopy(gone)).toBeUndefined();
    expect(await keptCopy(goneAlone)).toBeUndefined();
    expect(await store.has(shared.sha256)).toBe(true);
    expect(await store.has(alone.sha256)).toBe(false);
    expect(await keptCopy(staying)).toMatchObject({ mediaSha256: shared.sha256 });
  });

  it('a message deleted for everyone lets its kept copy go at the next pass', async () => {
    const instanceId = await newInstance();
    const blob = await kept(randomBytes(1024));
    const id = await message(instanceId, blob.sha256);
    await rows(`UPDATE "Message" SET "deletedAt" = now() WHERE id = $1::uuid`, [id]);
    await sweep();
    expect(await keptCopy(id)).toMatchObject({ mediaSha256: null, mediaState: null, mediaError: { code: 'media_expired' } });
    expect(await store.has(blob.sha256)).toBe(false);
  });

  it("deleting an instance removes its files, but not bytes another instance's message holds", async () => {
    const deleted = await newInstance();
    const other = await newInstance();
    const own = await kept(randomBytes(3000));
    const shared = await kept(randomBytes(3000));
    await message(deleted, own.sha256);
    await message(deleted, shared.sha256);
    const holder = await message(other, shared.sha256);

    const answer = await api.delete(`/v1/chat/instances/${deleted}`, { key: tenant.liveKey });
    expect(answer.status, answer.text).toBe(200);
    await sweep();
    expect(await store.has(own.sha256)).toBe(false);
    expect(await blobs(own.sha256)).toBe(0);
    expect(await store.has(shared.sha256)).toBe(true);
    expect(await keptCopy(holder)).toMatchObject({ mediaSha256: shared.sha256, mediaState: 'stored' });
    // Each check was looked at and resolved: none is left due.
    expect(await rows(`SELECT sha256 FROM "MediaCheck" WHERE sha256 = ANY($1::text[]) AND "dueAt" <= now()`, [[own.sha256, shared.sha256]])).toEqual([]);
  });

  it('bytes kept a moment ago and not yet named by any message are left for the grace, then go', async () => {
    const put = await store.put((async function* () { yield randomBytes(512); })(), { maxBytes: 1 << 20, contentType: 'image/png' });
    await holdBlob(gw.gateway.infra.db.statements, store, { ...put, mimetype: 'image/png' });
    await sweep();
    expect(await store.has(put.sha256)).toBe(true);
    expect(await blobs(put.sha256)).toBe(1);
    // Its check due early (a message that held the bytes went): the grace still counts, and the check waits for it.
    await rows(`UPDATE "MediaCheck" SET "dueAt" = now() - interval '1 second' WHERE sha256 = $1`, [put.sha256]);
    await sweep();
    expect(await store.has(put.sha256)).toBe(true);
    const [check] = await rows<{ later: boolean }>(`SELECT "dueAt" > now() + interval '5 minutes' AS later FROM "MediaCheck" WHERE sha256 = $1`, [put.sha256]);
    expect(check).toEqual({ later: true });
    // Past the grace, nobody's (a keeper that never named it): removed.
    await rows(`UPDATE "MediaBlob" SET "createdAt" = now() - interval '1 hour' WHERE sha256 = $1`, [put.sha256]);
    await rows(`UPDATE "MediaCheck" SET "dueAt" = now() - interval '1 second' WHERE sha256 = $1`, [put.sha256]);
    await sweep();
    expect(await store.has(put.sha256)).toBe(false);
    expect(await blobs(put.sha256)).toBe(0);
    expect(await rows(`SELECT 1 FROM "MediaCheck" WHERE sha256 = $1`, [put.sha256])).toEqual([]);
  });

  it('an object the store fails to remove keeps its row and is removed at the next sweep', async () => {
    const blob = await kept(randomBytes(700));
    await rows(`UPDATE "MediaCheck" SET "dueAt" = now() - interval '1 second' WHERE sha256 = $1`, [blob.sha256]);
    let failures = 1;
    const flaky: MediaStore = {
      ...store,
      async remove(sha256) {
        if (sha256 === blob.sha256 && failures-- > 0) throw new Error('the store is down');
        return store.remove(sha256);
      },
    };
    const removed: number[] = [];
    const mediaSweep = createMediaSweep({ statements: gw.gateway.infra.db.statements, store: flaky, observer: { removed: (n) => removed.push(n) }, logger: pino({ level: 'silent' }) });
    // The gateway's own loop may take it first; either way it is gone only with its row.
    await mediaSweep.sweep();
    if (failures === 0) {
      expect(await store.has(blob.sha256)).toBe(true);
      expect(await blobs(blob.sha256)).toBe(1);
      await mediaSweep.sweep();
    }
    expect(await store.has(blob.sha256)).toBe(false);
    expect(await blobs(blob.sha256)).toBe(0);
  });

  it('a keeper holding bytes whose object a sweep removed is told to put them again', async () => {
    const put = await store.put((async function* () { yield randomBytes(600); })(), { maxBytes: 1 << 20, contentType: 'image/png' });
    // As if a sweep removed the object and its row between this put and the keeper's row.
    await store.remove(put.sha256);
    expect(await holdBlob(gw.gateway.infra.db.statements, store, { ...put, mimetype: 'image/png' })).toBe(false);
    await rows(`DELETE FROM "MediaBlob" WHERE sha256 = $1`, [put.sha256]);
  });

  it('/metrics shows the bytes and objects the store holds, and the objects removed', async () => {
    const instanceId = await newInstance();
    const blob = await kept(randomBytes(10_000));
    await message(instanceId, blob.sha256);
    const [totals] = await rows<{ bytes: number; objects: number }>(`SELECT COALESCE(SUM(size), 0)::float8 AS bytes, count(*)::int AS objects FROM "MediaBlob"`);
    const scraped = await eventually(
      async () => (await fetch(`${gw.url}/metrics`)).text(),
      (text) => text.includes(`gateway_media_stored_bytes{store="folder"} ${totals!.bytes}`),
      15_000,
    );
    expect(scraped).toContain(`gateway_media_stored_objects{store="folder"} ${totals!.objects}`);
    expect(totals!.bytes).toBeGreaterThanOrEqual(10_000);
    expect(scraped).toMatch(/gateway_media_removed_objects_total\{store="folder"\} [1-9]/);
    expect(scraped).toMatch(/gateway_media_released_total\{reason="retention"\} [1-9]/);
  });

  it('RETENTION_MEDIA is a retention or off; anything else is refused at start', () => {
    expect(() => loadConfig({ RETENTION_MEDIA: '5 weeks' })).toThrow(/RETENTION_MEDIA/);
    expect(() => loadConfig({ RETENTION_MEDIA: '0d' })).toThrow(/RETENTION_MEDIA/);
    expect(loadConfig({ RETENTION_MEDIA: 'off' }).RETENTION_MEDIA).toBeNull();
    expect(loadConfig({ RETENTION_MEDIA: '7d' }).RETENTION_MEDIA).toBe(7 * DAY);
    expect(loadConfig({}).RETENTION_MEDIA).toBeUndefined();
  });
});
