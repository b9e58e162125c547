import type { Agent } from 'node:http';
import { rootCertificates } from 'node:tls';
import { guardedLookup } from '../../infra/outbound-http.js';
import { proxyAgent } from '../../infra/proxy/proxy-agent.js';

/**
 * One agent per proxy URL on this node, shared by the sockets and media of the instances that use it:
 * every connection they open goes through it (docs/settings.md, "Proxy"). The media hosts' CA is
 * trusted through it as it is without one.
 */
export class ProxyAgents {
  private readonly agents = new Map<string, Agent>();

  constructor(
    private readonly caPem: string | undefined,
    /** Loopback and private addresses allowed (WEBHOOK_ALLOW_INSECURE): else a proxy's name is resolved under the outbound guard at each connection. */
    private readonly allowInsecure: boolean,
  ) {}

  of(url: string): Agent {
    let agent = this.agents.get(url);
    if (!agent) {
      agent = proxyAgent(url, { ...(this.caPem ? { ca: [...rootCertificates, this.caPem] } : {}), ...(this.allowInsecure ? {} : { lookup: guardedLookup }) });
      this.agents.set(url, agent);
    }
    return agent;
  }

  destroy() {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}
