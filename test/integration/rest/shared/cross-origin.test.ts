import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { login } from '../../../factories/tenants.js';
import { failure } from '../../../helpers/http.js';
import { MODES } from '../../../kit/modes.js';
import { gatewaySuite, sharedGatewaySuite } from '../../../kit/suite.js';

const EVIL = 'https://evil.example';
const CREATE_KEY = 'mutation { createApiKey(input: {name: "stolen"}) { apiKey { id } key userErrors { code } } }';
type Headers = Record<string, string>;

/** How the WebSocket upgrade was answered: 101 (open) or the refusal's HTTP status. */
function upgrade(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws', { headers });
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.once('error', (error) => reject(error));
  });
}

/** Subscribes over graphql-ws as a browser page would (cookie on the upgrade) and answers the first event's status. */
function firstConnectionUpdate(url: string, headers: Record<string, string>, instanceId: string, params: Record<string, unknown> = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws', { headers });
    socket.once('unexpected-response', (_request, response) => reject(new Error(`upgrade refused: ${response.statusCode}`)));
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: params })));
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw));
      if (message.type === 'connection_ack') {
        socket.send(
          JSON.stringify({
            id: '1',
            type: 'subscribe',
            payload: { query: `subscription { connectionUpdated(instanceId: "${instanceId}") { status } }` },
          }),
        );
      } else if (message.type === 'next') {
        socket.close();
        resolve(message.payload.data.connectionUpdated.status);
      }
    });
    socket.on('close', (code) => reject(new Error(`closed ${code}`)));
  });
}

describe.each(MODES)('cookie sessions across origins — $name', (mode) => {
  describe('default: no other origin allowed', () => {
    const suite = sharedGatewaySuite(mode);
    const own = () => suite.gw.url;
    const keyCount = async () => (await suite.api.get('/api-keys', { key: suite.tenant.liveKey })).body.data.length as number;

    it('never reflects a foreign origin in CORS answers, on GraphQL or REST, preflight or not', async () => {
      for (const path of ['/graphql', '/api-keys', '/v1/messages/send']) {
        const preflight = await suite.api.request('OPTIONS', path, {
          headers: { origin: EVIL, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
        });
        expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
        expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
      }
      const post = await suite.api.graphql('{ me { tenant { id } } }', {}, { cookie: suite.tenant.cookie, headers: { origin: EVIL } });
      expect(post.headers.get('access-control-allow-origin')).toBeNull();
      expect(post.headers.get('access-control-allow-credentials')).toBeNull();
      const rest = await suite.api.get('/api-keys', { cookie: suite.tenant.cookie, headers: { origin: EVIL } });
      expect(rest.status).toBe(200);
      expect(rest.headers.get('access-control-allow-origin')).toBeNull();
      expect(rest.headers.get('vary')).toMatch(/origin/i);
    });

    it('refuses GraphQL bodies a plain HTML form can send (urlencoded, multipart, text/plain) with 415, creating nothing', async () => {
      const before = await keyCount();
      const urlencoded = await suite.api.post('/graphql', {
        cookie: suite.tenant.cookie,
        headers: { origin: EVIL, 'content-type': 'application/x-www-form-urlencoded' },
        raw: `query=${encodeURIComponent(CREATE_KEY)}`,
      });
      const form = new FormData();
      form.set('query', CREATE_KEY);
      const multipartRequest = new Request(new URL('/graphql', suite.gw.url), { method: 'POST', body: form });
      const multipart = await suite.api.post('/graphql', {
        cookie: suite.tenant.cookie,
        headers: { origin: EVIL, 'content-type': multipartRequest.headers.get('content-type')! },
        raw: new Uint8Array(await multipartRequest.arrayBuffer()),
      });
      const text = await suite.api.post('/graphql', {
        cookie: suite.tenant.cookie,
        headers: { 'content-type': 'text/plain' },
        raw: JSON.stringify({ query: CREATE_KEY }),
      });
      const none = await suite.api.post('/graphql', { cookie: suite.tenant.cookie, raw: JSON.stringify({ query: CREATE_KEY }) });
      for (const response of [urlencoded, multipart, text, none]) {
        expect(response.status).toBe(415);
        expect(response.body.errors[0].extensions.code).toBe('invalid_request');
      }
      expect(await keyCount()).toBe(before);
    });

    it('refuses a cookie mutation from another site with 403 forbidden, same-site included, and changes nothing', async () => {
      const before = await keyCount();
      const attempts: Headers[] = [
        { origin: EVIL },
        { origin: EVIL, 'sec-fetch-site': 'cross-site' },
        // A sibling subdomain is "same-site" and still another party.
        { origin: `http://sibling.${new URL(own()).hostname}.example`, 'sec-fetch-site': 'same-site' },
        { origin: 'null' },
      ];
      for (const headers of attempts) {
        for (const accept of ['application/json', 'application/graphql-response+json']) {
          const response = await suite.api.graphql(CREATE_KEY, {}, { cookie: suite.tenant.cookie, headers: { ...headers, accept } });
          expect(response.status).toBe(403);
          expect(response.body.errors?.[0]?.extensions?.code).toBe('forbidden');
          expect(response.body.data).toBeUndefined();
        }
      }
      // Over SSE as well (a mutation POSTed as an event stream).
      const sse = await suite.api.post('/graphql', {
        cookie: suite.tenant.cookie,
        headers: { origin: EVIL, accept: 'text/event-stream' },
        body: { query: CREATE_KEY },
      });
      expect(sse.status).toBe(403);
      expect(await keyCount()).toBe(before);
    });

    it('still takes the same mutation from the gateway\'s own pages, with an API key from anywhere, and from non-browser clients', async () => {
      const before = await keyCount();
      const allowed: Array<{ cookie?: string; key?: string; headers: Headers }> = [
        { cookie: suite.tenant.cookie, headers: { origin: own() } },
        { cookie: suite.tenant.cookie, headers: { origin: own(), 'sec-fetch-site': 'same-origin' } },
        { cookie: suite.tenant.cookie, headers: { 'sec-fetch-site': 'none' } },
        { cookie: suite.tenant.cookie, headers: {} },
      ];
      for (const options of allowed) {
        const response = await suite.api.graphql(CREATE_KEY, {}, options);
        expect(response.status).toBe(200);
        expect(response.body.data.createApiKey.key).toMatch(/^mgw_live_/);
      }
      expect(await keyCount()).toBe(before + allowed.length);
      // A key is sent by a program, never by a browser on its own: its mutations are not checked.
      const byKey = await suite.api.graphql(
        `mutation { createInstance(input: {name: "by-key-${Date.now()}"}) { instance { id } userErrors { code } } }`,
        {},
        { key: suite.tenant.liveKey, headers: { origin: EVIL, 'sec-fetch-site': 'cross-site' } },
      );
      expect(byKey.status).toBe(200);
      expect(byKey.body.data.createInstance.instance.id).toEqual(expect.any(String));
    });

    it('refuses cookie REST writes from another site, body or not, and leaves everything as it was', async () => {
      const instance = (await suite.api.post('/chat/instances', { cookie: suite.tenant.cookie, body: { name: `csrf-${Date.now()}` } })).body.data;
      const before = await keyCount();
      const cross = { cookie: suite.tenant.cookie, headers: { origin: EVIL, 'sec-fetch-site': 'cross-site' } };
      const attempts = [
        await suite.api.post('/api-keys', { ...cross, body: { name: 'stolen' } }),
        await suite.api.put(`/chat/instances/${instance.instanceId}`, { ...cross, body: { webhookUrl: 'https://attacker.example/hook' } }),
        await suite.api.post(`/chat/instances/${instance.instanceId}/webhook/secret`, cross),
        // No body at all: a form can send these without any preflight.
        await suite.api.post(`/chat/instances/${instance.instanceId}/disconnect`, cross),
        await suite.api.post(`/chat/instances/${instance.instanceId}/regenerate-qr`, { cookie: suite.tenant.cookie, headers: { origin: EVIL } }),
        await suite.api.delete(`/chat/instances/${instance.instanceId}`, cross),
        await suite.api.delete('/auth/sessions', cross),
      ];
      for (const response of attempts) {
        expect(response.status).toBe(403);
        expect(response.body).toEqual(failure('forbidden'));
      }
      expect(await keyCount()).toBe(before);
      const after = await suite.api.get(`/chat/instances/${instance.instanceId}`, { cookie: suite.tenant.cookie });
      expect(after.status).toBe(200);
      expect(after.body.data.webhookUrl).toBeNull();
      // The session survived the cross-site logout.
      expect((await suite.api.get('/api-keys', { cookie: suite.tenant.cookie })).status).toBe(200);

      // From the gateway's own page, and with a key from anywhere, the same writes work.
      const ownWrite = await suite.api.post('/api-keys', { cookie: suite.tenant.cookie, headers: { origin: own() }, body: { name: 'mine' } });
      expect(ownWrite.status).toBe(201);
      const keyWrite = await suite.api.post(`/v1/chat/instances/${instance.instanceId}/toggle`, { key: suite.tenant.liveKey, headers: { origin: EVIL } });
      expect(keyWrite.status).toBe(200);
      // A cookie read from another site is answered (its page cannot read the answer: no CORS header).
      expect((await suite.api.get('/api-keys', cross)).status).toBe(200);
    });

    it('refuses a cookie WebSocket upgrade from another site before any message; own origin and key-based connections work', async () => {
      const instance = (await suite.api.post('/chat/instances', { cookie: suite.tenant.cookie, body: { name: `ws-${Date.now()}` } })).body.data;
      expect(await upgrade(suite.gw.url, { cookie: suite.tenant.cookie, origin: EVIL })).toBe(403);
      expect(await upgrade(suite.gw.url, { cookie: suite.tenant.cookie, origin: EVIL, 'sec-fetch-site': 'same-site' })).toBe(403);
      // The page the subscription would have served never got it.
      await expect(firstConnectionUpdate(suite.gw.url, { cookie: suite.tenant.cookie, origin: EVIL }, instance.instanceId)).rejects.toThrow(/403/);
      expect(await firstConnectionUpdate(suite.gw.url, { cookie: suite.tenant.cookie, origin: own() }, instance.instanceId)).toBeTruthy();
      expect(await firstConnectionUpdate(suite.gw.url, { cookie: suite.tenant.cookie }, instance.instanceId)).toBeTruthy();
      expect(
        await firstConnectionUpdate(suite.gw.url, { origin: EVIL }, instance.instanceId, { authorization: `Bearer ${suite.tenant.liveKey}` }),
      ).toBeTruthy();
    });

    it('marks every answer nosniff, and answers carrying secrets (or any API data) no-store', async () => {
      const fresh = await login(suite.api, suite.tenant.email, suite.tenant.password);
      const answers = [
        await suite.api.post('/auth/sessions', { body: { email: suite.tenant.email, password: suite.tenant.password } }),
        await suite.api.post('/api-keys', { cookie: fresh, body: { name: 'shown once' } }),
        await suite.api.post('/v1/chat/instances', { key: suite.tenant.liveKey, body: { name: `secret-${Date.now()}` } }),
        await suite.api.graphql('{ me { tenant { id } } }', {}, { key: suite.tenant.liveKey }),
        await suite.api.get('/nowhere'),
        await suite.api.get('/api-keys'),
        await suite.api.post('/graphql', { headers: { 'content-type': 'text/plain' }, raw: '{}' }),
      ];
      const instanceId = answers[2]!.body.data.id;
      answers.push(await suite.api.post(`/v1/chat/instances/${instanceId}/webhook/secret`, { key: suite.tenant.liveKey }));
      for (const response of answers) {
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        expect(response.headers.get('cache-control')).toBe('no-store');
      }
      // Static files keep their own caching.
      const openapi = await suite.api.get('/openapi.json');
      expect(openapi.headers.get('x-content-type-options')).toBe('nosniff');
      expect(openapi.headers.get('cache-control')).toMatch(/max-age/);
    });

    it('still serves GraphiQL and the reference page', async () => {
      const graphiql = await fetch(new URL('/graphql', suite.gw.url), { headers: { accept: 'text/html' } });
      expect(graphiql.status).toBe(200);
      expect(await graphiql.text()).toMatch(/graphiql/i);
      const docs = await fetch(new URL('/docs', suite.gw.url));
      expect(docs.status).toBe(200);
      expect(docs.headers.get('content-type')).toMatch(/text\/html/);
    });
  });

  describe('CORS_ORIGINS=https://app.example', () => {
    const APP = 'https://app.example';
    const suite = gatewaySuite(mode, { env: { CORS_ORIGINS: APP } });

    it('allows exactly that origin, with credentials, and nothing else', async () => {
      const preflight = await suite.api.request('OPTIONS', '/graphql', {
        headers: { origin: APP, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(APP);
      expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
      expect(preflight.headers.get('access-control-allow-methods')).toMatch(/POST/);
      expect(preflight.headers.get('access-control-allow-headers')).toMatch(/content-type/i);

      const mutation = await suite.api.graphql(CREATE_KEY, {}, { cookie: suite.tenant.cookie, headers: { origin: APP, 'sec-fetch-site': 'cross-site' } });
      expect(mutation.status).toBe(200);
      expect(mutation.body.data.createApiKey.key).toMatch(/^mgw_live_/);
      expect(mutation.headers.get('access-control-allow-origin')).toBe(APP);
      expect(mutation.headers.get('access-control-allow-credentials')).toBe('true');
      expect(mutation.headers.get('access-control-expose-headers')).toMatch(/X-RateLimit-Remaining/);
      const rest = await suite.api.post('/api-keys', { cookie: suite.tenant.cookie, headers: { origin: APP, 'sec-fetch-site': 'cross-site' }, body: { name: 'app' } });
      expect(rest.status).toBe(201);
      expect(rest.headers.get('access-control-allow-origin')).toBe(APP);

      for (const other of [EVIL, 'http://app.example', 'https://app.example:8443', 'https://app.example.evil.example', 'https://sub.app.example']) {
        const refused = await suite.api.graphql(CREATE_KEY, {}, { cookie: suite.tenant.cookie, headers: { origin: other, 'sec-fetch-site': 'cross-site' } });
        expect(refused.status).toBe(403);
        expect(refused.headers.get('access-control-allow-origin')).toBeNull();
        const otherPreflight = await suite.api.request('OPTIONS', '/graphql', { headers: { origin: other, 'access-control-request-method': 'POST' } });
        expect(otherPreflight.headers.get('access-control-allow-origin')).toBeNull();
      }
    });

    it('lets a listed origin open a cookie WebSocket', async () => {
      const instance = (await suite.api.post('/chat/instances', { cookie: suite.tenant.cookie, body: { name: `app-ws-${Date.now()}` } })).body.data;
      expect(await firstConnectionUpdate(suite.gw.url, { cookie: suite.tenant.cookie, origin: APP }, instance.instanceId)).toBeTruthy();
      expect(await upgrade(suite.gw.url, { cookie: suite.tenant.cookie, origin: EVIL })).toBe(403);
    });
  });
});
