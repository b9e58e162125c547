import { randomUUID } from 'node:crypto';
import { serverAudits } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InstancesWithRelations } from '../../graphql/operations.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { client } from '../../helpers/http.js';
import { codesOf } from '../../helpers/http.js';
import { gatewaySuite } from '../../kit/suite.js';
import { MODES } from '../../kit/modes.js';

describe.each(MODES)('GraphQL over HTTP: conformance, guards and query cost — $name', (mode) => {
  let recording: string[] | undefined;

  const suite = gatewaySuite(mode, { infra: { onQuery: (sql) => recording?.push(sql) }, tenants: ['enterprise'] });

  it('passes every MUST audit of the GraphQL over HTTP spec (graphql-http)', async () => {
    const failed: string[] = [];
    for (const audit of serverAudits({ url: `${suite.gw.url}/graphql` })) {
      const result = await audit.fn();
      if (audit.name.startsWith('MUST') && result.status !== 'ok') failed.push(`${audit.name}: ${result.reason}`);
    }
    expect(failed).toEqual([]);
  });

  it('reads 50 instances with their messages, deliveries and attempts in at most 3 SQL queries', async () => {
    const prisma = suite.gw.gateway.infra.db.prisma;
    const instances = Array.from({ length: 50 }, (_, n) => ({
      id: randomUUID(),
      tenantId: suite.tenant.tenantId,
      name: `bulk ${n}`,
      variant: 'v1' as const,
      // Not paired: 50 instances needing an owner would have this node place and attach them while the reads are counted.
      state: 'created' as const,
      webhookSecret: 'whsec_bulk',
      webhookUrl: 'https://example.com/hook',
    }));
    await prisma.instance.createMany({ data: instances });
    const events = instances.map((i) => ({ id: randomUUID(), tenantId: suite.tenant.tenantId, instanceId: i.id, event: 'connection.update', data: {} }));
    await prisma.outboxEvent.createMany({ data: events });
    const deliveries = events.map((e) => ({ id: randomUUID(), instanceId: e.instanceId!, eventId: e.id, event: e.event, url: 'https://example.com/hook', payload: '{}', status: 'delivered' as const, attemptCount: 1 }));
    await prisma.webhookDelivery.createMany({ data: deliveries });
    await prisma.webhookAttempt.createMany({ data: deliveries.map((d) => ({ deliveryId: d.id, number: 1, startedAt: new Date(), statusCode: 200, durationMs: 12 })) });
    await prisma.message.createMany({
      data: instances.flatMap((i) => [1, 2].map((n) => ({ tenantId: suite.tenant.tenantId, instanceId: i.id, direction: 'out' as const, to: '5511999999999', text: `m${n}`, mode: 'production' as const, status: 'sent' as const }))),
    });

    // Background clocks (QR rotation, delivery sweeps) share the client; the quietest of three runs is the request's own count.
    const counts: number[] = [];
    for (let run = 0; run < 3; run++) {
      recording = [];
      const answer = await suite.api.operation(InstancesWithRelations, { first: 50 }, { key: suite.tenant.liveKey });
      counts.push(recording.length);
      recording = undefined;
      const list = answer.body.data!.instances;
      if (!list) throw new Error(JSON.stringify(answer.body).slice(0, 500));
      expect(list.edges).toHaveLength(50);
      for (const { node } of list.edges) {
        expect(node.messages.edges).toHaveLength(2);
        expect(node.messages.totalCount).toBe(2);
        expect(node.webhookDeliveries.edges[0]!.node.attempts).toEqual([{ number: 1, statusCode: 200, durationMs: 12 }]);
      }
    }
    expect(Math.min(...counts), `SQL queries per run: ${counts.join(', ')}`).toBeLessThanOrEqual(3);
  });

  it('rejects documents that are too deep, alias too much, cost too much or are too long, before running them', async () => {
    const deep = await suite.api.graphql(
      '{ instances { edges { node { messages { edges { node { instance { messages { edges { node { instance { messages { edges { node { id } } } } } } } } } } } } } } }',
      {},
      { key: suite.tenant.liveKey },
    );
    expect(deep.status).toBe(200);
    expect(deep.body.data).toBeUndefined();
    expect(deep.body.errors?.[0]?.message).toMatch(/depth limit of 12/);

    const aliases = Array.from({ length: 16 }, (_, n) => `a${n}: me { __typename }`).join(' ');
    const aliased = await suite.api.graphql(`{ ${aliases} }`, {}, { key: suite.tenant.liveKey });
    expect(aliased.body.data).toBeUndefined();
    expect(aliased.body.errors?.[0]?.message).toMatch(/aliases/i);

    const costly = await suite.api.graphql(
      '{ instances(first: 100) { edges { node { id messages(first: 100) { edges { node { id text to status } } } } } } }',
      {},
      { key: suite.tenant.liveKey },
    );
    expect(costly.body.data).toBeUndefined();
    expect(costly.body.errors?.[0]?.message).toMatch(/cost limit of 20000/i);

    const long = await suite.api.graphql(`{ me { ${Array.from({ length: 2100 }, () => '__typename').join(' ')} } }`, {}, { key: suite.tenant.liveKey });
    expect(long.body.data).toBeUndefined();
    expect(long.body.errors?.[0]?.message).toMatch(/token/i);
  });

  it('answers a body over the size limit with 413 in the error envelope', async () => {
    const big = await suite.api.post('/graphql', { key: suite.tenant.liveKey, body: { query: `{ me { __typename } } # ${'x'.repeat(110 * 1024)}` } });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ success: false, error: { code: 'payload_too_large', message: 'The request body is larger than 102400 bytes.' } });
    const fine = await suite.api.post('/graphql', { key: suite.tenant.liveKey, body: { query: '{ me { __typename } }' } });
    expect(fine.body.data).toEqual({ me: { __typename: 'Me' } });
  });

  it('serves introspection by default', async () => {
    const introspected = await suite.api.graphql('{ __schema { queryType { name } } }');
    expect(introspected.body.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
  });
});

describe('GraphQL with introspection turned off', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway(MODES[0]!, { env: { GRAPHQL_INTROSPECTION: 'false', GRAPHQL_MAX_DEPTH: '3' } });
  });
  afterAll(() => gw?.close());

  it('refuses __schema and __type, and still answers ordinary queries within the configured depth', async () => {
    const api = client(gw.url);
    for (const query of ['{ __schema { queryType { name } } }', '{ __type(name: "Query") { name } }']) {
      const refused = await api.graphql(query);
      expect(refused.status).toBe(200);
      expect(refused.body.data).toBeUndefined();
      expect(refused.body.errors?.[0]?.message).toMatch(/introspection/i);
    }
    const anonymous = await api.graphql('{ me { __typename } }');
    expect(anonymous.body.data).toBeNull();
    expect(codesOf(anonymous.body)).toEqual(['unauthorized']);
    const deep = await api.graphql('{ me { tenant { limits { instances { used } } } } }');
    expect(deep.body.errors?.[0]?.message).toMatch(/depth limit of 3/);
  });
});
