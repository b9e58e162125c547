import { describe, expect, it } from 'vitest';
import { decodeQr } from '../../../../src/infra/qr-decode.js';
import { connectedV1Instance, eventually, newPhone, sleep } from '../../../factories/sandbox.js';
import { ConnectionUpdatedWithInstance, InstanceUpdated, MessageUpdated, QrUpdated } from '../../../graphql/operations.js';
import { MODES } from '../../../kit/modes.js';
import { type Credentials, sseClient, type Subscription, subscribe, wsClient } from '../../../helpers/subscriptions.js';
import { sharedGatewaySuite } from '../../../kit/suite.js';

/** A tenant stream starts with nothing: poke until the first event shows it is attached, then drop what the pokes left. */
async function attached<R>(stream: Subscription<R>, poke: () => Promise<unknown>) {
  for (let i = 0; i < 50; i++) {
    await poke();
    try {
      await stream.next(200);
      break;
    } catch {
      // not attached yet
    }
  }
  await sleep(300);
  while (stream.pending()) await stream.next();
}

/** Reads events until one satisfies `accept`; every one read is about `instanceId`. */
async function until<T>(next: () => Promise<T>, accept: (value: T) => boolean, about: (value: T) => string, instanceId: string) {
  for (let i = 0; i < 10; i++) {
    const value = await next();
    expect(about(value)).toBe(instanceId);
    if (accept(value)) return value;
  }
  throw new Error('the expected event did not come within 10 events');
}

const transports = [
  { name: 'graphql-ws', open: (url: string, credentials: Credentials) => wsClient(url, credentials), close: (c: { dispose(): unknown }) => c.dispose() },
  { name: 'SSE', open: (url: string, credentials: Credentials) => sseClient(url, credentials), close: (c: { dispose(): unknown }) => c.dispose() },
] as const;

describe.each(MODES)('live lists and the attach window — $name', (mode) => {
  const suite = sharedGatewaySuite(mode, { tenants: ['enterprise', 'pro'] });

  describe.each(transports)('over $name', (transport) => {
    it("instanceUpdated: every change to the caller's instances, with the instance as it is now, and not another tenant's", async () => {
      const key = suite.tenant.liveKey;
      const probe = (await suite.api.post('/v1/chat/instances', { key, body: { name: `probe ${transport.name}` } })).body.data.id as string;
      const client = transport.open(suite.gw.url, { key });
      try {
        const updates = subscribe(client, InstanceUpdated, {});
        let n = 0;
        await attached(updates, () => suite.api.put(`/v1/chat/instances/${probe}`, { key, body: { description: `poke ${++n}` } }));

        // Another tenant's change never shows.
        await suite.api.post('/v1/chat/instances', { key: suite.other.liveKey, body: { name: `elsewhere ${transport.name}` } });
        const created = await suite.api.post('/v1/chat/instances', { key, body: { name: `listed ${transport.name}` } });
        const id = created.body.data.id as string;
        type Update = NonNullable<Awaited<ReturnType<typeof updates.next>>['data']>['instanceUpdated'];
        const next = async () => (await updates.next(10_000)).data!.instanceUpdated;
        const about = (u: Update) => u.instanceId;
        const first = await next();
        expect(first).toMatchObject({ instanceId: id, deleted: false, instance: { id, name: `listed ${transport.name}`, active: true } });

        await suite.api.put(`/v1/chat/instances/${id}`, { key, body: { name: `renamed ${transport.name}` } });
        await until(next, (u) => u.instance?.name === `renamed ${transport.name}`, about, id);

        await suite.api.post(`/v1/chat/instances/${id}/toggle`, { key });
        await until(next, (u) => u.instance?.active === false, about, id);

        // A QR code and a scan: the changes of state show, with the phone once it is linked.
        const qr = await suite.api.get(`/v1/chat/instances/${id}/qr`, { key });
        await until(next, (u) => u.instance?.status === 'qr_code', about, id);
        const phone = newPhone();
        await suite.api.post('/sandbox/scan', { body: { code: decodeQr(qr.body.data.qrCode), phone } });
        const linked = await until(next, (u) => u.instance?.status === 'connected', about, id);
        expect(linked.instance!.phoneNumber).toBe(phone);

        await suite.api.delete(`/v1/chat/instances/${id}`, { key });
        const gone = await until(next, (u) => u.deleted, about, id);
        expect(gone).toEqual({ instanceId: id, deleted: true, instance: null });
        await sleep(200);
        expect(updates.pending()).toBe(0);
        await updates.stop();
      } finally {
        await transport.close(client);
      }
    });

    it('connectionUpdated carries the instance itself, so a cache follows the events', async () => {
      const key = suite.tenant.liveKey;
      const id = (await suite.api.post('/v1/chat/instances', { key, body: { name: `cached ${transport.name}` } })).body.data.id as string;
      const client = transport.open(suite.gw.url, { key });
      try {
        const statuses = subscribe(client, ConnectionUpdatedWithInstance, { instanceId: id });
        expect((await statuses.next(10_000)).data!.connectionUpdated).toEqual({ instanceId: id, status: 'initializing', instance: { id, status: 'initializing', phoneNumber: null } });
        const qr = await suite.api.get(`/v1/chat/instances/${id}/qr`, { key });
        expect((await statuses.next()).data!.connectionUpdated.instance).toMatchObject({ id, status: 'qr_code' });
        const phone = newPhone();
        await suite.api.post('/sandbox/scan', { body: { code: decodeQr(qr.body.data.qrCode), phone } });
        let last = (await statuses.next()).data!.connectionUpdated;
        while (last.status !== 'connected') last = (await statuses.next()).data!.connectionUpdated;
        expect(last.instance).toEqual({ id, status: 'connected', phoneNumber: phone });
        await statuses.stop();
      } finally {
        await transport.close(client);
      }
    });

    it("messageUpdated: each status change of the caller's messages, in order, with the message", async () => {
      const key = suite.tenant.liveKey;
      const line = await connectedV1Instance(suite.api, key, `log line ${transport.name}`);
      const client = transport.open(suite.gw.url, { key });
      try {
        const log = subscribe(client, MessageUpdated, {});
        await attached(log, () => suite.api.post('/v1/messages/send', { key, body: { to: '5511977770000', text: 'poke' } }));
        await sleep(500);
        while (log.pending()) await log.next();

        await suite.api.post('/v1/messages/send', { key: suite.other.liveKey, body: { to: '5511977770001', text: 'not yours' } });
        const to = newPhone().slice(1);
        const sent = await suite.api.post(`/v1/messages/send`, { key, body: { to, text: 'watch me' } });
        const id = sent.body.data.id as string;
        const statuses: string[] = [];
        while (!statuses.includes('delivered')) {
          const update = (await log.next()).data!.messageUpdated;
          if (update.messageId !== id) continue; // the pokes' late receipts
          statuses.push(update.status);
          expect(update.message).toMatchObject({ id, to });
          expect(Date.parse(update.timestamp)).not.toBeNaN();
        }
        expect(statuses).toEqual(['sent', 'delivered']);
        await suite.api.post(`/sandbox/phones/${to}/read`, { body: { messageId: id } });
        let read = (await log.next()).data!.messageUpdated;
        while (read.messageId !== id) read = (await log.next()).data!.messageUpdated;
        expect(read).toMatchObject({ messageId: id, status: 'read', message: { id, status: 'read' } });
        await log.stop();
        expect(line.id).toBeTruthy();
      } finally {
        await transport.close(client);
      }
    });

    it('qrUpdated across the attach window, 50 rounds of subscribing while the code changes: the live code first, nothing lost, nothing twice', async () => {
      const cookie = suite.tenant.cookie;
      const created = await suite.api.post('/chat/instances', { cookie, body: { name: `rotating ${transport.name}` } });
      const id = created.body.data.instanceId as string;
      // Its first code comes by itself; a regenerate racing it would be answered 409 (try again).
      await eventually(() => suite.api.get(`/chat/instances/${id}`, { cookie }), (r) => Boolean(r.body.data?.qrCode));
      const client = transport.open(suite.gw.url, { cookie });
      try {
        for (let round = 0; round < 50; round++) {
          const codes = subscribe(client, QrUpdated, { instanceId: id });
          // The new series starts while the subscription attaches.
          const regenerated = await suite.api.post(`/chat/instances/${id}/regenerate-qr`, { cookie });
          expect(regenerated.status, regenerated.text).toBe(200);
          const latest = regenerated.body.data.qrCode.attemptId as string;
          const seen: string[] = [];
          while (seen.at(-1) !== latest) seen.push((await codes.next()).data!.qrUpdated.attemptId);
          // The code shown before (if the snapshot came first), then the new one; never the same one twice.
          expect(seen.length).toBeLessThanOrEqual(2);
          expect(new Set(seen).size).toBe(seen.length);
          await codes.stop();
        }
      } finally {
        await transport.close(client);
      }
    }, 60_000);
  });
});
