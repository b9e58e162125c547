import { Forbidden } from './errors.js';
import type { EffectiveLimits, Plan } from './tenants/plans.js';

/** Who is calling. Every domain operation receives one and acts for `tenantId` only. */
export type Actor =
  | {
      readonly kind: 'apiKey';
      readonly tenantId: string;
      readonly plan: Plan;
      /** The tenant's limits as its plan and its own settings make them, read with the credential. */
      readonly limits: EffectiveLimits;
      readonly apiKeyId: string;
      readonly testMode: boolean;
    }
  | { readonly kind: 'user'; readonly tenantId: string; readonly plan: Plan; readonly limits: EffectiveLimits; readonly userId: string };

export type { MessageMode } from './messages/message-values.js';
import type { MessageMode } from './messages/message-values.js';

/** Cookie sessions send as production; only a test key sends in test mode. */
export function modeOf(actor: Actor): MessageMode {
  return actor.kind === 'apiKey' && actor.testMode ? 'test' : 'production';
}

/** The one tenancy rule: a resource of another tenant is forbidden, never visible. */
export function assertSameTenant(actor: Actor, resource: { tenantId: string }): void {
  if (resource.tenantId !== actor.tenantId) throw new Forbidden();
}
