import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { failure } from '../../../helpers/http.js';
import { MODES } from '../../../kit/modes.js';
import { checkResponse, documentedPath } from '../../../helpers/openapi-check.js';
import { sharedGatewaySuite } from '../../../kit/suite.js';

describe.each(MODES)('the OpenAPI document and its reference page — $name', (mode) => {
  const suite = sharedGatewaySuite(mode);

  it('serves a valid OpenAPI 3.1 document', async () => {
    const response = await suite.api.get('/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.body.openapi).toBe('3.1.0');
    const result = await new Validator().validate(response.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents every route the router serves, and nothing else', async () => {
    const document = (await suite.api.get('/openapi.json')).body;
    const served = suite.gw.gateway.routes.map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`).sort();
    const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`))
      .sort();
    expect(documented).toEqual(served);
  });

  it('describes the error envelope, the rate-limit headers and the credentials once, and refers to them', async () => {
    const document = (await suite.api.get('/openapi.json')).body;
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['adminToken', 'bearerKey', 'metricsToken', 'sessionCookie', 'xApiKey']);
    expect(document.components.securitySchemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'auth-session' });
    expect(document.components.schemas.Error).toBeDefined();
    const send = document.paths['/v1/messages/send'].post;
    expect(send.security).toEqual([{ bearerKey: [] }, { xApiKey: [] }]);
    expect(send.responses['429']).toEqual({ $ref: '#/components/responses/Error429' });
    expect(send.responses['200'].headers['X-RateLimit-Remaining']).toEqual({ $ref: '#/components/headers/X-RateLimit-Remaining' });
    expect(send.parameters).toContainEqual(expect.objectContaining({ in: 'header', name: 'Idempotency-Key' }));
    expect(document.paths['/sandbox/scan'].post.tags).toEqual(['Sandbox network']);
  });

  it('serves the reference page and its files from the gateway itself, under a strict policy', async () => {
    const page = await suite.api.get('/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const scripts = [...page.text.matchAll(/src="([^"]+)"/g)].map((m) => m[1]!);
    const styles = [...page.text.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
    expect([...scripts, ...styles].every((url) => url.startsWith('/docs/'))).toBe(true);
    for (const url of [...scripts, ...styles]) {
      const asset = await suite.api.get(url);
      expect(asset.status, url).toBe(200);
      expect(asset.text.length).toBeGreaterThan(10);
    }
    expect((await suite.api.get('/docs/init.js')).text).toContain('/openapi.json');
    const missing = await suite.api.get('/docs/../package.json');
    expect(missing.status).toBe(404);
    const unknown = await suite.api.get('/docs/index.html');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(failure('not_found'));
  });

  it('lets the test client refuse an answer of another shape or an undocumented status', () => {
    const url = `${suite.gw.url}/v1/chat/instances`;
    expect(() => checkResponse('GET', url, 200, 'application/json', { success: true, data: [{ id: 'x' }] })).toThrow(/does not match its documented schema/);
    expect(() => checkResponse('GET', url, 418, 'application/json', {})).toThrow(/does not list/);
    expect(() => checkResponse('GET', url, 200, 'application/json', { success: true, data: [] })).not.toThrow();
    expect(() => checkResponse('GET', `${suite.gw.url}/graphql`, 200, 'application/json', {})).not.toThrow();
  });

  it('matches request paths to their documented templates, literal ones first', () => {
    expect(documentedPath('/v1/messages/list')).toBe('/v1/messages/list');
    expect(documentedPath('/v1/chat/instances/abc/qr')).toBe('/v1/chat/instances/{instanceId}/qr');
    expect(documentedPath('/docs')).toBe('/docs');
    expect(documentedPath('/graphql')).toBeUndefined();
  });
});
