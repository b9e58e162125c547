import { Client, fetchExchange, subscriptionExchange } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import { relayPagination } from '@urql/exchange-graphcache/extras';
import { describe, expect, it } from 'vitest';
import { decodeQr } from '../../../../src/infra/qr-decode.js';
import { eventually, newPhone } from '../../../factories/sandbox.js';
import { graphql } from '../../../graphql/generated/index.js';
import { MODES } from '../../../kit/modes.js';
import { sharedGatewaySuite } from '../../../kit/suite.js';
import { wsClient } from '../../../helpers/subscriptions.js';

/**
 * A client as a frontend writes it: urql with its normalized cache (graphcache) and no cache code of
 * its own beyond the stock relayPagination() helper. Entities carry __typename + id, payloads and
 * events carry the entity, so the cached list follows mutations and subscription events by itself.
 */

const Instances = graphql(`
  query CachedInstances($first: Int!, $after: String) {
    instances(first: $first, after: $after) {
      totalCount
      edges { node { id name status active phoneNumber } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

const CreateForCache = graphql(`
  mutation CreateForCache($name: String!) {
    createInstance(input: { name: $name }) { instance { id name status } userErrors { code field message } }
  }
`);

const RequestQrForCache = graphql(`
  mutation RequestQrForCache($id: ID!) {
    requestQrCode(input: { id: $id }) { instance { id status } qrCode { qrCode } userErrors { code message } }
  }
`);

const DeactivateForCache = graphql(`
  mutation DeactivateForCache($id: ID!) {
    setInstanceActive(input: { id: $id, active: false }) { instance { id active } userErrors { code message } }
  }
`);

const StatusesForCache = graphql(`
  subscription StatusesForCache($instanceId: ID!) {
    connectionUpdated(instanceId: $instanceId) { instanceId status instance { id status phoneNumber } }
  }
`);

describe.each(MODES)('a client cache (urql graphcache) against the gateway — $name', (mode) => {
  const suite = sharedGatewaySuite(mode, { tenants: ['enterprise'] });

  function urql(key: string) {
    const ws = wsClient(suite.gw.url, { key });
    const client = new Client({
      url: `${suite.gw.url}/graphql`,
      fetchOptions: { headers: { authorization: `Bearer ${key}` } },
      exchanges: [
        cacheExchange({ resolvers: { Query: { instances: relayPagination() } } }),
        fetchExchange,
        subscriptionExchange({
          forwardSubscription: (request) => ({
            subscribe: (sink) => ({ unsubscribe: ws.subscribe({ ...request, query: request.query ?? '' }, sink) }),
          }),
        }),
      ],
    });
    return { client, close: () => ws.dispose() };
  }

  it('keeps a cached list current from mutation payloads and subscription events, with no cache code', async () => {
    const key = suite.tenants[0]!.liveKey;
    const { client, close } = urql(key);
    try {
      const created = await client.mutation(CreateForCache, { name: 'cached one' }).toPromise();
      const id = created.data!.createInstance.instance!.id;
      const listed = await client.query(Instances, { first: 10 }).toPromise();
      expect(listed.error).toBeUndefined();
      expect(listed.data!.instances.edges.map((e) => e.node)).toContainEqual(expect.objectContaining({ id, name: 'cached one', status: 'initializing', active: true, phoneNumber: null }));
      const cached = () => client.readQuery(Instances, { first: 10 })!.data!.instances.edges.map((e) => e.node).find((n) => n.id === id)!;

      const events: string[] = [];
      const subscription = client.subscription(StatusesForCache, { instanceId: id }).subscribe((result) => {
        if (result.data) events.push(result.data.connectionUpdated.status);
      });
      await eventually(async () => events.length, (n) => n >= 1);

      // The mutation's payload carries the instance: the list entry changes without a refetch.
      const qr = await client.mutation(RequestQrForCache, { id }).toPromise();
      expect(cached().status).toBe('qr_code');
      const deactivated = await client.mutation(DeactivateForCache, { id }).toPromise();
      expect(deactivated.data!.setInstanceActive.userErrors).toEqual([]);
      expect(cached().active).toBe(false);

      // Events carry the instance too: scanning turns the cached entry connected, with its phone.
      const phone = newPhone();
      const scanned = await fetch(`${suite.gw.url}/sandbox/scan`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code: decodeQr(qr.data!.requestQrCode.qrCode!.qrCode), phone }),
      });
      expect(scanned.status).toBe(200);
      await eventually(async () => cached(), (entry) => entry.status === 'connected');
      expect(cached()).toMatchObject({ status: 'connected', phoneNumber: phone });
      expect(events).toEqual(expect.arrayContaining(['connecting', 'connected']));
      subscription.unsubscribe();
    } finally {
      await close();
    }
  });

  it('merges two pages into one cached list with relayPagination()', async () => {
    const key = suite.tenants[0]!.liveKey;
    const { client, close } = urql(key);
    try {
      for (const n of [1, 2, 3, 4]) expect((await client.mutation(CreateForCache, { name: `paged ${n}` }).toPromise()).data!.createInstance.userErrors).toEqual([]);
      const first = await client.query(Instances, { first: 2 }, { requestPolicy: 'network-only' }).toPromise();
      expect(first.data!.instances.edges).toHaveLength(2);
      const total = first.data!.instances.totalCount;
      expect(total).toBeGreaterThanOrEqual(4);
      const second = await client.query(Instances, { first: 2, after: first.data!.instances.pageInfo.endCursor }, { requestPolicy: 'network-only' }).toPromise();
      expect(second.data!.instances.edges.length).toBeGreaterThan(0);
      // The cache answers the first page's query with both pages, in order, without a duplicate.
      const merged = client.readQuery(Instances, { first: 2 })!.data!.instances.edges.map((e) => e.node.id);
      expect(merged).toHaveLength(4);
      expect(new Set(merged).size).toBe(4);
      expect(merged.slice(0, 2)).toEqual(first.data!.instances.edges.map((e) => e.node.id));
    } finally {
      await close();
    }
  });

  it('shows a refused caller as a GraphQL error with its code, not a network error', async () => {
    const { client, close } = urql('mgw_live_not_a_key');
    try {
      const refused = await client.query(Instances, { first: 1 }).toPromise();
      expect(refused.error?.graphQLErrors.map((e) => e.extensions.code)).toEqual(['invalid_api_key']);
      expect(refused.error?.networkError).toBeUndefined();
    } finally {
      await close();
    }
  });
});
