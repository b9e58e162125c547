import type { ApiKeyStore } from './apikeys/apikeys.ports.js';
import { createApiKeysService } from './apikeys/apikeys.service.js';
import type { LoginThrottle, SessionStore } from './auth/auth.ports.js';
import { createAuthService } from './auth/auth.service.js';
import type { MessageRouter, MessageStore } from './messages/messages.ports.js';
import type { DailyQuotas, QuotaCounter } from './messages/send-quota.js';
import { createMessagesService } from './messages/messages.service.js';
import type { Clock } from './ports.js';
import type { TenantStore } from './tenants/tenants.ports.js';
import { createTenantsService } from './tenants/tenants.service.js';

/** Everything the domain needs from outside, implemented by infra/. */
export interface Ports {
  clock: Clock;
  tenants: TenantStore;
  apiKeys: ApiKeyStore;
  sessions: SessionStore;
  loginThrottle: LoginThrottle;
  messages: MessageStore;
  router: MessageRouter;
  quota: QuotaCounter;
}

/** Business limits the domain enforces, from configuration. */
export interface Policies {
  quotas: DailyQuotas;
}

export type Services = ReturnType<typeof createServices>;

export function createServices(ports: Ports, policies: Policies) {
  const { clock } = ports;
  return {
    auth: createAuthService({ ...ports, throttle: ports.loginThrottle }),
    tenants: createTenantsService(ports),
    apiKeys: createApiKeysService({ apiKeys: ports.apiKeys, clock }),
    messages: createMessagesService({ ...ports, clock, quotas: policies.quotas }),
  };
}
