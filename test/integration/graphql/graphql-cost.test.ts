import { print } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import * as dashboard from '../../../src/dashboard/operations.js';
import { connectedV1Instance } from '../../factories/sandbox.js';
import type { TestTenant } from '../../factories/tenants.js';
import { InstanceGroups, InstancesWithRelations, ListInstances, ListMessages, WebhookDeliveries } from '../../graphql/operations.js';
import type { Client, GraphQLErrors } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';
import { executeOnce, sseClient, wsClient } from '../../helpers/subscriptions.js';
import { sharedGatewaySuite } from '../../kit/suite.js';

/** 15 aliases of messages → instance → messages, each page `first` as given (docs/graphql.md "Cost"). */
const nested = (n: string) => `messages(first: ${n}) { edges { node { id text to status instance { id messages(first: ${n}) { edges { node { id text to status } } } } } } }`;
const aliased = (n: string) => Array.from({ length: 15 }, (_, i) => `a${i}: ${nested(n)}`).join(' ');
const ATTACK = `query Attack($n: Int) { ${aliased('$n')} }`;
const ATTACK_LITERAL = `query AttackLiteral { ${aliased('100')} }`;
/** Cheap in cost (only __typename under the pages), heavy in objects. */
const MANY_NODES = 'query ManyNodes($n: Int) { instances(first: $n) { edges { node { messages(first: $n) { edges { node { __typename } } } } } } }';
/** Every message's instance asks the engine for its groups. */
const GROUPS = `query GroupsPerMessage($n: Int) { ${Array.from({ length: 15 }, (_, i) => `g${i}: messages(first: $n) { edges { node { instance { groups { id } } } } }`).join(' ')} }`;
const CREATE_HEAVY = `mutation CreateHeavy($name: String!, $n: Int) {
  createInstance(input: { name: $name, variant: V1 }) {
    instance { id messages(first: $n) { edges { node { id instance { messages(first: $n) { edges { node { id text to status } } } } } } } }
    userErrors { code message }
  }
}`;
const HEAVY_SUBSCRIPTION = `subscription HeavyStatus($id: ID!, $n: Int) {
  connectionUpdated(instanceId: $id) {
    status
    instance { messages(first: $n) { edges { node { id instance { messages(first: $n) { edges { node { id text to status } } } } } } } }
  }
}`;

type Refusal = { message: string; extensions?: Record<string, unknown> };
const costRefusal = (estimated = expect.any(Number)) => ({
  message: expect.stringMatching(/cost limit of 20000/),
  extensions: { code: 'invalid_request', limit: 'cost', max: 20000, estimated },
});
const limitErrors = (errors: GraphQLErrors | readonly Refusal[] | undefined) => (errors ?? []).filter((e) => e.extensions?.limit);

describe.each(MODES)('GraphQL cost with variables — $name', (mode) => {
  let api: Client;
  let url: string;
  let tenant: TestTenant;
  let instanceId: string;

  const suite = sharedGatewaySuite(mode, { tenants: ['enterprise'] });
  beforeAll(async () => {
    ({ api } = suite);
    url = suite.gw.url;
    tenant = suite.tenants[0]!;
    instanceId = (await connectedV1Instance(api, tenant.liveKey, 'cost')).id;
    for (let i = 0; i < 3; i++) expect((await api.post('/v1/messages/send', { key: tenant.liveKey, body: { to: '5511955554444', text: `cost ${i}` } })).status).toBe(200);
  });

  const http = (query: string, variables: Record<string, unknown> = {}) => api.graphql(query, variables, { key: tenant.liveKey });

  it('refuses the nested query with `first: $n` = 100 before it runs, at the same cost as with a literal 100', async () => {
    const refused = await http(ATTACK, { n: 100 });
    expect(refused.status).toBe(200);
    expect(refused.body.data).toBeUndefined();
    expect(refused.body.errors).toEqual([costRefusal()]);
    const estimated = refused.body.errors![0]!.extensions!.estimated as number;
    expect(estimated).toBeGreaterThan(20000);

    const literal = await http(ATTACK_LITERAL);
    expect(literal.body.errors).toEqual([costRefusal(estimated)]);
    // A variable left out counts as the default page; one declared with a default counts that.
    const defaulted = await http(ATTACK.replace('$n: Int', '$n: Int = 100'));
    expect(defaulted.body.errors).toEqual([costRefusal(estimated)]);
  });

  it('answers the same text with small pages, then refuses it with large ones (a known text skips validation, not the cost)', async () => {
    for (const n of [1, 1]) {
      const small = await http(ATTACK, { n });
      expect(small.body.errors).toBeUndefined();
      expect(small.body.data!.a0.edges).toHaveLength(1);
    }
    const large = await http(ATTACK, { n: 100 });
    expect(large.body.data).toBeUndefined();
    expect(large.body.errors).toEqual([costRefusal()]);
    const wrongType = await http(ATTACK, { n: '100' });
    expect(wrongType.body.errors).toEqual([costRefusal()]);
    expect((await http(ATTACK, { n: 1 })).body.errors).toBeUndefined();
    // A bad page is the list's own refusal, not the cost's.
    const negative = await http(ATTACK, { n: -5 });
    expect(limitErrors(negative.body.errors)).toEqual([]);
    expect(negative.body.errors?.[0]?.extensions?.code).toBe('invalid_request');
  });

  it('answers a refusal asked as application/graphql-response+json with 400, like a bad document', async () => {
    for (const query of [ATTACK, `${ATTACK} # not seen before`]) {
      const refused = await api.post('/graphql', {
        key: tenant.liveKey,
        headers: { accept: 'application/graphql-response+json' },
        body: { query, variables: { n: 100 } },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([costRefusal()]);
    }
  });

  it('refuses an answer of too many objects even when its cost is within the limit', async () => {
    const refused = await http(MANY_NODES, { n: 100 });
    expect(refused.body.data).toBeUndefined();
    expect(refused.body.errors).toEqual([
      {
        message: expect.stringMatching(/node limit of 10000/),
        extensions: { code: 'invalid_request', limit: 'nodes', max: 10000, estimated: expect.any(Number) },
      },
    ]);
    expect(refused.body.errors![0]!.extensions!.estimated).toBeGreaterThan(10000);
    expect((await http(MANY_NODES, { n: 40 })).body.errors).toBeUndefined();
  });

  it('costs each engine call as a round trip: groups under every message is refused, groups of one instance answered', async () => {
    const refused = await http(GROUPS, { n: 2 });
    expect(refused.body.data).toBeUndefined();
    expect(refused.body.errors).toEqual([costRefusal()]);
    const one = await api.operation(InstanceGroups, { id: instanceId, groupId: '120363012345678901@g.us', withGroup: true }, { key: tenant.liveKey });
    expect(limitErrors(one.body.errors)).toEqual([]);
    expect(one.body.data!.instance!.id).toBe(instanceId);
  });

  it('runs the dashboard and the clients operations with their variables', async () => {
    const auth = { key: tenant.liveKey };
    const log = await api.operation(dashboard.Messages, { filter: { instanceId }, after: null }, auth);
    expect(log.body.errors).toBeUndefined();
    expect(log.body.data!.messages.totalCount).toBe(3);
    const answers = [
      await api.operation(dashboard.InstanceList, { after: null }, auth),
      await api.operation(dashboard.Messages, { filter: null, after: null }, auth),
      await api.operation(dashboard.Deliveries, { id: instanceId }, auth),
      await api.operation(dashboard.InstanceDetail, { id: instanceId }, auth),
      await api.operation(dashboard.ApiKeys, {}, auth),
      await api.operation(InstancesWithRelations, { first: 50 }, auth),
      await api.operation(ListInstances, { first: 100 }, auth),
      await api.operation(ListMessages, { first: 100 }, auth),
      await api.operation(WebhookDeliveries, { id: instanceId }, auth),
    ];
    for (const answer of answers) expect(answer.body.errors).toBeUndefined();
  });

  it('refuses a costly mutation before it runs: nothing is created', async () => {
    const name = `heavy ${Math.random().toString(36).slice(2, 8)}`;
    const refused = await http(CREATE_HEAVY, { name, n: 100 });
    expect(refused.body.errors).toEqual([costRefusal()]);
    expect(await instanceNamed(name)).toBeUndefined();
    const light = await http(CREATE_HEAVY, { name, n: 2 });
    expect(light.body.data!.createInstance.userErrors).toEqual([]);
    expect(await instanceNamed(name)).toBeDefined();
  });

  async function instanceNamed(name: string) {
    const list = await api.get('/v1/chat/instances?limit=100', { key: tenant.liveKey });
    return (list.body.data as Array<{ name: string }>).find((i) => i.name === name);
  }

  it('refuses the same query and mutation over graphql-ws with an error message, and runs them with small pages', async () => {
    const ws = wsClient(url, { key: tenant.liveKey });
    try {
      expect((await executeOnce(ws, ATTACK, { n: 100 })).errors).toEqual([costRefusal()]);
      expect((await executeOnce(ws, ATTACK_LITERAL)).errors).toEqual([costRefusal()]);
      expect((await executeOnce(ws, MANY_NODES, { n: 100 })).errors?.[0]?.extensions).toMatchObject({ code: 'invalid_request', limit: 'nodes' });
      const small = await executeOnce(ws, ATTACK, { n: 1 });
      expect(small.errors).toBeUndefined();

      const name = `heavy ws ${Math.random().toString(36).slice(2, 8)}`;
      expect((await executeOnce(ws, CREATE_HEAVY, { name, n: 100 })).errors).toEqual([costRefusal()]);
      expect(await instanceNamed(name)).toBeUndefined();
      for (const operation of [dashboard.InstanceList, dashboard.Messages]) {
        expect((await executeOnce(ws, print(operation), { after: null, filter: { instanceId } })).errors).toBeUndefined();
      }
    } finally {
      await ws.dispose();
    }
  });

  it('refuses a costly subscription over graphql-ws and SSE, and starts it with small pages', async () => {
    for (const open of [() => wsClient(url, { key: tenant.liveKey }), () => sseClient(url, { key: tenant.liveKey })]) {
      const client = open();
      try {
        const refused = await firstOf(client, HEAVY_SUBSCRIPTION, { id: instanceId, n: 100 });
        expect(refused.errors).toEqual([costRefusal()]);
        const started = await firstOf(client, HEAVY_SUBSCRIPTION, { id: instanceId, n: 2 });
        expect(started.errors).toBeUndefined();
        expect(started.data).toMatchObject({ connectionUpdated: { status: 'connected' } });
        const dashboardStream = await firstOf(client, print(dashboard.ConnectionChanges), { instanceId });
        expect(dashboardStream.data).toMatchObject({ connectionUpdated: { instanceId, status: 'connected' } });
      } finally {
        await client.dispose();
      }
    }
  });
});

/** The first thing a subscription yields, or the errors it was refused with; then it is stopped. */
async function firstOf(
  client: { iterate(request: { query: string; variables: Record<string, unknown> }): AsyncIterableIterator<unknown> },
  query: string,
  variables: Record<string, unknown>,
): Promise<{ data?: unknown; errors?: Refusal[] }> {
  const iterator = client.iterate({ query, variables });
  try {
    const { value, done } = await iterator.next();
    if (done) throw new Error('the subscription ended without a result');
    return value as { data?: unknown; errors?: Refusal[] };
  } catch (error) {
    if (Array.isArray(error)) return { errors: error as Refusal[] };
    throw error;
  } finally {
    await iterator.return?.();
  }
}
