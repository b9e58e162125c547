import { readFileSync } from 'node:fs';
import { generate } from '@graphql-codegen/cli';
import { beforeAll, describe, expect, it } from 'vitest';
import { printSchema } from 'graphql';
import codegenConfig from '../../codegen.js';
import { schema } from '../../src/graphql/schema.js';
import { insertInstance } from '../factories/instances.js';
import type { TestTenant } from '../factories/tenants.js';
import type { TestGateway } from '../helpers/gateway.js';
import { client } from '../helpers/http.js';
import { gatewaySuite } from '../helpers/suite.js';
import { MODES } from '../helpers/modes.js';
import { CreateApiKey, GetMessage, ListApiKeys, ListMessages, Me, RevokeApiKey, SendMessage } from '../graphql/operations.js';

describe('codegen outputs (run `npm run codegen` when these fail)', () => {
  let outputs: Array<{ filename: string; content: string }>;
  beforeAll(async () => {
    // Codegen's own loader cannot import TypeScript inside the test runner; hand it the built schema's SDL.
    outputs = await generate({ ...codegenConfig, schema: printSchema(schema), cwd: process.cwd() }, false);
  });

  it('schema/schema.graphql is the SDL of the current schema', () => {
    const printed = outputs.find((o) => o.filename.endsWith('schema/schema.graphql'));
    expect(printed).toBeDefined();
    expect(readFileSync('schema/schema.graphql', 'utf8')).toBe(printed!.content);
  });

  it('the typed documents under test/graphql/generated match the operations and the schema', () => {
    const generated = outputs.filter((o) => o.filename.includes('test/graphql/generated/'));
    expect(generated.map((o) => o.filename.split('/').pop()).sort()).toEqual(['gql.ts', 'graphql.ts', 'index.ts']);
    for (const file of generated) expect(readFileSync(file.filename, 'utf8'), file.filename).toBe(file.content);
  });
});

describe.each(MODES)('GraphQL — $name', (mode) => {
  let gw: TestGateway;
  let api: ReturnType<typeof client>;
  let tenant: TestTenant;
  let other: TestTenant;

  const suite = gatewaySuite(mode, { tenants: ['pro', 'pro'] });
  beforeAll(async () => {
    ({ gw, api } = suite);
    tenant = suite.tenants[0]!;
    other = suite.tenants[1]!;
    await insertInstance(gw.gateway, tenant.tenantId);
    await insertInstance(gw.gateway, other.tenantId);
  });

  it('answers me for an API key and for a session cookie', async () => {
    const byKey = await api.operation(Me, {}, { key: tenant.testKey });
    expect(byKey.body.data!.me).toEqual({
      __typename: 'QueryMeSuccess',
      data: { tenant: { id: tenant.tenantId, plan: 'pro' }, user: null, apiKey: { name: 'test', testMode: true } },
    });
    const byCookie = await api.operation(Me, {}, { cookie: tenant.cookie });
    expect(byCookie.body.data!.me).toEqual({
      __typename: 'QueryMeSuccess',
      data: { tenant: { id: tenant.tenantId, plan: 'pro' }, user: { email: tenant.email }, apiKey: null },
    });
  });

  it('returns typed errors with the REST codes', async () => {
    const none = await api.operation(Me, {});
    expect(none.status).toBe(200);
    expect(none.body.data!.me).toEqual({ __typename: 'DomainError', code: 'unauthorized', message: expect.any(String) });
    const badKey = await api.operation(Me, {}, { key: 'mgw_live_nope' });
    expect(badKey.body.data!.me).toMatchObject({ code: 'invalid_api_key' });
  });

  it('sends through the same rules as REST: prefix, mode, validation, idempotency', async () => {
    const sent = (await api.operation(SendMessage, { to: '5511987654321', text: 'from graphql', idempotencyKey: 'g-1' }, { key: tenant.testKey })).body.data!.sendMessage;
    if (sent.__typename !== 'MutationSendMessageSuccess') throw new Error(JSON.stringify(sent));
    const data = sent.data;
    expect(data).toEqual({ id: expect.any(String), status: 'queued', timestamp: expect.any(String), mode: 'test' });

    const rest = await api.get(`/v1/messages/status/${data.id}`, { key: tenant.testKey });
    expect(rest.body.data.text).toBe('[TEST] from graphql');

    const replay = await api.operation(SendMessage, { to: '5511987654321', text: 'from graphql', idempotencyKey: 'g-1' }, { key: tenant.testKey });
    expect(replay.body.data!.sendMessage).toMatchObject({ data: { id: data.id } });
    const conflict = await api.operation(SendMessage, { to: '5511987654321', text: 'other', idempotencyKey: 'g-1' }, { key: tenant.testKey });
    expect(conflict.body.data!.sendMessage).toMatchObject({ __typename: 'DomainError', code: 'idempotency_conflict' });

    const invalid = await api.operation(SendMessage, { to: '+55 11', text: 'x' }, { key: tenant.testKey });
    expect(invalid.body.data!.sendMessage).toMatchObject({ __typename: 'DomainError', code: 'invalid_request', message: expect.stringMatching(/to/) });
  });

  it('reads messages and one message, and keeps tenants apart', async () => {
    const sent = await api.post('/v1/messages/send', { key: tenant.liveKey, body: { to: '5511911111111', text: 'listed' } });
    const list = (await api.operation(ListMessages, { first: 1 }, { key: tenant.liveKey })).body.data!.messages;
    if (list.__typename !== 'QueryMessagesSuccess') throw new Error(JSON.stringify(list));
    expect(list.data.edges.map((e) => e.node)).toEqual([
      expect.objectContaining({ id: sent.body.data.id, text: 'listed', mode: 'production', timestamps: { queued: expect.any(String), sent: expect.toSatisfy((v) => v === null || typeof v === 'string') } }),
    ]);
    expect(list.data.pageInfo.hasNextPage).toBe(true);
    const next = (await api.operation(ListMessages, { first: 50, after: list.data.pageInfo.endCursor }, { key: tenant.liveKey })).body.data!.messages;
    if (next.__typename !== 'QueryMessagesSuccess') throw new Error(JSON.stringify(next));
    expect(next.data.edges.map((e) => e.node.id)).not.toContain(sent.body.data.id);
    expect(next.data.edges.length).toBeGreaterThan(0);
    const theirList = (await api.operation(ListMessages, { first: 50 }, { key: other.liveKey })).body.data!.messages;
    if (theirList.__typename !== 'QueryMessagesSuccess') throw new Error(JSON.stringify(theirList));
    expect(theirList.data.edges.map((e) => e.node.id)).not.toContain(sent.body.data.id);

    const mine = await api.operation(GetMessage, { id: sent.body.data.id }, { key: tenant.liveKey });
    expect(mine.body.data!.message).toEqual({ __typename: 'QueryMessageSuccess', data: { id: sent.body.data.id, text: 'listed' } });
    const theirs = await api.operation(GetMessage, { id: sent.body.data.id }, { key: other.liveKey });
    expect(theirs.body.data!.message).toEqual({ __typename: 'DomainError', code: 'forbidden' });
    const bad = await api.operation(ListMessages, { first: 1, after: 'not-a-cursor' }, { key: tenant.liveKey });
    expect(bad.status).toBe(200);
    expect(bad.body.errors).toEqual([expect.objectContaining({ message: 'Invalid cursor: not-a-cursor', path: ['messages'] })]);
    const nobody = (await api.operation(ListMessages, { first: 1 }, {})).body.data!.messages;
    expect(nobody).toMatchObject({ __typename: 'DomainError', code: 'unauthorized' });
  });

  it('manages API keys: listing with a key, creating and revoking with a session only', async () => {
    const input = { name: 'from graphql', testMode: true };
    const withKey = await api.operation(CreateApiKey, { input }, { key: tenant.liveKey });
    expect(withKey.body.data!.createApiKey).toEqual({ __typename: 'DomainError', code: 'forbidden' });
    const invalid = await api.operation(CreateApiKey, { input: { name: '' } }, { cookie: tenant.cookie });
    expect(invalid.body.data!.createApiKey).toEqual({ __typename: 'DomainError', code: 'invalid_request' });

    const created = (await api.operation(CreateApiKey, { input }, { cookie: tenant.cookie })).body.data!.createApiKey;
    if (created.__typename !== 'MutationCreateApiKeySuccess') throw new Error(JSON.stringify(created));
    const { key, apiKey } = created.data;
    expect(key).toMatch(/^mgw_test_/);
    expect(apiKey.keyPrefix).toBe(key.slice(0, 12));

    const listed = (await api.operation(ListApiKeys, {}, { key })).body.data!.apiKeys;
    if (listed.__typename !== 'QueryApiKeysSuccess') throw new Error(JSON.stringify(listed));
    expect(listed.data.edges.map((e) => e.node.id)).toContain(apiKey.id);
    expect(listed.data.pageInfo.hasNextPage).toBe(false);

    const theirs = await api.operation(RevokeApiKey, { id: apiKey.id }, { cookie: other.cookie });
    expect(theirs.body.data!.revokeApiKey).toEqual({ __typename: 'DomainError', code: 'forbidden' });
    const revoked = await api.operation(RevokeApiKey, { id: apiKey.id }, { cookie: tenant.cookie });
    expect(revoked.body.data!.revokeApiKey.__typename).toBe('MutationRevokeApiKeySuccess');
    expect((await api.get('/api-keys', { key })).status).toBe(401);
  });

  it('rejects malformed documents with errors and without a 5xx', async () => {
    const syntax = await api.graphql('{ me { ', {}, { key: tenant.liveKey });
    // Plain JSON answers carry GraphQL errors with 200; graphql-response+json says 400 (GraphQL over HTTP).
    expect(syntax.status).toBe(200);
    const strict = await api.post('/graphql', {
      key: tenant.liveKey,
      body: { query: '{ me { ' },
      headers: { accept: 'application/graphql-response+json' },
    });
    expect(strict.status).toBe(400);
    expect(syntax.body.errors?.[0]?.message).toMatch(/Syntax Error/);
    const notJson = await api.post('/graphql', { raw: '{', headers: { 'content-type': 'application/json' } });
    expect(notJson.status).toBe(400);
  });
});
