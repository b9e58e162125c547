import type { Agent } from 'node:http';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { SocksProxyAgent, type SocksProxyAgentOptions } from 'socks-proxy-agent';

/** The SOCKS client's errors carry its options, password included: only their message goes on, to be logged or shown. */
class SocksAgent extends SocksProxyAgent {
  override async connect(...[req, opts]: Parameters<SocksProxyAgent['connect']>) {
    try {
      return await super.connect(req, opts);
    } catch (error) {
      throw new Error(`through the SOCKS proxy: ${(error as Error).message}`);
    }
  }
}

/**
 * A node:http(s) agent whose every connection goes through the proxy: HTTP CONNECT for http(s)://,
 * SOCKS for socks*:// (docs/settings.md, "Proxy"). Plain and TLS targets alike, WebSockets included.
 * `ca`: CAs trusted for the servers reached through it (a local network's media host), beside the usual ones.
 */
export function proxyAgent(url: string, options: { ca?: string[] } = {}): Agent {
  // No idle timeout on the agent: it would end a quiet WebSocket; callers time their own requests.
  // An agent's own options are merged into each request's, so `ca` reaches the TLS connection made through the tunnel.
  const tls = options.ca ? { ca: options.ca } : {};
  return new URL(url).protocol.startsWith('socks') ? new SocksAgent(url, tls as SocksProxyAgentOptions) : new HttpsProxyAgent(url, tls);
}
