import { type ClientRequest, get as httpGet, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';
import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { isForbiddenAddress } from '../../domain/webhooks/address-policy.js';
import { ProxyCheckFailed, type ProxyProbe } from '../../domain/settings/settings.ports.js';
import { describeFailure, guardedLookup } from '../outbound-http.js';
import { proxyAgent } from './proxy-agent.js';

/** An exit address is short text: an IPv4 or IPv6 address as the check URL answers it. */
const ADDRESS = /^[0-9a-fA-F.:]{2,45}$/;
const MAX_ANSWER_BYTES = 1024;

/** A proxy is a place the gateway connects to for a tenant: held to the outbound address rules (docs/settings.md, "Proxy"). */
async function assertPublic(url: URL) {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await dns.lookup(host, { all: true }).catch(() => [])).map((answer) => answer.address);
  if (!addresses.length) throw new ProxyCheckFailed(`the host name ${host} does not resolve`);
  const blocked = addresses.find((address) => isForbiddenAddress(address));
  if (blocked) throw new ProxyCheckFailed(`refused to connect to the non-public address ${blocked}`);
}

/** The proxy's password never leaves in a message, whatever a library put in its error. */
function withoutPassword(text: string, url: URL): string {
  if (!url.password) return text;
  return text.split(url.password).join('***').split(decodeURIComponent(url.password)).join('***');
}

/**
 * Tests a proxy by fetching PROXY_CHECK_URL through it, which answers the address it sees (docs/settings.md, "Proxy"):
 * HTTP CONNECT or SOCKS, within `timeoutMs`. The check URL is the operator's, so it is not held to
 * the outbound-URL rules; the proxy, a tenant's, is (unless insecure URLs are allowed).
 */
export function createProxyProbe(options: { checkUrl: string; timeoutMs: number; allowInsecure?: boolean }): ProxyProbe {
  const get = new URL(options.checkUrl).protocol === 'https:' ? httpsGet : httpGet;

  /** The check through the proxy, given up after `timeoutMs` wherever it is (connecting to the proxy, the tunnel, the answer). */
  async function fetchThrough(url: string): Promise<{ status: number; text: string }> {
    const agent = proxyAgent(url, options.allowInsecure ? {} : { lookup: guardedLookup });
    let request: ClientRequest | undefined;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error('timed out'), { name: 'TimeoutError' })), options.timeoutMs);
    });
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      request = get(options.checkUrl, { agent }, (answer: IncomingMessage) => {
        let text = '';
        answer.setEncoding('utf8');
        answer.on('data', (chunk: string) => {
          text += chunk;
          if (text.length > MAX_ANSWER_BYTES) answer.destroy(new Error('the check answered more than an address'));
        });
        answer.on('end', () => resolve({ status: answer.statusCode ?? 0, text: text.trim() }));
        answer.on('error', reject);
      });
      request.on('error', reject);
    });
    try {
      return await Promise.race([answered, timedOut]);
    } finally {
      clearTimeout(timer);
      request?.destroy();
      agent.destroy();
    }
  }

  return {
    async exitAddress(url) {
      const parsed = new URL(url);
      if (!options.allowInsecure) await assertPublic(parsed);
      try {
        const { status, text } = await fetchThrough(url);
        if (status === 407) throw new ProxyCheckFailed('it refused the credentials (HTTP 407)');
        if (status !== 200) throw new ProxyCheckFailed(`the check through it answered HTTP ${status}`);
        if (!ADDRESS.test(text)) throw new ProxyCheckFailed('the check through it did not answer an address');
        return text;
      } catch (error) {
        if (error instanceof ProxyCheckFailed) throw error;
        throw new ProxyCheckFailed(withoutPassword(describeFailure(error, options.timeoutMs), parsed));
      }
    },
  };
}
