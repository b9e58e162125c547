import type { Config } from '../config.js';
import { systemClock } from '../domain/ports.js';
import type { Ports } from '../domain/services.js';
import { createApiKeyStore } from '../infra/db/stores/api-key-store.js';
import { createDeliveryLog } from '../infra/db/stores/delivery-log.js';
import { createInstanceStore } from '../infra/db/stores/instance-store.js';
import { createMessageRouter } from '../infra/db/stores/message-router.js';
import { createConversationStore } from '../infra/db/stores/conversation-store.js';
import { createMessageStore } from '../infra/db/stores/message-store.js';
import { createKeptMediaStore } from '../infra/db/stores/kept-media-store.js';
import { createSessionStore } from '../infra/db/stores/session-store.js';
import { createSetupStore } from '../infra/db/stores/setup-store.js';
import { createTenantStore } from '../infra/db/stores/tenant-store.js';
import type { Logger } from '../infra/logger.js';
import { createMediaProbe } from '../infra/media-probe.js';
import { systemResolver } from '../infra/outbound-http.js';
import { createQrImages } from '../infra/qr-images.js';
import { createLoginThrottle } from '../infra/rate-limit/login-throttle.js';
import { createQuotaCounter } from '../infra/rate-limit/quota-counter.js';
import { subjectOf } from '../infra/rate-limit/request-limiter.js';
import { createWebhookSender } from '../infra/webhook-sender.js';
import type { Delivery } from './delivery.js';
import { createProxyVault } from '../engines/state/proxy-vault.js';
import { createProxyProbe } from '../infra/proxy/proxy-probe.js';
import type { OfferedEngines } from './engines.js';
import type { Storage } from './storage.js';

/** Everything the domain needs from outside (Ports), from the storage, the delivery wiring and the offered engines. */
export function domainPorts(config: Config, logger: Logger, storage: Storage, delivery: Delivery, engines: OfferedEngines, workArrived: () => void): Ports {
  const { db, limiters, invalidation, outbound, requestLimiter, metrics } = storage;
  const { outbox, liveFeed, deliveries, placement } = delivery;
  const prisma = db.prisma;
  // PGlite runs one statement at a time: a second group in flight would only make both smaller, and
  // a group gathers for a few milliseconds so that it is one statement for many requests. (With
  // the database on its own thread, two groups in flight and no wait measured no faster.)
  const groups = {
    ...(db.kind === 'pglite' ? { maxConcurrent: 1, windowMs: 4 } : { maxConcurrent: 4, windowMs: 0 }),
    onStored: metrics.sendsAccepted,
  };
  return {
    clock: systemClock,
    tenants: createTenantStore(prisma, invalidation),
    setup: createSetupStore(prisma),
    apiKeys: createApiKeyStore(prisma, invalidation),
    sessions: createSessionStore(prisma, invalidation),
    loginThrottle: createLoginThrottle(limiters, { perEmail: config.LOGIN_MAX_PER_EMAIL, perIp: config.LOGIN_MAX_PER_IP, firstWaitSeconds: config.LOGIN_BACKOFF_S }),
    messages: createMessageStore(prisma, db.statements, outbox, groups),
    conversations: createConversationStore(prisma, db.statements, outbox),
    router: createMessageRouter(prisma, db.statements, invalidation),
    quota: createQuotaCounter(limiters),
    instances: createInstanceStore(prisma, db.statements, outbox, invalidation, (change) => liveFeed.publish([{ kind: 'instance', ...change }])),
    qrImages: createQrImages(),
    engines: engines.registry,
    ownership: placement.ownership,
    media: createMediaProbe(outbound, config.WEBHOOK_TIMEOUT_MS),
    mediaStore: storage.mediaStore,
    keptMedia: createKeptMediaStore(db.statements, outbox, storage.mediaStore),
    mediaLinks: storage.mediaLinks,
    webhookSender: createWebhookSender(outbound, config.WEBHOOK_TIMEOUT_MS),
    resolver: systemResolver,
    deliveryLog: createDeliveryLog(prisma, (due) => deliveries.scheduled(due)),
    proxies: createProxyVault({ statements: db.statements, cipher: engines.stateKey }),
    proxyProbe: createProxyProbe({ checkUrl: config.PROXY_CHECK_URL, timeoutMs: config.WEBHOOK_TIMEOUT_MS, allowInsecure: config.WEBHOOK_ALLOW_INSECURE }),
    requestUsage: (actor) => requestLimiter.minuteUsage(subjectOf(actor), actor.limits.requestsPerMinute),
    report: (error, context) => logger.error({ err: error }, context),
    warn: (message, context) => logger.warn(context, message),
    // A macrotask: the answer of the request that asked for it is written first.
    background: (work, what) =>
      void setImmediate(() => void work().catch((error: unknown) => logger.error({ err: error }, `${what} failed`))),
    workArrived,
  };
}
