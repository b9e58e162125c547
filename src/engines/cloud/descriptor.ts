import { z } from 'zod';
import { int, url } from '../../config.js';
import { Unavailable } from '../../domain/errors.js';
import type { EngineEvents } from '../../domain/network/engine.port.js';
import { createLastReceived } from './last-received.js';
import { defineEngine } from '../descriptor.js';
import { createCloudCredentialStore } from './credentials.js';
import { cloudCredentials } from './credentials-input.js';
import { CLOUD_INTEGRATION, createCloudEngine } from './index.js';
import { createCloudWebhookReceiver } from './webhook-receiver.js';
import { createAutoReadCheck } from './auto-read.js';
import { webhookSurface } from './webhook-operations.js';
import { cloudWebhookRoutes } from './webhook-routes.js';

/** CHAT-CLOUD: the official business API, linked with credentials; the network reports by webhook. */
export const cloudEngine = defineEngine({
  name: 'cloud',
  integration: CLOUD_INTEGRATION,
  jidDomain: 's.whatsapp.net',
  settings: z.object({
    CLOUD_API_URL: url(['https:', 'http:']).default('https://graph.facebook.com'),
    CLOUD_API_VERSION: z.string().regex(/^v\d+\.\d+$/, 'a Graph API version such as v23.0').default('v23.0'),
    CLOUD_API_TIMEOUT_MS: int(100, 120_000).default(15_000),
    CLOUD_VERIFY_TOKEN: z.string().min(8, 'at least 8 characters').max(256, 'at most 256 characters').optional(),
    CLOUD_MPS: int(1, 100_000).default(80),
    CLOUD_WEBHOOK_PER_MINUTE: int(1, 10_000_000).default(6000),
  }),
  check: (settings) =>
    settings.CLOUD_VERIFY_TOKEN ? [] : ['CLOUD_VERIFY_TOKEN: required when ENGINES offers cloud (the token the network is given to verify /webhooks/cloud)'],
  loginFlows: ['credentials'],
  credentials: cloudCredentials,
  // What the API documents (docs/messaging.md): no polls, edits, deletes, groups, mentions or number
  // checks; of the account, its business profile only (docs/settings.md).
  capabilities: ['text', 'media', 'voice', 'sticker', 'location', 'contacts', 'reaction', 'reply', 'read', 'typing', 'template', 'own_profile'],
  http: webhookSurface,
  async create({ db, logger, limiters, stateKey }, settings) {
    const store = createCloudCredentialStore({ statements: db.statements, cipher: await stateKey() });
    const cloud = createCloudEngine({
      credentials: store,
      api: { url: settings.CLOUD_API_URL, version: settings.CLOUD_API_VERSION, timeoutMs: settings.CLOUD_API_TIMEOUT_MS },
      messagesPerSecond: settings.CLOUD_MPS,
      lastReceived: createLastReceived(db.statements),
      logger,
      report: (error, what) => logger.error({ err: error }, `${what} failed`),
    });
    let handlers: EngineEvents | undefined;
    const receiver = createCloudWebhookReceiver({
      credentials: store,
      autoRead: { wanted: createAutoReadCheck(db.statements), mark: (credentials, messageId) => cloud.markRead(credentials, messageId) },
      events: () => {
        if (!handlers) throw new Unavailable('The gateway is starting; try again.');
        return handlers;
      },
      logger,
    });
    return {
      engine: cloud.engine,
      connect(events, owners) {
        handlers = events;
        cloud.connect(events, owners);
      },
      credentials: store,
      routes: cloudWebhookRoutes({
        receiver,
        verifyToken: settings.CLOUD_VERIFY_TOKEN!,
        perSource: limiters({ keyPrefix: 'cloud-webhooks', points: settings.CLOUD_WEBHOOK_PER_MINUTE, durationSeconds: 60 }),
      }),
      stop: cloud.stop,
    };
  },
});
