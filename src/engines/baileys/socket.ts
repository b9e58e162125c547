import { Agent } from 'node:https';
import type { ProxyAgents } from './proxy-agents.js';
import { rootCertificates } from 'node:tls';
import makeWASocket, {
  type AuthenticationCreds,
  type proto,
  type SignalKeyStore,
  type WAMessageKey,
  WA_CERT_DETAILS,
  type WASocket,
} from 'baileys';
import type { Logger } from '../../infra/logger.js';
import { sharedCaches } from './shared-caches.js';

/** The logger shape the library takes. */
export type LibraryLogger = NonNullable<Parameters<typeof makeWASocket>[0]['logger']>;

/** Where the engine connects, and what it trusts there (docs/configuration.md: CHAT_NETWORK_*, CHAT_WEB_VERSION). */
export interface NetworkSettings {
  /** The network's WebSocket; the library's own when unset. */
  url?: string;
  /** The root key the network's certificate chain must be signed by; the library's own when unset. */
  rootKey?: Buffer;
  /** An extra CA for the network's media hosts (a local network's test CA). */
  caPem?: string;
  version?: [number, number, number];
  /** Each QR code's lifetime; the library's own (60 s, then 20 s) when unset. */
  qrTimeoutMs?: number;
}

/**
 * The library's log lines, at a level below its own: what it calls an error (a stream error, a
 * message it could not decrypt) is about the network, which the engine reports itself; at info and
 * below it is very chatty.
 */
export function libraryLogger(logger: Logger): LibraryLogger {
  const wrap = (target: Logger): LibraryLogger => ({
    get level() {
      return target.level;
    },
    child: (bindings: Record<string, unknown>) => wrap(target.child(bindings)),
    trace: (obj: unknown, msg?: string) => target.trace(obj, msg),
    debug: (obj: unknown, msg?: string) => target.trace(obj, msg),
    info: (obj: unknown, msg?: string) => target.trace(obj, msg),
    warn: (obj: unknown, msg?: string) => target.debug(obj, msg),
    error: (obj: unknown, msg?: string) => target.warn(obj, msg),
  });
  return wrap(logger.child({ component: 'baileys' }));
}

/** Uploads and downloads go to the media hosts the network names (https only): their CA trusted beside the usual ones. */
export const mediaAgent = (settings: NetworkSettings) => new Agent({ keepAlive: true, ca: settings.caPem ? [...rootCertificates, settings.caPem] : undefined });

export function socketFactory(settings: NetworkSettings, fetchAgent: Agent, proxies: ProxyAgents) {
  // Read at every handshake, process-wide: a local network's test root.
  if (settings.rootKey) WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(settings.rootKey);
  const caches = sharedCaches();

  return (options: {
    creds: AuthenticationCreds;
    keys: SignalKeyStore;
    logger: LibraryLogger;
    /** A message the instance sent, for the library to send again when the recipient asks (a retry receipt). */
    getMessage: (key: WAMessageKey) => Promise<proto.IMessage | undefined>;
    /** The device asks the phone for its whole past when it links (the instance's history policy is `full`). */
    fullHistory?: boolean;
    /** The instance's proxy: the socket and media uploads both go through it (docs/settings.md, "Proxy"). */
    proxy: string | null;
  }): WASocket => {
    const through = options.proxy ? (proxies.of(options.proxy) as Agent) : undefined;
    return makeWASocket({
      auth: { creds: options.creds, keys: options.keys },
      logger: options.logger,
      ...(settings.url ? { waWebSocketUrl: settings.url } : {}),
      ...(settings.version ? { version: settings.version } : {}),
      ...(settings.qrTimeoutMs ? { qrTimeout: settings.qrTimeoutMs } : {}),
      browser: ['Messaging Gateway', 'Chrome', '1.0'],
      // A gateway is not a person at a screen: it does not show the phone online.
      markOnlineOnConnect: false,
      syncFullHistory: options.fullHistory === true,
      // The engine reads history chunks itself (history.ts): the library would fetch them from its fixed
      // media host and hold the first connection's events 20 s for them (docs/engines.md, "History sync").
      shouldSyncHistoryMessage: () => false,
      generateHighQualityLinkPreview: false,
      ...(through ? { agent: through } : {}),
      fetchAgent: through ?? fetchAgent,
      ...caches,
      getMessage: options.getMessage,
      // A write the database refuses is retried a few times, not for half a minute.
      transactionOpts: { maxCommitRetries: 3, delayBetweenTriesMs: 500 },
    });
  };
}

export type SocketFactory = ReturnType<typeof socketFactory>;
