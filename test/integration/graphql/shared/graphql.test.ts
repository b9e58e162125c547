import { readFileSync } from 'node:fs';
import { generate } from '@graphql-codegen/cli';
import { beforeAll, describe, expect, it } from 'vitest';
import { getNamedType, isInputObjectType, isInterfaceType, isObjectType, printSchema } from 'graphql';
import codegenConfig from '../../../../codegen.js';
import { schema } from '../../../../src/graphql/schema.js';
import { insertInstance } from '../../../factories/instances.js';
import { codesOf } from '../../../helpers/http.js';
import { sharedGatewaySuite } from '../../../kit/suite.js';
import { MODES } from '../../../kit/modes.js';
import { CreateApiKey, GetMessage, GetNode, Limits, ListApiKeys, ListMessages, Me, RevokeApiKey, SendMessage } from '../../../graphql/operations.js';

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

  it.each(['test/graphql/generated/', 'src/dashboard/generated/'])('the typed documents under %s match the operations and the schema', (folder) => {
    const generated = outputs.filter((o) => o.filename.includes(folder));
    expect(generated.map((o) => o.filename.split('/').pop()).sort()).toEqual(['gql.ts', 'graphql.ts', 'index.ts']);
    for (const file of generated) expect(readFileSync(file.filename, 'utf8'), file.filename).toBe(file.content);
  });
});

describe('the schema describes itself', () => {
  it('has a description on every type, field and argument', () => {
    const missing: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || ['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name)) continue;
      if (!type.description) missing.push(type.name);
      if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description) missing.push(`${type.name}.${field.name}`);
          for (const arg of 'args' in field ? field.args : []) if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('implements Node on every entity a client cache keys, and gives every mutation at most one argument, its input, and a payload with userErrors', () => {
    const node = schema.getType('Node');
    expect(isInterfaceType(node) && schema.getPossibleTypes(node).map((t) => t.name).sort()).toEqual(['ApiKey', 'Chat', 'Contact', 'Instance', 'Message', 'WebhookDelivery']);
    for (const field of Object.values(schema.getMutationType()!.getFields())) {
      expect(field.args.map((a) => a.name), field.name).toEqual(field.name === 'signOut' ? [] : ['input']);
      const payload = getNamedType(field.type);
      expect(isObjectType(payload) && payload.getInterfaces().map((i) => i.name), field.name).toEqual(['MutationPayload']);
    }
  });
});

describe.each(MODES)('GraphQL — $name', (mode) => {

  const suite = sharedGatewaySuite(mode, { tenants: ['pro', 'pro'] });
  beforeAll(async () => {
    await insertInstance(suite.gw.gateway, suite.tenant.tenantId);
    await insertInstance(suite.gw.gateway, suite.other.tenantId);
  });

  it('answers me for an API key and for a session cookie', async () => {
    const byKey = await suite.api.operation(Me, {}, { key: suite.tenant.testKey });
    expect(byKey.body).toEqual({ data: { me: { tenant: { id: suite.tenant.tenantId, plan: 'pro' }, user: null, apiKey: { name: 'test', testMode: true } } } });
    const byCookie = await suite.api.operation(Me, {}, { cookie: suite.tenant.cookie });
    expect(byCookie.body.data!.me).toEqual({ tenant: { id: suite.tenant.tenantId, plan: 'pro' }, user: { email: suite.tenant.email }, apiKey: null });
  });

  it('refuses a caller without valid credentials with a coded error, 401 where GraphQL over HTTP allows it', async () => {
    const none = await suite.api.operation(Me, {});
    expect(none.status).toBe(200);
    expect(none.body.data).toBeNull();
    expect(codesOf(none.body)).toEqual(['unauthorized']);
    const strict = await suite.api.post('/graphql', { body: { query: '{ me { tenant { id } } }' }, headers: { accept: 'application/graphql-response+json' } });
    expect(strict.status).toBe(401);
    expect(strict.headers.get('content-type')).toMatch(/application\/graphql-response\+json/);
    expect(codesOf(strict.body)).toEqual(['unauthorized']);
    const badKey = await suite.api.operation(Me, {}, { key: 'mgw_live_nope' });
    expect(codesOf(badKey.body)).toEqual(['invalid_api_key']);
    const nobodysList = await suite.api.operation(ListMessages, { first: 1 }, {});
    expect(codesOf(nobodysList.body)).toEqual(['unauthorized']);
  });

  it('sends through the same rules as REST: prefix, mode, validation with field paths, idempotency', async () => {
    const input = { to: '5511987654321', text: 'from graphql', idempotencyKey: 'g-1' };
    const sent = (await suite.api.operation(SendMessage, { input }, { key: suite.tenant.testKey })).body.data!.sendMessage;
    expect(sent).toEqual({
      message: { id: expect.any(String), status: 'queued', createdAt: expect.any(String), mode: 'test', text: '[TEST] from graphql' },
      userErrors: [],
    });
    const rest = await suite.api.get(`/v1/messages/status/${sent.message!.id}`, { key: suite.tenant.testKey });
    expect(rest.body.data.text).toBe('[TEST] from graphql');

    const replay = await suite.api.operation(SendMessage, { input }, { key: suite.tenant.testKey });
    expect(replay.body.data!.sendMessage.message!.id).toBe(sent.message!.id);
    const conflict = await suite.api.operation(SendMessage, { input: { ...input, text: 'other' } }, { key: suite.tenant.testKey });
    expect(conflict.body.data!.sendMessage).toEqual({ message: null, userErrors: [{ code: 'idempotency_conflict', field: null, message: expect.any(String) }] });

    // Every bad field at once, each with its path.
    const invalid = await suite.api.operation(SendMessage, { input: { to: '+55 11', text: '' } }, { key: suite.tenant.testKey });
    expect(invalid.body.errors).toBeUndefined();
    expect(invalid.body.data!.sendMessage).toEqual({
      message: null,
      userErrors: [
        { code: 'invalid_request', field: ['to'], message: expect.stringMatching(/digits/) },
        { code: 'invalid_request', field: ['text'], message: 'must not be empty' },
      ],
    });
  });

  it('lists messages as a connection with totalCount and filters, and refuses oversized pages and bad cursors with codes', async () => {
    await suite.api.post('/v1/messages/send', { key: suite.tenant.liveKey, body: { to: '5511911111110', text: 'earlier' } });
    const sent = await suite.api.post('/v1/messages/send', { key: suite.tenant.liveKey, body: { to: '5511911111111', text: 'listed' } });
    const list = (await suite.api.operation(ListMessages, { first: 1 }, { key: suite.tenant.liveKey })).body.data!.messages;
    expect(list.edges.map((e) => e.node)).toEqual([
      expect.objectContaining({ id: sent.body.data.id, text: 'listed', mode: 'production', timestamps: { queued: expect.any(String), sent: expect.toSatisfy((v) => v === null || typeof v === 'string') } }),
    ]);
    expect(list.pageInfo.hasNextPage).toBe(true);
    const all = await suite.api.get('/v1/messages/list?limit=100', { key: suite.tenant.liveKey });
    expect(list.totalCount).toBe(all.body.pagination.total);
    const next = (await suite.api.operation(ListMessages, { first: 50, after: list.pageInfo.endCursor }, { key: suite.tenant.liveKey })).body.data!.messages;
    expect(next.edges.map((e) => e.node.id)).not.toContain(sent.body.data.id);
    expect(next.edges.length).toBeGreaterThan(0);
    const theirList = (await suite.api.operation(ListMessages, { first: 50 }, { key: suite.other.liveKey })).body.data!.messages;
    expect(theirList.edges.map((e) => e.node.id)).not.toContain(sent.body.data.id);

    const since = new Date(Date.now() + 60_000).toISOString();
    const future = (await suite.api.operation(ListMessages, { first: 5, filter: { since } }, { key: suite.tenant.liveKey })).body.data!.messages;
    expect(future).toMatchObject({ totalCount: 0, edges: [] });
    const queued = (await suite.api.operation(ListMessages, { first: 100, filter: { status: 'queued' } }, { key: suite.tenant.liveKey })).body.data!.messages;
    expect(queued.edges.every((e) => e.node.status === 'queued')).toBe(true);
    expect(queued.totalCount).toBe(queued.edges.length);
    const badFilter = await suite.api.operation(ListMessages, { first: 5, filter: { instanceId: 'nope' } }, { key: suite.tenant.liveKey });
    expect(codesOf(badFilter.body)).toEqual(['invalid_request']);

    const tooMany = await suite.api.operation(ListMessages, { first: 101 }, { key: suite.tenant.liveKey });
    expect(tooMany.body.data).toBeNull();
    expect(tooMany.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/first: must be at most 100/), extensions: { code: 'invalid_request' } })]);
    const bad = await suite.api.operation(ListMessages, { first: 1, after: 'not-a-cursor' }, { key: suite.tenant.liveKey });
    expect(bad.status).toBe(200);
    expect(bad.body.errors).toEqual([expect.objectContaining({ message: 'Invalid cursor: not-a-cursor', path: ['messages'], extensions: { code: 'invalid_request' } })]);
  });

  it('answers null with not_found for a missing message and for another tenant\'s', async () => {
    const sent = await suite.api.post('/v1/messages/send', { key: suite.tenant.liveKey, body: { to: '5511911111112', text: 'mine' } });
    const mine = await suite.api.operation(GetMessage, { id: sent.body.data.id }, { key: suite.tenant.liveKey });
    expect(mine.body).toEqual({ data: { message: { id: sent.body.data.id, text: 'mine' } } });
    for (const [id, key] of [[sent.body.data.id, suite.other.liveKey], ['00000000-0000-4000-8000-000000000000', suite.tenant.liveKey], ['not-an-id', suite.tenant.liveKey]]) {
      const missing = await suite.api.operation(GetMessage, { id: id! }, { key });
      expect(missing.body.data).toEqual({ message: null });
      expect(codesOf(missing.body)).toEqual(['not_found']);
    }
  });

  it('finds any entity of the tenant by id with node(id), and nothing of another tenant', async () => {
    const [instanceId] = (await suite.api.get('/v1/chat/instances', { key: suite.tenant.liveKey })).body.data.map((i: { id: string }) => i.id);
    const sent = await suite.api.post('/v1/messages/send', { key: suite.tenant.liveKey, body: { to: '5511911111113', text: 'a node' } });
    const keys = await suite.api.get('/api-keys', { cookie: suite.tenant.cookie });
    const keyId = keys.body.data[0].id;

    const instance = await suite.api.operation(GetNode, { id: instanceId }, { key: suite.tenant.liveKey });
    expect(instance.body.data!.node).toEqual({ __typename: 'Instance', id: instanceId, name: expect.any(String) });
    const message = await suite.api.operation(GetNode, { id: sent.body.data.id }, { key: suite.tenant.liveKey });
    expect(message.body.data!.node).toEqual({ __typename: 'Message', id: sent.body.data.id, text: 'a node' });
    const apiKey = await suite.api.operation(GetNode, { id: keyId }, { key: suite.tenant.liveKey });
    expect(apiKey.body.data!.node).toEqual({ __typename: 'ApiKey', id: keyId, keyPrefix: keys.body.data[0].keyPrefix });

    for (const id of [instanceId, sent.body.data.id, keyId, 'not-a-uuid']) {
      const theirs = await suite.api.operation(GetNode, { id }, { key: suite.other.liveKey });
      expect(theirs.body.data).toEqual({ node: null });
      expect(codesOf(theirs.body)).toEqual(['not_found']);
    }
  });

  it('manages API keys: listing with a key, creating and revoking with a session only', async () => {
    const input = { name: 'from graphql', testMode: true };
    const withKey = await suite.api.operation(CreateApiKey, { input }, { key: suite.tenant.liveKey });
    expect(withKey.body.data!.createApiKey).toEqual({ key: null, apiKey: null, userErrors: [{ code: 'forbidden', field: null, message: expect.any(String) }] });
    const invalid = await suite.api.operation(CreateApiKey, { input: { name: '' } }, { cookie: suite.tenant.cookie });
    expect(invalid.body.data!.createApiKey.userErrors).toEqual([{ code: 'invalid_request', field: ['name'], message: expect.any(String) }]);

    const created = (await suite.api.operation(CreateApiKey, { input }, { cookie: suite.tenant.cookie })).body.data!.createApiKey;
    expect(created.userErrors).toEqual([]);
    const key = created.key!;
    const apiKey = created.apiKey!;
    expect(key).toMatch(/^mgw_test_/);
    expect(apiKey.keyPrefix).toBe(key.slice(0, 12));

    const listed = (await suite.api.operation(ListApiKeys, { first: 100 }, { key })).body.data!.apiKeys;
    expect(listed.edges.map((e) => e.node.id)).toContain(apiKey.id);
    expect(listed.totalCount).toBe(listed.edges.length);
    expect(listed.pageInfo.hasNextPage).toBe(false);
    const oversized = await suite.api.operation(ListApiKeys, { first: 1000 }, { key });
    expect(codesOf(oversized.body)).toEqual(['invalid_request']);

    const theirs = await suite.api.operation(RevokeApiKey, { id: apiKey.id }, { cookie: suite.other.cookie });
    expect(theirs.body.data!.revokeApiKey).toEqual({ revokedApiKeyId: null, userErrors: [expect.objectContaining({ code: 'forbidden' })] });
    const revoked = await suite.api.operation(RevokeApiKey, { id: apiKey.id }, { cookie: suite.tenant.cookie });
    expect(revoked.body.data!.revokeApiKey).toEqual({ revokedApiKeyId: apiKey.id, userErrors: [] });
    expect((await suite.api.get('/api-keys', { key })).status).toBe(401);
    const afterRevoke = await suite.api.operation(Me, {}, { key });
    expect(codesOf(afterRevoke.body)).toEqual(['invalid_api_key']);
  });

  it('signs in and out with the session cookie, and shows a wrong password as a userError', async () => {
    const signIn = 'mutation ($input: SignInInput!) { signIn(input: $input) { user { email } expiresAt userErrors { code field message } } }';
    const wrong = await suite.api.graphql(signIn, { input: { email: suite.tenant.email, password: 'not the password' } });
    expect(wrong.body.data.signIn).toEqual({ user: null, expiresAt: null, userErrors: [{ code: 'unauthorized', field: null, message: 'Invalid email or password.' }] });
    expect(wrong.headers.get('set-cookie')).toBeNull();
    const invalid = await suite.api.graphql(signIn, { input: { email: '', password: '' } });
    expect(invalid.body.data.signIn.userErrors.map((e: { field: string[] }) => e.field)).toEqual([['email'], ['password']]);

    const right = await suite.api.graphql(signIn, { input: { email: suite.tenant.email, password: suite.tenant.password } });
    expect(right.body.data.signIn).toEqual({ user: { email: suite.tenant.email }, expiresAt: expect.any(String), userErrors: [] });
    const setCookie = right.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^auth-session=[^;]+;.*HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const cookie = setCookie.split(';')[0]!;
    expect((await suite.api.operation(Me, {}, { cookie })).body.data!.me.user).toEqual({ email: suite.tenant.email });

    const out = await suite.api.graphql('mutation { signOut { signedOut userErrors { code } } }', {}, { cookie });
    expect(out.body.data.signOut).toEqual({ signedOut: true, userErrors: [] });
    expect(out.headers.get('set-cookie')).toMatch(/^auth-session=;/);
    expect(codesOf((await suite.api.operation(Me, {}, { cookie })).body)).toEqual(['unauthorized']);
  });

  it('shows the limits and how much of each is used', async () => {
    const limits = (await suite.api.operation(Limits, {}, { key: suite.tenant.liveKey })).body.data!.me.tenant.limits;
    expect(limits.instances).toEqual({ used: 1, max: expect.any(Number) });
    expect(limits.messagesToday.used).toBeGreaterThanOrEqual(0);
    expect(limits.requestsThisMinute).toEqual({ used: expect.any(Number), max: expect.any(Number) });
  });

  it('answers an operation it has seen before exactly as the first time, for every JSON Accept and for errors', async () => {
    // The first request of a document goes through yoga's whole request layer; repeats are answered
    // directly by the same pipeline. Each case uses its own document text, so the first is a first.
    const cases = [
      { name: 'success', query: '{ me { tenant { id plan } } }', variables: {}, key: suite.tenant.liveKey },
      { name: 'no caller', query: '{ me { tenant { plan } } }', variables: {}, key: undefined },
      { name: 'bad variable', query: 'query ($first: Int) { messages(first: $first) { totalCount } }', variables: { first: 'ten' }, key: suite.tenant.liveKey },
      { name: 'refused in a resolver', query: 'query ($id: ID!) { message(id: $id) { id } }', variables: { id: '00000000-0000-4000-8000-000000000000' }, key: suite.tenant.liveKey },
    ];
    const accepts = [undefined, '*/*', 'application/json', 'application/graphql-response+json'];
    let variant = 0;
    for (const c of cases) {
      for (const accept of accepts) {
        const query = `${c.query}${' '.repeat(++variant)}`;
        const ask = () =>
          suite.api.post('/graphql', { key: c.key, body: { query, variables: c.variables }, headers: accept ? { accept } : {} }).then((r) => ({
            status: r.status,
            type: r.headers.get('content-type'),
            body: r.body,
          }));
        const first = await ask();
        const again = await ask();
        expect(again, `${c.name}, Accept ${accept}`).toEqual(first);
        expect(first.status, `${c.name}, Accept ${accept}`).toBeLessThan(500);
      }
    }
  });

  it('rejects malformed documents with coded errors and without a 5xx', async () => {
    const syntax = await suite.api.graphql('{ me { ', {}, { key: suite.tenant.liveKey });
    // Plain JSON answers carry GraphQL errors with 200; graphql-response+json says 400 (GraphQL over HTTP).
    expect(syntax.status).toBe(200);
    expect(syntax.body.errors?.[0]?.message).toMatch(/Syntax Error/);
    expect(codesOf(syntax.body)).toEqual(['invalid_request']);
    const strict = await suite.api.post('/graphql', {
      key: suite.tenant.liveKey,
      body: { query: '{ me { ' },
      headers: { accept: 'application/graphql-response+json' },
    });
    expect(strict.status).toBe(400);
    const unknownField = await suite.api.graphql('{ me { nope } }', {}, { key: suite.tenant.liveKey });
    expect(codesOf(unknownField.body)).toEqual(['invalid_request']);
    const badVariable = await suite.api.operation(ListMessages, { first: 'ten' as unknown as number }, { key: suite.tenant.liveKey });
    expect(codesOf(badVariable.body)).toEqual(['invalid_request']);
    const notJson = await suite.api.post('/graphql', { raw: '{', headers: { 'content-type': 'application/json' } });
    expect(notJson.status).toBe(400);
  });
});
