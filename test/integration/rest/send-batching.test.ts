import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { connectedSessionInstance, connectedV1Instance, eventually, sleep } from '../../factories/sandbox.js';
import { createTenant } from '../../factories/tenants.js';
import { gatewaySuite } from '../../kit/suite.js';
import { MODES } from '../../kit/modes.js';
import { startReceiver } from '../../helpers/receiver.js';

const newPhoneDigits = () => `55119${Math.floor(10_000_000 + Math.random() * 89_999_999)}`;

/**
 * What writing sends, `sent` marks and receipts in groups must not break: one message per
 * idempotency key, exact quotas, failures that stay with their own request, and the cost of a
 * message's whole life in database round trips.
 */
describe.each(MODES)('grouped writes on the message path — $name', (mode) => {
  const roundTrips: string[] = [];
  const suite = gatewaySuite(mode, {
    env: { RATE_LIMIT_BURST: '1000', DAILY_MESSAGES_STARTER: '25', WEBHOOK_ALLOW_INSECURE: 'true' },
    infra: { onQuery: (sql) => void roundTrips.push(sql) },
  });
  const prisma = () => suite.gw.gateway.infra.db.prisma;

  it('200 concurrent sends, 100 of them over 20 shared idempotency keys: one message per key, replays answer as the first', async () => {
    const tenant = await createTenant(suite.gw.gateway, suite.api);
    await connectedV1Instance(suite.api, tenant.liveKey, 'keys-line');
    const to = newPhoneDigits();
    const keys = Array.from({ length: 20 }, () => randomUUID());
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => {
        const key = i % 2 === 0 ? keys[(i / 2) % 20]! : undefined;
        const text = key ? `keyed ${key}` : `plain ${i}`;
        return suite.api
          .post('/v1/messages/send', { key: tenant.liveKey, body: { to, text }, headers: key ? { 'idempotency-key': key } : {} })
          .then((response) => ({ key, response }));
      }),
    );
    expect(answers.map((a) => a.response.status)).toEqual(Array(200).fill(200));
    for (const key of keys) {
      const bodies = answers.filter((a) => a.key === key).map((a) => a.response.text);
      expect(bodies).toHaveLength(5);
      expect(new Set(bodies).size, `answers for key ${key}`).toBe(1);
    }
    const ids = new Set(answers.map((a) => a.response.body.data.id));
    expect(ids.size).toBe(120);
    expect(await prisma().message.count({ where: { tenantId: tenant.tenantId } })).toBe(120);
    expect(await prisma().idempotencyRecord.count({ where: { tenantId: tenant.tenantId } })).toBe(20);
    // A key sent again later still replays the first answer, byte for byte.
    const first = answers.find((a) => a.key === keys[3])!;
    const again = await suite.api.post('/v1/messages/send', {
      key: tenant.liveKey,
      body: { to, text: `keyed ${keys[3]}` },
      headers: { 'idempotency-key': keys[3]! },
    });
    expect(again.text).toBe(first.response.text);
  });

  it('keeps the daily quota exact under 60 concurrent sends: 25 accepted and stored, 35 refused', async () => {
    const tenant = await createTenant(suite.gw.gateway, suite.api, 'starter');
    await connectedV1Instance(suite.api, tenant.liveKey, 'quota-line');
    const to = newPhoneDigits();
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => suite.api.post('/v1/messages/send', { key: tenant.liveKey, body: { to, text: `quota ${i}` } })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(25);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(35);
    for (const answer of refused) expect(answer.body.error.code).toBe('rate_limit_exceeded');
    expect(await prisma().message.count({ where: { tenantId: tenant.tenantId } })).toBe(25);
  });

  it('fails only the sends through an instance deleted mid-burst; sends through the other instance in the same groups all pass', async () => {
    const tenant = await createTenant(suite.gw.gateway, suite.api);
    const kept = await connectedSessionInstance(suite.api, tenant.cookie, 'kept-line');
    const doomed = await connectedSessionInstance(suite.api, tenant.cookie, 'doomed-line');
    await eventually(() => suite.api.get(`/chat/instances/${doomed.id}`, { cookie: tenant.cookie }), (r) => r.body.data?.status === 'connected');
    await eventually(() => suite.api.get(`/chat/instances/${kept.id}`, { cookie: tenant.cookie }), (r) => r.body.data?.status === 'connected');
    const to = newPhoneDigits();
    const through = (instanceId: string, i: number) =>
      suite.api.post(`/chat/instances/${instanceId}/send-text`, { cookie: tenant.cookie, body: { to, message: `burst ${i}` } });
    const burst = Array.from({ length: 80 }, (_, i) => through(i % 2 ? kept.id : doomed.id, i));
    await sleep(5);
    const deleted = await suite.api.delete(`/chat/instances/${doomed.id}`, { cookie: tenant.cookie });
    expect(deleted.status).toBe(200);
    const answers = await Promise.all(burst);
    const keptAnswers = answers.filter((_, i) => i % 2 === 1);
    const doomedAnswers = answers.filter((_, i) => i % 2 === 0);
    expect(keptAnswers.map((a) => a.status)).toEqual(Array(40).fill(200));
    // Each send through the deleted instance either made it before the delete or was refused in the envelope.
    for (const answer of doomedAnswers) {
      expect([200, 404, 409]).toContain(answer.status);
      if (answer.status !== 200) expect(answer.body.success).toBe(false);
    }
    expect(await prisma().message.count({ where: { instanceId: kept.id } })).toBe(40);
  });

  it('re-routes a send whose cached pick went stale instead of storing it on an instance that can no longer carry it', async () => {
    const tenant = await createTenant(suite.gw.gateway, suite.api);
    const stale = await connectedV1Instance(suite.api, tenant.liveKey, 'stale-line');
    const to = newPhoneDigits();
    // Warm this node's routing memory, then change the instance behind its back (no invalidation).
    expect((await suite.api.post('/v1/messages/send', { key: tenant.liveKey, body: { to, text: 'warm' } })).status).toBe(200);
    await prisma().instance.update({ where: { id: stale.id }, data: { active: false } });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => suite.api.post('/v1/messages/send', { key: tenant.liveKey, body: { to, text: `after ${i}` } })),
    );
    // The tenant has no active instance left: every send is refused, none is stored on the inactive one.
    for (const answer of answers) {
      expect(answer.status).toBe(409);
      expect(answer.body.error.code).toBe('instance_unavailable');
    }
    expect(await prisma().message.count({ where: { instanceId: stale.id } })).toBe(1);
  });

  it('costs at most 3 database round trips per message over its whole life (accept, sent, delivered, events) under load', async () => {
    const tenant = await createTenant(suite.gw.gateway, suite.api);
    await connectedV1Instance(suite.api, tenant.liveKey, 'counted-line');
    const to = newPhoneDigits();
    roundTrips.length = 0;
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => suite.api.post('/v1/messages/send', { key: tenant.liveKey, body: { to, text: `counted ${i}` } })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(200).fill(200));
    const ids = answers.map((a) => a.body.data.id as string);
    const counted = () => roundTrips.length;
    let polls = 0;
    await eventually(
      async () => {
        polls++;
        return prisma().message.count({ where: { id: { in: ids }, status: 'delivered' } });
      },
      (delivered) => delivered === 200,
      20_000,
    );
    // The test's own polling reads are not the gateway's.
    const perMessage = (counted() - polls) / 200;
    expect(perMessage, `${counted() - polls} round trips for 200 messages`).toBeLessThanOrEqual(3);
    // No webhook and no broker reads these messages' events: none of them got a row.
    expect(await prisma().outboxEvent.count({ where: { tenantId: tenant.tenantId, event: { startsWith: 'messages.' } } })).toBe(0);
  });

  it('writes each message\'s events once, with its webhook deliveries, when 100 sends are grouped', async () => {
    const receiver = await startReceiver();
    try {
      const tenant = await createTenant(suite.gw.gateway, suite.api);
      const { id: instanceId } = await connectedV1Instance(suite.api, tenant.liveKey, 'hooked-line');
      const hooked = await suite.api.post(`/v1/chat/instances/${instanceId}/webhook`, { key: tenant.liveKey, body: { url: receiver.url, events: ['messages.upsert', 'messages.update'] } });
      expect(hooked.status).toBe(200);
      const to = newPhoneDigits();
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) => suite.api.post('/v1/messages/send', { key: tenant.liveKey, body: { to, text: `hooked ${i}` } })),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(100).fill(200));
      const ids = answers.map((a) => a.body.data.id as string);
      await eventually(() => prisma().message.count({ where: { id: { in: ids }, status: 'delivered' } }), (delivered) => delivered === 100, 20_000);
      const events = await prisma().outboxEvent.findMany({ where: { instanceId }, select: { id: true, event: true, data: true } });
      const deliveries = await prisma().webhookDelivery.findMany({ where: { instanceId }, select: { eventId: true } });
      for (const id of ids) {
        const mine = events.filter((e) => (e.data as { messageId?: string }).messageId === id);
        expect(mine.map((e) => `${e.event}:${(e.data as { status?: string }).status ?? ''}`).sort()).toEqual(['messages.update:delivered', 'messages.update:sent', 'messages.upsert:']);
        for (const event of mine) expect(deliveries.filter((d) => d.eventId === event.id)).toHaveLength(1);
      }
      // And the receiver gets them: 300 deliveries, one per event.
      await eventually(async () => receiver.received.length, (n) => n >= 300, 20_000);
    } finally {
      await receiver.close();
    }
  });
});
