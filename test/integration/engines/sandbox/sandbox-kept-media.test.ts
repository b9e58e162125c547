import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, newPhone } from '../../../factories/sandbox.js';
import { failure } from '../../../helpers/http.js';
import { MODES } from '../../../kit/modes.js';
import { MAINTENANCE } from '../../../../src/infra/maintenance.js';
import { PNG_1PX } from '../../../kit/files.js';
import { connectedInstance, sandboxWorld } from '../../../kit/worlds/sandbox.js';
import type { World } from '../../../kit/world.js';

/** A kept file's signed link, as every edge (webhooks included) gives it (docs/media.md, "Signed links"). */
const SIGNED_LINK = /^\/media\/[\w-]+\?expires=\d+&signature=[\w-]+$/;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(20_000)]);
const PNG = Buffer.concat([PNG_1PX, randomBytes(3000)]);

/** What a world's tests share: its phone sends, the webhook's messages.update about media, the download. */
function keptMediaOf(world: World) {
  const download = (messageId: string) => fetch(`${world.gw.url}/v1/messages/${messageId}/media`, { headers: { 'x-api-key': world.tenant.liveKey } });
  const mediaUpdates = (messageId: string) =>
    world.receiver
      .of('messages.update')
      .map((call) => JSON.parse(call.body).data)
      .filter((data) => data.messageId === messageId && data.media);
  const mediaUpdate = (messageId: string) => eventually(async () => mediaUpdates(messageId), (list) => list.length > 0).then((list) => list[0]);
  const phoneSends = (instance: { phone: string }, body: Record<string, unknown>) =>
    world.api.post('/sandbox/messages', { body: { to: instance.phone.slice(1), from: newPhone().slice(1), ...body } });
  const image = { type: 'image', media: { data: PNG.toString('base64'), mimetype: 'image/png' } };
  const document = { type: 'document', media: { data: PDF.toString('base64'), mimetype: 'application/pdf', fileName: 'invoice.pdf' } };
  /** A v1 instance with the media policy given (none: the default), its webhook on the world's receiver. */
  const instanceWith = async (media?: unknown) => {
    const instance = await connectedInstance(world, `kept media ${Date.now()} ${Math.random()}`, { webhookUrl: `${world.receiver.url}/v1` });
    if (media !== undefined) {
      const set = await world.api.put(`/v1/chat/instances/${instance.id}`, { key: world.tenant.liveKey, body: { media } });
      expect(set.status, set.text).toBe(200);
    }
    return instance;
  };
  const expire = async (messageId: string) => expect((await world.api.post(`/sandbox/messages/${messageId}/media-expiry`)).status).toBe(200);
  return { download, mediaUpdates, mediaUpdate, phoneSends, image, document, instanceWith, expire };
}

describe.each(MODES)('Sandbox: media kept by the gateway — $name', (mode) => {
  const files: Record<string, { type: string; body: Buffer }> = { '/kept.png': { type: 'image/png', body: PNG } };
  // The sweeps back off to 5 s rather than 30 s: "kept by the sweep" takes seconds (the mechanism is the same).
  const world = sandboxWorld(mode, { env: { MEDIA_STORE: 'folder' }, files, infra: { maintenance: { ...MAINTENANCE, idleMs: 5_000 } } });
  const kit = keptMediaOf(world);

  it('received media is kept: messages.update says stored (hash and size), and it still downloads once the network lets it expire', async () => {
    const instance = await kit.instanceWith();
    const sent = await kit.phoneSends(instance, kit.document);
    expect(sent.status, sent.text).toBe(200);
    const messageId = sent.body.data.messageId;
    expect(await kit.mediaUpdate(messageId)).toEqual({ messageId, media: { stored: true, sha256: sha256(PDF), size: PDF.length, url: expect.stringMatching(SIGNED_LINK), expiresAt: expect.any(String) } });
    await kit.expire(messageId);
    const answer = await kit.download(messageId);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/pdf');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="invoice.pdf"');
    expect(sha256(new Uint8Array(await answer.arrayBuffer()))).toBe(sha256(PDF));
  });

  it('identical bytes received twice are one object: both messages name the same hash, both download', async () => {
    const instance = await kit.instanceWith();
    const ids = [];
    for (let n = 0; n < 2; n++) ids.push((await kit.phoneSends(instance, kit.image)).body.data.messageId as string);
    for (const id of ids) expect((await kit.mediaUpdate(id)).media).toEqual({ stored: true, sha256: sha256(PNG), size: PNG.length, url: expect.stringMatching(SIGNED_LINK), expiresAt: expect.any(String) });
    for (const id of ids) {
      await kit.expire(id);
      const answer = await kit.download(id);
      expect(answer.status).toBe(200);
      expect(sha256(new Uint8Array(await answer.arrayBuffer()))).toBe(sha256(PNG));
    }
  });

  it('policy none keeps nothing (the network’s expiry is a 410); ["image"] keeps images only', async () => {
    const none = await kit.instanceWith({ keep: 'none' });
    const detail = await world.api.get(`/v1/chat/instances/${none.id}`, { key: world.tenant.liveKey });
    expect(detail.body.data.media).toEqual({ keep: 'none', maxBytes: 64 * 1024 * 1024 });
    const notKept = (await kit.phoneSends(none, kit.image)).body.data.messageId;

    const images = await kit.instanceWith({ keep: ['image'], maxBytes: 1_000_000 });
    const kept = (await kit.phoneSends(images, kit.image)).body.data.messageId;
    const skipped = (await kit.phoneSends(images, kit.document)).body.data.messageId;
    expect((await kit.mediaUpdate(kept)).media.stored).toBe(true);

    for (const id of [notKept, skipped]) {
      // Received and announced as ever, with no word about keeping it.
      await eventually(async () => world.receiver.of('messages.upsert').filter((call) => JSON.parse(call.body).data.messageId === id), (list) => list.length === 1);
      expect(kit.mediaUpdates(id)).toEqual([]);
      await kit.expire(id);
      const gone = await world.api.get(`/v1/messages/${id}/media`, { key: world.tenant.liveKey });
      expect(gone.status).toBe(410);
      expect(gone.body).toEqual(failure('media_expired'));
    }
  });

  it('a file larger than the policy keeps: media.error media_too_large at once (no retry), the message kept and served by the network', async () => {
    const small = await kit.instanceWith({ keep: 'all', maxBytes: 1000 });
    const messageId = (await kit.phoneSends(small, kit.document)).body.data.messageId;
    const update = await kit.mediaUpdate(messageId);
    expect(update.media).toEqual({ stored: false, error: { code: 'media_too_large', message: expect.stringContaining('1000 bytes') } });
    const answer = await kit.download(messageId);
    expect(answer.status).toBe(200);
    expect(sha256(new Uint8Array(await answer.arrayBuffer()))).toBe(sha256(PDF));
  });

  it('sent media is kept, by URL and uploaded: it downloads after the URL stops serving it', async () => {
    const instance = await kit.instanceWith();
    const to = newPhone().slice(1);
    const byUrl = await world.api.post(`/v1/chat/instances/${instance.id}/messages`, {
      key: world.tenant.liveKey,
      body: { to, mediaType: 'image', media: { url: `${world.files.url}/kept.png` } },
    });
    expect(byUrl.status, byUrl.text).toBe(200);
    const uploaded = await world.api.post(`/v1/chat/instances/${instance.id}/messages`, {
      key: world.tenant.liveKey,
      body: { to, mediaType: 'document', media: { data: PDF.toString('base64'), mimetype: 'application/pdf', fileName: 'sent.pdf' } },
    });
    expect(uploaded.status, uploaded.text).toBe(200);
    expect((await kit.mediaUpdate(byUrl.body.data.id)).media).toEqual({ stored: true, sha256: sha256(PNG), size: PNG.length, url: expect.stringMatching(SIGNED_LINK), expiresAt: expect.any(String) });
    expect((await kit.mediaUpdate(uploaded.body.data.id)).media).toEqual({ stored: true, sha256: sha256(PDF), size: PDF.length, url: expect.stringMatching(SIGNED_LINK), expiresAt: expect.any(String) });
    delete files['/kept.png'];
    const answer = await kit.download(byUrl.body.data.id);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('image/png');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="kept.png"');
    expect(sha256(new Uint8Array(await answer.arrayBuffer()))).toBe(sha256(PNG));
    const file = await kit.download(uploaded.body.data.id);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="sent.pdf"');
    expect(sha256(new Uint8Array(await file.arrayBuffer()))).toBe(sha256(PDF));
  });

  it('a message left pending (a node that stopped before keeping it) is kept by the sweep', async () => {
    const instance = await kit.instanceWith({ keep: 'none' });
    const messageId = (await kit.phoneSends(instance, kit.image)).body.data.messageId;
    await eventually(async () => world.receiver.of('messages.upsert').filter((call) => JSON.parse(call.body).data.messageId === messageId), (list) => list.length === 1);
    // What a crash between the message's commit and its keeping leaves: pending, with nobody working on it.
    await world.api.put(`/v1/chat/instances/${instance.id}`, { key: world.tenant.liveKey, body: { media: null } });
    await world.gw.gateway.infra.db.prisma.message.update({ where: { id: messageId }, data: { mediaState: 'pending' } });
    const update = await eventually(async () => kit.mediaUpdates(messageId), (list) => list.length > 0, 15_000);
    expect(update[0].media).toEqual({ stored: true, sha256: sha256(PNG), size: PNG.length, url: expect.stringMatching(SIGNED_LINK), expiresAt: expect.any(String) });
  });

  it('refuses a bad media policy with 400 naming the field, in both variants', async () => {
    const key = world.tenant.liveKey;
    const cases: Array<[unknown, RegExp]> = [
      [{ keep: 'some' }, /media\.keep/],
      [{ keep: ['image', 'gif'] }, /media\.keep/],
      [{ keep: ['image', 'image'] }, /media\.keep/],
      [{ keep: 'all', maxBytes: 0 }, /media\.maxBytes/],
      [{ keep: 'all', maxBytes: 1.5 }, /media\.maxBytes/],
      [{ keep: 'all', other: 1 }, /media/],
      ['all', /media/],
    ];
    for (const [media, message] of cases) {
      const created = await world.api.post('/v1/chat/instances', { key, body: { name: `bad media ${Date.now()}`, media } });
      expect(created.status, JSON.stringify(media)).toBe(400);
      expect(created.body).toEqual(failure('invalid_request'));
      expect(created.body.error.message).toMatch(message);
      const session = await world.api.post('/chat/instances', { cookie: world.tenant.cookie, body: { name: `bad media ${Date.now()}`, media } });
      expect(session.status, JSON.stringify(media)).toBe(400);
      expect(session.body.error.message).toMatch(message);
    }
    const made = await world.api.post('/chat/instances', { cookie: world.tenant.cookie, body: { name: `media ${Date.now()}`, media: { keep: ['video', 'audio'] } } });
    expect(made.status, made.text).toBe(201);
    const shown = await world.api.get(`/chat/instances/${made.body.data.instanceId}`, { cookie: world.tenant.cookie });
    expect(shown.body.data.media).toEqual({ keep: ['video', 'audio'], maxBytes: 64 * 1024 * 1024 });
    const reset = await world.api.put(`/chat/instances/${made.body.data.instanceId}`, { cookie: world.tenant.cookie, body: { media: null } });
    expect(reset.body.data.media).toEqual({ keep: 'all', maxBytes: 64 * 1024 * 1024 });
  });
});

describe.each(MODES)('Sandbox: a media store that cannot write — $name', (mode) => {
  const dir = mkdtempSync(join(tmpdir(), 'mgw-unwritable-'));
  const world = sandboxWorld(mode, { env: { MEDIA_STORE: 'folder', MEDIA_DIR: dir } });
  const kit = keptMediaOf(world);
  beforeAll(() => {
    // Its drafts' folder becomes a regular file once it started: every write fails (ENOTDIR), as a broken disk would.
    rmSync(join(dir, 'drafts'), { recursive: true, force: true });
    writeFileSync(join(dir, 'drafts'), 'not a folder');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('media.error media_store_failed with the next try, and the message is kept and served by the network', async () => {
    const instance = await kit.instanceWith();
    const sent = await kit.phoneSends(instance, kit.image);
    const messageId = sent.body.data.messageId;
    const update = await kit.mediaUpdate(messageId);
    expect(update.media).toEqual({ stored: false, error: { code: 'media_store_failed', message: expect.any(String) }, retryAt: expect.any(String) });
    expect(Date.parse(update.media.retryAt)).toBeGreaterThan(Date.now() - 5000);
    // Tried again after its backoff (2 s), failing the same way.
    const twice = await eventually(async () => kit.mediaUpdates(messageId), (list) => list.length >= 2, 15_000);
    expect(twice[1].media.error.code).toBe('media_store_failed');
    const answer = await kit.download(messageId);
    expect(answer.status).toBe(200);
    expect(sha256(new Uint8Array(await answer.arrayBuffer()))).toBe(sha256(PNG));
  });
});
