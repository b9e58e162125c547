import { lookup as dnsLookup, promises as dns } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { Agent } from 'undici';
import { isForbiddenAddress } from '../domain/webhooks/address-policy.js';
import type { HostResolver } from '../domain/webhooks/url-policy.js';

export class BlockedAddress extends Error {
  constructor(address: string) {
    super(`refused to connect to the non-public address ${address}`);
    this.name = 'BlockedAddress';
  }
}

/** DNS lookup that fails when any answer is a non-public address: checked when connecting, every time. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 4);
    const blocked = addresses.find((a) => isForbiddenAddress(a.address));
    if (blocked) return callback(new BlockedAddress(blocked.address), '', 4);
    if (options.all) return (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
};

export const systemResolver: HostResolver = {
  async resolve(host) {
    return (await dns.lookup(host, { all: true })).map((a) => a.address);
  },
};

export interface OutboundAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body, read up to `maxBytes`. */
  body: Buffer;
  /** True when the body was longer than `maxBytes` (the rest was not read). */
  truncated: boolean;
}

export type OutboundHttp = ReturnType<typeof createOutboundHttp>;

/**
 * The gateway's client for tenant-given URLs: no redirects, a timeout, and (unless insecure URLs
 * are allowed) no connection to a non-public address, however the name resolves at that moment.
 */
export function createOutboundHttp(options: { allowInsecure: boolean; timeoutMs: number }) {
  // The client is loaded with the first call (a webhook, a link preview), not at start.
  let client: Promise<{ agent: Agent; request: typeof import('undici').request }> | undefined;
  const ready = () =>
    (client ??= import('undici').then(({ Agent, request }) => ({
      agent: new Agent({
        connect: options.allowInsecure ? {} : { lookup: guardedLookup },
        connections: 64,
        keepAliveTimeout: 10_000,
      }),
      request,
    })));

  return {
    async send(
      method: 'GET' | 'POST',
      url: string,
      init: { headers?: Record<string, string>; body?: string; maxBytes: number },
    ): Promise<OutboundAnswer> {
      const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
      // An IP literal never goes through DNS, so the lookup guard would not see it.
      if (!options.allowInsecure && isIP(host) && isForbiddenAddress(host)) throw new BlockedAddress(host);
      const { agent, request } = await ready();
      const response = await request(url, {
        method,
        headers: init.headers,
        body: init.body,
        dispatcher: agent,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > init.maxBytes) {
          truncated = true;
          response.body.destroy();
          break;
        }
        chunks.push(chunk as Buffer);
      }
      return { statusCode: response.statusCode, headers: response.headers, body: Buffer.concat(chunks), truncated };
    },
    close: async () => (client ? (await client).agent.close() : undefined),
  };
}

/** A short reason for a failed call, safe to show the tenant. */
/** What went wrong with a connection, in words, by the code Node or undici reports. */
const FAILURE_WORDS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused (nothing accepts connections on that port)',
  ECONNRESET: 'the connection was reset by the other side',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved right now',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network of that host cannot be reached',
  ETIMEDOUT: 'connecting timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connecting timed out',
  UND_ERR_SOCKET: 'the connection closed before an answer came',
  EPROTO: 'the TLS handshake failed',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its TLS certificate chain is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate cannot be verified',
  ERR_TLS_CERT_ALTNAME_INVALID: "its TLS certificate does not name that host",
};

/**
 * A failed call in words a tenant can act on: where it tried (host and port) and what failed, with the
 * system's code for searching, e.g. "could not connect to hooks.example.com:443: the connection was
 * refused (nothing accepts connections on that port) [ECONNREFUSED]".
 */
export function describeFailure(error: unknown, timeoutMs: number, url?: string): string {
  const e = error as Error & { code?: string; cause?: { code?: string; message?: string } };
  let target = '';
  if (url) {
    try {
      const parsed = new URL(url);
      target = `${parsed.hostname}:${parsed.port || (parsed.protocol === 'https:' ? 443 : 80)}`;
    } catch {
      // A URL that does not parse never got this far; keep the description without a target.
    }
  }
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT') {
    return `${target ? `${target} ` : ''}gave no answer within ${timeoutMs} ms`;
  }
  if (e instanceof BlockedAddress) return e.message;
  if (e.cause instanceof BlockedAddress) return e.cause.message;
  const code = e.code ?? e.cause?.code;
  const words = (code && FAILURE_WORDS[code]) ?? e.cause?.message ?? e.message;
  return `could not connect${target ? ` to ${target}` : ''}: ${words}${code ? ` [${code}]` : ''}`;
}
