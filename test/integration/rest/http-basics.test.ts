import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createTenant } from '../../factories/tenants.js';
import { startTestGateway } from '../../kit/gateway.js';
import { client, failure } from '../../helpers/http.js';
import { gatewaySuite } from '../../kit/suite.js';
import { MODES } from '../../kit/modes.js';

describe.each(MODES)('HTTP basics — $name', (mode) => {

  const suite = gatewaySuite(mode, { tenants: [] });

  it('answers /healthz and /readyz with the dependencies it checked', async () => {
    expect((await suite.api.get('/healthz')).body).toEqual({ success: true, data: { status: 'ok' } });
    const ready = await suite.api.get('/readyz');
    expect(ready.status).toBe(200);
    const node = suite.gw.gateway.infra.placement.node;
    expect(ready.body.data).toEqual({
      status: 'ready',
      database: 'ok',
      redis: mode.redis ? 'ok' : 'not configured',
      // This gateway alone: the live node set is itself (embedded mode is one node under a fixed id).
      node: mode.redis ? expect.stringMatching(/^[\w.-]+-\d+-[0-9a-f]{4}$/) : 'embedded',
      nodes: [{ id: node, instances: 0, lastSeen: expect.any(String) }],
    });
    expect(Date.now() - Date.parse(ready.body.data.nodes[0].lastSeen)).toBeLessThan(5000);
  });

  it('does not count a client that leaves before its body is read as a server error', async () => {
    const { liveKey } = await createTenant(suite.gw.gateway, suite.api);
    const { port } = new URL(suite.gw.url);
    const errorsBefore = suite.gw.logs.lines.filter((line) => /"level":50/.test(line)).length;
    // Headers promising a body, a little of it, then gone: some are read while the socket closes,
    // some after it closed (the key lookup comes first).
    await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        new Promise<void>((resolve) => {
          const path = n % 2 ? '/graphql' : '/v1/messages/send';
          const socket = connect(Number(port), '127.0.0.1', () => {
            socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${liveKey}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"to":`);
            setTimeout(() => socket.destroy(), n);
          });
          socket.on('close', () => resolve());
          socket.on('error', () => resolve());
        }),
      ),
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(suite.gw.logs.lines.filter((line) => /"level":50/.test(line)).slice(errorsBefore)).toEqual([]);
    expect((await suite.api.get('/healthz')).status).toBe(200);
  });

  it('serves GraphiQL from the installed package, loading nothing from another host', async () => {
    const page = await suite.api.get('/graphql', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.text).toContain('<title>Messaging Gateway</title>');
    expect(page.text).toContain('renderYogaGraphiQL');
    // No script, style sheet or font is fetched from a CDN.
    expect(page.text).not.toMatch(/<(script|link)[^>]+(src|href)=["']https?:/i);
    expect(page.text).not.toMatch(/unpkg\.com|jsdelivr\.net/);
  });

  it('answers unknown routes with 404 not_found in the envelope', async () => {
    const response = await suite.api.get('/v1/nothing-here');
    expect(response.status).toBe(404);
    expect(response.body).toEqual(failure('not_found'));
  });

  it('answers a wrong method with 405 method_not_allowed and an Allow header', async () => {
    const response = await suite.api.request('PATCH', '/v1/messages/send');
    expect(response.status).toBe(405);
    expect(response.body).toEqual(failure('method_not_allowed'));
    expect(response.headers.get('allow')).toContain('POST');
  });

  it('echoes a well-formed X-Request-Id and makes one up otherwise', async () => {
    const echoed = await suite.api.get('/healthz', { headers: { 'x-request-id': 'trace-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-123');
    const made = await suite.api.get('/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(suite.gw.logs.text()).toContain('"requestId":"trace-123"');
  });

  it('refuses malformed JSON, a wrong content type and an oversized body with 4xx envelopes', async () => {
    const malformed = await suite.api.post('/auth/sessions', { raw: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual(failure('invalid_request'));

    const wrongType = await suite.api.post('/auth/sessions', { raw: 'email=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.message).toMatch(/Content-Type/);

    const big = JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(1024 * 1024) });
    const tooLarge = await suite.api.post('/auth/sessions', { raw: big, headers: { 'content-type': 'application/json' } });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toEqual(failure('payload_too_large'));
    expect(tooLarge.body.error.message).toBe('The request body is larger than 1048576 bytes.');
  });

  it('keeps serving after bad input', async () => {
    expect((await suite.api.get('/healthz')).status).toBe(200);
  });
});

describe('readiness when Redis is unreachable', () => {
  it('answers /readyz with 503 service_unavailable, and /healthz still 200', async () => {
    const gw = await startTestGateway(MODES[0]!, { env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      const api = client(gw.url);
      const ready = await api.get('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual(failure('service_unavailable'));
      expect(ready.body.error.message).toContain('redis');
      expect((await api.get('/healthz')).status).toBe(200);
    } finally {
      await gw.close();
    }
  });
});
