import { z } from 'zod';
import { int } from '../../config.js';
import { defineEngine } from '../descriptor.js';
import { SANDBOX_INTEGRATION } from './directory.js';
import { createSandboxDirectory } from './directory.js';
import { createSandboxEngine } from './engine.js';
import { createSandboxHandoffs } from './handoffs.js';
import { createPhoneInbox } from './inbox.js';
import { createSandboxMedia } from './media.js';
import { sandboxRoutes } from './routes.js';

/** CHAT-SANDBOX: the simulated network, with its control API under /sandbox (the phones' side). */
export const sandboxEngine = defineEngine({
  name: 'sandbox',
  integration: SANDBOX_INTEGRATION,
  jidDomain: 'sandbox.chat',
  settings: z.object({
    SANDBOX_DELIVERY_DELAY_MS: int(0, 600_000).default(100),
    SANDBOX_RECONNECT_DELAY_MS: int(0, 600_000).default(300),
  }),
  loginFlows: ['qr', 'pairing_code'],
  capabilities: ['text', 'media'],
  documents: ['sandbox'],
  async create({ db, logger }, settings) {
    const network = createSandboxEngine({
      handoffs: createSandboxHandoffs(db.statements),
      directory: createSandboxDirectory(db.prisma),
      media: createSandboxMedia(db.prisma),
      deliveryDelayMs: settings.SANDBOX_DELIVERY_DELAY_MS,
      reconnectDelayMs: settings.SANDBOX_RECONNECT_DELAY_MS,
      onRetry: (error) => logger.warn({ err: { message: (error as Error).message } }, 'sandbox report not stored yet; retrying'),
    });
    return {
      engine: network.engine,
      connect: network.connect,
      routes: [sandboxRoutes(network, createPhoneInbox(db.prisma))],
      stop: network.stop,
    };
  },
});
