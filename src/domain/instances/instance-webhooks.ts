import { randomBytes } from 'node:crypto';
import type { Actor } from '../actor.js';
import { Invalid, NotFound } from '../errors.js';
import type { Clock } from '../ports.js';
import { allValid, parseInput, textField } from '../validation.js';
import type { UrlPolicy } from '../webhooks/url-policy.js';
import { eventsOf } from '../events/catalogue.js';
import { setWebhookInput } from './instances.input.js';
import type { InstanceRecord, InstanceStore } from './instances.ports.js';

/** A webhook signing secret in the Standard Webhooks form (`whsec_` + base64 of 24 random bytes). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** A webhook URL as given: unchanged when absent, null when emptied, checked by the URL policy otherwise. */
export async function checkedWebhookUrl(urls: UrlPolicy, raw: string | null | undefined, field: string): Promise<string | null | undefined> {
  if (raw === undefined || raw === null) return raw;
  return raw === '' ? null : urls.check(raw, field);
}

/** An instance's webhook: where it goes, which events, and the secret it is signed with. */
export function createWebhookSettings(deps: {
  instances: InstanceStore;
  clock: Clock;
  urls: UrlPolicy;
  ownedInstance: (actor: Actor, id: string) => Promise<InstanceRecord>;
}) {
  const { instances, clock, ownedInstance } = deps;
  const webhookUrl = (raw: string | null | undefined, field: string) => checkedWebhookUrl(deps.urls, raw, field);
  return {
    async setWebhook(actor: Actor, id: string, input: unknown) {
      const instance = await ownedInstance(actor, id);
      const [data, url] = await allValid(
        () => parseInput(setWebhookInput(instance.variant), input),
        () => webhookUrl(textField(input, 'url'), 'url'),
      );
      if (!url) throw Invalid.at('url', 'is required');
      const updated = await instances.change(instance.id, { webhookUrl: url, webhookEvents: data.events ?? [...eventsOf(instance.variant)], ...(data.format ? { webhookFormat: data.format } : {}) }, []);
      if (!updated || updated === 'name_taken') throw new NotFound('Instance');
      return updated;
    },

    /**
     * A new webhook secret, shown once. The old one keeps signing beside it for a day (see
     * signature.ts), so a receiver can switch without losing a delivery.
     */
    async rotateWebhookSecret(actor: Actor, id: string): Promise<{ webhookSecret: string }> {
      const instance = await ownedInstance(actor, id);
      const webhookSecret = newWebhookSecret();
      const updated = await instances.change(
        instance.id,
        { webhookSecret, previousWebhookSecret: instance.webhookSecret, webhookSecretRotatedAt: clock.now() },
        [],
      );
      if (!updated || updated === 'name_taken') throw new NotFound('Instance');
      return { webhookSecret };
    },
  };
}
