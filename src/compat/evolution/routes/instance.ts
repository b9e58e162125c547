import type { Router } from '@koa/router';
import { Invalid, NotSupported } from '../../../domain/errors.js';
import type { AppState } from '../../../http/context.js';
import { eventsFromEvolution, evolutionNamesOf } from '../events.js';
import { type EvolutionDeps, operation } from '../operation.js';
import { presentInstanceRow, presentQr, stateOf } from '../presenters.js';

/** Evolution's integration names for the gateway's engines (docs/evolution.md, "Instances"). */
const INTEGRATIONS: Record<string, string> = { 'WHATSAPP-BAILEYS': 'CHAT-BAILEYS', 'WHATSAPP-BUSINESS': 'CHAT-CLOUD' };

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** /instance/*: create, connect, state, list, restart, logout, delete (docs/evolution.md). */
export function instanceRoutes(router: Router<AppState>, deps: EvolutionDeps) {
  const { instances } = deps.services;

  operation(router, deps, 'post', '/instance/create', { names: { name: 'instanceName', webhookUrl: 'webhook.url', webhookEvents: 'webhook.events', webhookFormat: 'webhook.webhookFormat', integration: 'integration' } }, async ({ actor, body }) => {
    const webhook = (body.webhook && typeof body.webhook === 'object' ? body.webhook : {}) as Record<string, unknown>;
    const url = text(webhook.url) ?? text(body.webhookUrl);
    const events = eventsFromEvolution(webhook.events ?? body.webhookEvents, webhook.events !== undefined ? 'webhook.events' : 'webhookEvents');
    const integration = text(body.integration);
    const { instance, qr } = await instances.create(actor, 'v1', {
      name: body.instanceName,
      ...(integration ? { integration: INTEGRATIONS[integration] ?? integration } : {}),
      ...(url ? { webhookUrl: url } : {}),
      ...(events ? { webhookEvents: events } : {}),
      // Made through Evolution's API, its webhook speaks Evolution's bodies unless asked otherwise.
      webhookFormat: webhook.webhookFormat ?? body.webhookFormat ?? 'evolution',
    });
    return {
      status: 201,
      body: {
        instance: { instanceName: instance.name, instanceId: instance.id, integration: instance.engine, webhookWaBusiness: null, accessTokenWaBusiness: '', status: stateOf(instance) },
        hash: null,
        // The secret that signs its deliveries, shown here once (docs/webhooks.md, "Headers").
        webhook: { webhookUrl: instance.webhookUrl ?? undefined, webhookHeaders: undefined, webhookByEvents: false, webhookBase64: false, events: evolutionNamesOf(instance.webhookEvents), webhookFormat: instance.webhookFormat, webhookSecret: instance.webhookSecret },
        websocket: {},
        rabbitmq: {},
        nats: {},
        sqs: {},
        settings: {},
        ...(body.qrcode === true ? { qrcode: presentQr(qr) } : {}),
      },
    };
  });

  operation(router, deps, 'get', '/instance/connect', { named: true, names: { phone: 'number' } }, async ({ actor, instance, query }) => {
    if (instance.state === 'connected') return { body: { instance: { instanceName: instance.name, state: 'open' } } };
    const number = text(query.number);
    if (number) {
      const pairing = await instances.requestPairingCode(actor, instance.id, { phone: number.startsWith('+') ? number : `+${number}` });
      const { qr } = await instances.get(actor, instance.id);
      return { body: presentQr(qr, pairing.code) };
    }
    return { body: presentQr(await instances.qrCode(actor, instance.id)) };
  });

  operation(router, deps, 'get', '/instance/connectionState', { named: true }, async ({ instance }) => ({
    body: { instance: { instanceName: instance.name, state: stateOf(instance) } },
  }));

  operation(router, deps, 'get', '/instance/fetchInstances', {}, async ({ actor, query }) => {
    const name = text(query.instanceName);
    const id = text(query.instanceId);
    const list = (await instances.list(actor)).filter((instance) => (!name || instance.name === name) && (!id || instance.id === id));
    return { body: list.map(presentInstanceRow) };
  });

  // The gateway brings a dropped link back on its own (docs/operating.md): restart reports where it stands.
  operation(router, deps, 'post', '/instance/restart', { named: true }, async ({ instance }) => {
    if (stateOf(instance) === 'close') throw Invalid.at('instanceName', `the "${instance.name}" instance is not connected`);
    return { body: { instance: { instanceName: instance.name, status: stateOf(instance) } } };
  });

  operation(router, deps, 'delete', '/instance/logout', { named: true }, async ({ actor, instance }) => {
    if (stateOf(instance) === 'close') throw Invalid.at('instanceName', `the "${instance.name}" instance is not connected`);
    await instances.disconnect(actor, instance.id);
    return { body: { status: 'SUCCESS', error: false, response: { message: 'Instance logged out' } } };
  });

  operation(router, deps, 'delete', '/instance/delete', { named: true }, async ({ actor, instance }) => {
    await instances.remove(actor, instance.id);
    return { body: { status: 'SUCCESS', error: false, response: { message: 'Instance deleted' } } };
  });

  // An account-wide presence has no operation in the gateway yet: refused, never a silent success.
  operation(router, deps, 'post', '/instance/setPresence', { named: true }, async ({ instance }) => {
    throw new NotSupported(instance.engine, 'an account-wide presence (instance/setPresence)');
  });
}
