import { z } from 'zod';
import { int } from '../../config.js';
import { defineEngine } from '../descriptor.js';
import { SANDBOX_INTEGRATION } from './directory.js';
import { createSandboxDirectory } from './directory.js';
import { createSandboxEngine } from './engine.js';
import { createSandboxGroups } from './groups.js';
import { createSandboxHandoffs } from './handoffs.js';
import { createPhoneInbox } from './inbox.js';
import { createSandboxMedia } from './media.js';
import { createSandboxSignals } from './signals.js';
import { createSandboxPasts } from './pasts.js';
import { createSandboxOwnAccount } from './own-account.js';
import { controlSurface } from './control-operations.js';
import { sandboxRoutes } from './routes.js';
import { pastRoutes } from './past-routes.js';

/** CHAT-SANDBOX: the simulated network, with its control API under /sandbox (the phones' side). */
export const sandboxEngine = defineEngine({
  name: 'sandbox',
  integration: SANDBOX_INTEGRATION,
  jidDomain: 'sandbox.chat',
  settings: z.object({
    SANDBOX_DELIVERY_DELAY_MS: int(0, 600_000).default(100),
    SANDBOX_RECONNECT_DELAY_MS: int(0, 600_000).default(300),
    // Which phones have a past their instances take as history (docs/engines.md, "The sandbox's past").
    SANDBOX_PAST: z.enum(['given', 'generated']).default('given'),
  }),
  loginFlows: ['qr', 'pairing_code'],
  // Everything the network offers but templates, a business API's own (docs/messaging.md).
  capabilities: ['text', 'media', 'voice', 'sticker', 'location', 'contacts', 'reaction', 'reply', 'mentions', 'edit', 'delete', 'read', 'typing', 'number_check', 'groups', 'group_admin', 'poll', 'history', 'chat_state', 'block', 'profile', 'calls', 'always_online', 'own_profile', 'privacy'],
  http: controlSurface,
  async create({ db, logger, config }, settings) {
    const ownAccount = createSandboxOwnAccount(db.statements, config.PUBLIC_URL?.replace(/\/$/, '') ?? '');
    const network = createSandboxEngine({
      handoffs: createSandboxHandoffs(db.statements),
      directory: createSandboxDirectory(db.prisma),
      groups: createSandboxGroups(db.statements),
      media: createSandboxMedia(db.prisma),
      signals: createSandboxSignals(db.statements),
      pasts: createSandboxPasts(db.prisma, settings.SANDBOX_PAST),
      ownAccount,
      publicUrl: config.PUBLIC_URL?.replace(/\/$/, '') ?? '',
      deliveryDelayMs: settings.SANDBOX_DELIVERY_DELAY_MS,
      reconnectDelayMs: settings.SANDBOX_RECONNECT_DELAY_MS,
      onRetry: (error) => logger.warn({ err: { message: (error as Error).message } }, 'sandbox report not stored yet; retrying'),
    });
    const inbox = createPhoneInbox(db.prisma);
    return {
      engine: network.engine,
      connect: network.connect,
      routes: [...sandboxRoutes(network, inbox), ...pastRoutes(network, inbox, ownAccount)],
      stop: network.stop,
    };
  },
});
