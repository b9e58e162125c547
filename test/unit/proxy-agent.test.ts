import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedLookup } from '../../src/infra/outbound-http.js';
import { proxyAgent } from '../../src/infra/proxy/proxy-agent.js';
import { type ConnectProxy, startConnectProxy } from '../helpers/connect-proxy.js';
import { startExitAddressServer } from '../helpers/exit-address.js';
import { type Socks5Proxy, startSocks5Proxy } from '../helpers/socks5-proxy.js';

/** What a GET through the agent answered, or the error it failed with. */
function through(agent: ReturnType<typeof proxyAgent>, url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get(url, { agent }, (answer) => {
      let text = '';
      answer.on('data', (chunk) => (text += chunk)).on('end', () => resolve(text));
    }).on('error', reject);
  });
}

describe('a proxy agent: every connection through the proxy, its own host name under the outbound guard when asked', () => {
  let checker: Awaited<ReturnType<typeof startExitAddressServer>>;
  let http: ConnectProxy;
  let socks: Socks5Proxy;

  beforeAll(async () => {
    checker = await startExitAddressServer();
    http = await startConnectProxy({ username: 'u', password: 'p', outboundAddress: '127.0.0.2' });
    socks = await startSocks5Proxy({ username: 'u', password: 'p', outboundAddress: '127.0.0.3' });
  });
  afterAll(async () => {
    await Promise.all([checker?.close(), http?.close(), socks?.close()]);
  });

  it('a proxy named by a host name is reached through the lookup given: a private answer is refused before any connection', async () => {
    for (const [proxy, exit] of [[http, '127.0.0.2'], [socks, '127.0.0.3']] as const) {
      const named = proxy.url.replace('127.0.0.1', 'localhost');
      expect(await through(proxyAgent(named), checker.url)).toBe(exit);
      const before = proxy.carried().length;
      await expect(through(proxyAgent(named, { lookup: guardedLookup }), checker.url)).rejects.toThrow(/non-public address 127\.0\.0\.1/);
      expect(proxy.carried().length).toBe(before);
    }
  });
});
