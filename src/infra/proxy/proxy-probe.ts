import { ProxyAgent, request } from 'undici';
import { ProxyCheckFailed, type ProxyProbe } from '../../domain/settings/settings.ports.js';

/** An exit address is short text: an IPv4 or IPv6 address as the check URL answers it. */
const ADDRESS = /^[0-9a-fA-F.:]{2,45}$/;

/**
 * Tests a proxy by fetching PROXY_CHECK_URL through it, which answers the address it sees (docs/settings.md, "Proxy").
 * The check URL is the operator's, so it is not held to the outbound-URL rules tenants' URLs are.
 */
export function createProxyProbe(options: { checkUrl: string; timeoutMs: number }): ProxyProbe {
  return {
    async exitAddress(url) {
      if (new URL(url).protocol.startsWith('socks')) throw new ProxyCheckFailed('SOCKS proxies are not checked yet');
      const dispatcher = new ProxyAgent({ uri: url, proxyTls: { timeout: options.timeoutMs } });
      try {
        const answer = await request(options.checkUrl, { dispatcher, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs });
        const text = (await answer.body.text()).trim();
        if (answer.statusCode !== 200) throw new ProxyCheckFailed(`the check through it answered ${answer.statusCode}`);
        if (!ADDRESS.test(text)) throw new ProxyCheckFailed('the check through it did not answer an address');
        return text;
      } catch (error) {
        if (error instanceof ProxyCheckFailed) throw error;
        throw new ProxyCheckFailed((error as Error).message);
      } finally {
        await dispatcher.close();
      }
    },
  };
}
