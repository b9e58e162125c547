import type { Router } from '@koa/router';
import type { InstanceRecord } from '../../../domain/instances/instances.ports.js';
import type { AppState } from '../../../http/context.js';
import { eventsFromEvolution, evolutionNamesOf } from '../events.js';
import { type EvolutionDeps, operation } from '../operation.js';

/** An instance's webhook as Evolution's webhook/find answers it. */
function presentWebhook(instance: InstanceRecord) {
  return {
    id: instance.id,
    url: instance.webhookUrl ?? '',
    headers: {},
    enabled: instance.webhookUrl !== null,
    events: evolutionNamesOf(instance.webhookEvents),
    webhookByEvents: false,
    webhookBase64: false,
    webhookFormat: instance.webhookFormat,
    createdAt: instance.createdAt.toISOString(),
    updatedAt: instance.updatedAt.toISOString(),
    instanceId: instance.id,
  };
}

/**
 * /webhook/set and /webhook/find: the instance's one webhook (docs/webhooks.md), delivering
 * Evolution's bodies unless the body asks for the gateway's (`webhookFormat`, docs/evolution.md).
 */
export function webhookRoutes(router: Router<AppState>, deps: EvolutionDeps) {
  const { instances } = deps.services;

  operation(router, deps, 'post', '/webhook/set', { named: true, names: { url: 'webhook.url', events: 'webhook.events', format: 'webhook.webhookFormat', webhookUrl: 'webhook.url' } }, async ({ actor, instance, body }) => {
    const webhook = (body.webhook && typeof body.webhook === 'object' ? body.webhook : {}) as Record<string, unknown>;
    if (webhook.enabled === false) {
      const { instance: updated } = await instances.update(actor, instance.id, { webhookUrl: null });
      return { status: 201, body: presentWebhook(updated) };
    }
    const events = eventsFromEvolution(webhook.events, 'webhook.events');
    const updated = await instances.setWebhook(actor, instance.id, { url: webhook.url, ...(events ? { events } : {}), format: webhook.webhookFormat ?? 'evolution' });
    return { status: 201, body: presentWebhook(updated) };
  });

  operation(router, deps, 'get', '/webhook/find', { named: true }, async ({ instance }) => ({
    body: instance.webhookUrl === null ? null : presentWebhook(instance),
  }));
}
