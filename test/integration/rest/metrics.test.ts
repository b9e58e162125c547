import { describe, expect, it } from 'vitest';
import { connectedV1Instance, eventually } from '../../factories/sandbox.js';
import { gatewaySuite } from '../../kit/suite.js';
import { failure } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';

const TOKEN = 'metrics-token-0123456789';

/** The value of one sample of the Prometheus text, or undefined when it is not there. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

describe.each(MODES)('GET /metrics — $name', (mode) => {
  const suite = gatewaySuite(mode, { env: { METRICS_TOKEN: TOKEN, DAILY_MESSAGES_STARTER: '2' }, tenants: ['starter'] });
  const scrape = async () => {
    const answer = await suite.api.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return answer.text;
  };

  it('needs the token when one is configured', async () => {
    const none = await suite.api.get('/metrics');
    expect(none.status).toBe(401);
    expect(none.body).toEqual(failure('unauthorized'));
    expect((await suite.api.get('/metrics', { headers: { authorization: 'Bearer not-the-token-at-all' } })).status).toBe(401);
  });

  it('counts what a known sequence of calls did', async () => {
    const [tenant] = suite.tenants;
    await connectedV1Instance(suite.api, tenant!.liveKey, 'metrics line');
    const sends = [];
    for (let i = 0; i < 3; i++) sends.push((await suite.api.post('/v1/messages/send', { key: tenant!.liveKey, body: { to: '5511987650000', text: `m${i}` } })).status);
    expect(sends).toEqual([200, 200, 429]);
    expect((await suite.api.get('/no/such/route')).status).toBe(404);
    const me = await suite.api.graphql('query WhoAmI { me { __typename } }', {}, { key: tenant!.liveKey });
    expect(me.status).toBe(200);
    expect((await suite.api.graphql('query Broken { nope }', {}, { key: tenant!.liveKey })).body.errors).toHaveLength(1);

    const text = await eventually(scrape, (t) => sample(t, 'mgw_messages', { status: 'delivered' }) === 2, 10_000);
    expect(sample(text, 'mgw_http_requests_total', { method: 'POST', route: '/v1/messages/send', status: '200' })).toBe(2);
    expect(sample(text, 'mgw_http_requests_total', { method: 'POST', route: '/v1/messages/send', status: '429' })).toBe(1);
    expect(sample(text, 'mgw_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'mgw_http_request_duration_seconds_count', { method: 'POST', route: '/v1/messages/send' })).toBe(3);
    expect(sample(text, 'mgw_rate_limited_total', { limit: 'daily_quota' })).toBe(1);
    expect(sample(text, 'mgw_sends_accepted_total')).toBe(2);
    expect(sample(text, 'mgw_instances', { state: 'connected' })).toBe(1);
    expect(sample(text, 'mgw_webhook_backlog')).toBe(0);
    expect(sample(text, 'mgw_redis_fallback')).toBe(0);
    expect(sample(text, 'mgw_websocket_connections')).toBe(0);
    expect(sample(text, 'mgw_process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
    expect(sample(text, 'graphql_envelop_request', { operationType: 'query', operationName: 'WhoAmI' })).toBe(1);
    expect(sample(text, 'graphql_envelop_request_duration_count', { operationType: 'query', operationName: 'WhoAmI' })).toBe(1);
    expect(sample(text, 'graphql_envelop_error_result', { phase: 'validate', operationName: 'Broken' })).toBe(1);
    expect(sample(text, 'mgw_nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });
});
