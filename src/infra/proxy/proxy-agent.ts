import type { Agent } from 'node:http';
import type { LookupFunction } from 'node:net';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { SocksProxyAgent } from 'socks-proxy-agent';

type ConnectArgs = Parameters<SocksProxyAgent['connect']>;

export interface ProxyAgentOptions {
  /** CAs trusted for the servers reached through the proxy (a local network's media host), beside the usual ones. */
  ca?: string[];
  /** How the proxy's own host name is resolved at each connection (the outbound guard: a name that turned private is refused). */
  lookup?: LookupFunction;
}

/** The SOCKS client's errors carry its options, password included: only their message goes on, to be logged or shown. */
class SocksAgent extends SocksProxyAgent {
  constructor(
    url: string,
    private readonly tls: { ca?: string[] },
    lookup: LookupFunction | undefined,
  ) {
    super(url, lookup ? { socketOptions: { lookup } } : {});
  }

  override async connect(...[req, opts]: ConnectArgs) {
    try {
      return await super.connect(req, { ...opts, ...this.tls });
    } catch (error) {
      throw new Error(`through the SOCKS proxy: ${(error as Error).message}`);
    }
  }
}

/** The library keeps none of an agent's TLS options for the connection made through the tunnel: given to each one here. */
class ConnectAgent extends HttpsProxyAgent<string> {
  constructor(
    url: string,
    private readonly tls: { ca?: string[] },
    lookup: LookupFunction | undefined,
  ) {
    super(url, lookup ? { lookup } : {});
  }

  override connect(...[req, opts]: ConnectArgs) {
    return super.connect(req, { ...opts, ...this.tls });
  }
}

/**
 * A node:http(s) agent whose every connection goes through the proxy: HTTP CONNECT for http(s)://,
 * SOCKS for socks*:// (docs/settings.md, "Proxy"). Plain and TLS targets alike, WebSockets included.
 */
export function proxyAgent(url: string, options: ProxyAgentOptions = {}): Agent {
  // No idle timeout on the agent: it would end a quiet WebSocket; callers time their own requests.
  const tls = options.ca ? { ca: options.ca } : {};
  return new URL(url).protocol.startsWith('socks') ? new SocksAgent(url, tls, options.lookup) : new ConnectAgent(url, tls, options.lookup);
}
