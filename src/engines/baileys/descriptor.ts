import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError, int, key32, url } from '../../config.js';
import { defineEngine } from '../descriptor.js';

/**
 * CHAT-BAILEYS: the network's multi-device web protocol, one linked device per instance. The
 * library is loaded only when ENGINES offers it (it is large, and its signal dependency is GPL-3.0).
 */
export const baileysEngine = defineEngine({
  name: 'baileys',
  integration: 'CHAT-BAILEYS',
  jidDomain: 's.whatsapp.net',
  settings: z.object({
    CHAT_NETWORK_URL: url(['ws:', 'wss:']).optional(),
    CHAT_NETWORK_ROOT_KEY: key32.optional(),
    CHAT_NETWORK_CA_FILE: z.string().min(1).optional(),
    CHAT_WEB_VERSION: z
      .string()
      .regex(/^\d+\.\d+\.\d+$/, 'three numbers separated by dots, e.g. 2.3000.1023223821')
      .transform((value) => value.split('.').map(Number) as [number, number, number])
      .optional(),
    CHAT_QR_TIMEOUT_S: int(1, 600).optional(),
    CHAT_HANDSHAKES_MAX: int(1, 1000).default(16),
  }),
  loginFlows: ['qr', 'pairing_code'],
  // docs/messaging.md
  capabilities: ['text', 'media', 'voice', 'sticker', 'location', 'contacts', 'reaction', 'reply', 'mentions', 'edit', 'delete', 'read', 'typing', 'number_check', 'groups', 'group_admin', 'poll', 'history', 'block', 'profile', 'proxy'],
  async create({ config, db, outbound, metrics, logger, stateKey }, settings) {
    const cipher = await stateKey();
    let caPem: string | undefined;
    if (settings.CHAT_NETWORK_CA_FILE) {
      try {
        caPem = readFileSync(settings.CHAT_NETWORK_CA_FILE, 'utf8');
      } catch (error) {
        throw new ConfigError([`CHAT_NETWORK_CA_FILE: cannot be read (${(error as Error).message})`]);
      }
    }
    const [{ createBaileysEngine, BAILEYS_INTEGRATION }, { createEngineStateStore }, { mediaFetcher }, { sentTextReader, sentPollReader }, { createProxyVault }] = await Promise.all([
      import('./index.js'),
      import('./auth-state.js'),
      import('./outbound.js'),
      import('./sent-text.js'),
      import('../state/proxy-vault.js'),
    ]);
    const proxies = createProxyVault({ statements: db.statements, cipher: stateKey });
    const baileys = createBaileysEngine({
      store: createEngineStateStore({ statements: db.statements, cipher, cacheBytes: 64 * 1024 * 1024, writesInFlight: db.kind === 'pglite' ? 1 : 4 }),
      network: {
        url: settings.CHAT_NETWORK_URL,
        rootKey: settings.CHAT_NETWORK_ROOT_KEY ? Buffer.from(settings.CHAT_NETWORK_ROOT_KEY, 'base64') : undefined,
        caPem,
        version: settings.CHAT_WEB_VERSION,
        qrTimeoutMs: settings.CHAT_QR_TIMEOUT_S === undefined ? undefined : settings.CHAT_QR_TIMEOUT_S * 1000,
      },
      fetchMedia: mediaFetcher(outbound, config.WEBHOOK_TIMEOUT_MS),
      allowInsecureMedia: config.WEBHOOK_ALLOW_INSECURE,
      proxyOf: async (instanceId) => (await proxies.read(instanceId))?.url ?? null,
      maxHandshakes: settings.CHAT_HANDSHAKES_MAX,
      onReconnect: (reason) => metrics.engineReconnect(BAILEYS_INTEGRATION, reason),
      sentText: sentTextReader(db.prisma),
      pollOf: sentPollReader(db.prisma),
      logger,
      report: (error, what) => logger.error({ err: error }, `${what} failed`),
    });
    return { engine: baileys.engine, connect: baileys.connect, counts: baileys.counts, stop: baileys.stop };
  },
});
