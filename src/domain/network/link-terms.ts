import type { LinkTerms } from './engine.port.js';
import { historySyncOf } from '../conversations/history-sync.js';
import type { InstanceRecord } from '../instances/instances.ports.js';
import { storedSettingsOf } from '../settings/instance-settings.js';

/** The QR timings of pairings (QR_*): each code's lifetime by variant, and codes per pairing. */
export interface QrPolicy {
  sessionTtlSeconds: number;
  v1TtlSeconds: number;
  attempts: number;
}

/** Group, contact and presence events belong to the session variant (spec 6.2): a v1 instance keeps none. */
export const keepsNetworkEvents = (instance: Pick<InstanceRecord, 'variant'>) => instance.variant === 'session';

/** What the instance's variant means for its link; engines follow these terms and never read the variant. */
export function linkTermsOf(instance: Pick<InstanceRecord, 'variant' | 'historySync' | 'settings'>, qr: QrPolicy, proxy: string | null = null): LinkTerms {
  const lifetimeSeconds = instance.variant === 'v1' ? qr.v1TtlSeconds : qr.sessionTtlSeconds;
  const { calls, alwaysOnline, autoRead, sending } = storedSettingsOf(instance);
  return {
    qr: { lifetimeMs: lifetimeSeconds * 1000, codes: qr.attempts },
    networkEvents: keepsNetworkEvents(instance),
    history: historySyncOf(instance),
    settings: { calls, alwaysOnline, autoRead, sending },
    proxy,
  };
}
