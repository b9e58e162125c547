import { createMessageActionsService } from './messages/message-actions.service.js';
import type { ConversationStore } from './conversations/conversations.ports.js';
import { createGroupsService } from './groups/groups.service.js';
import { createConversationsService } from './conversations/conversations.service.js';
import { integrationsOf } from './network/integrations.js';
import type { ApiKeyStore } from './apikeys/apikeys.ports.js';
import { createApiKeysService } from './apikeys/apikeys.service.js';
import type { LoginThrottle, SessionStore } from './auth/auth.ports.js';
import { createAuthService } from './auth/auth.service.js';
import { createEngineEvents } from './network/engine-events.js';
import { createTransitions } from './instances/transitions.js';
import type { EngineRegistry } from './network/engine.port.js';
import type { Ownership } from './ownership/ownership.js';
import { createOwnerDuties } from './ownership/owner-duties.js';
import type { InstanceRecord, InstanceStore, QrImages } from './instances/instances.ports.js';
import { createInstancesService } from './instances/instances.service.js';
import { createDispatcher } from './messages/dispatcher.js';
import { createFirstContactCheck } from './messages/first-contact.js';
import { createRestrictionsService } from './settings/restrictions.service.js';
import { statusEvent } from './events/message-payloads.js';
import { QUEUED_MESSAGE_LIFETIME_MS } from './messages/message-status.js';
import { GATEWAY_ERRORS } from './messages/message-error.js';
import type { MessageRouter, MessageStore } from './messages/messages.ports.js';
import type { MediaProbe } from './media/media-probe.js';
import { createMessagesService } from './messages/messages.service.js';
import { createMediaDownloads } from './media/downloads.js';
import { createMediaKeeper } from './media/media-keeper.js';
import type { KeptMediaStore } from './media/kept-media.port.js';
import type { MediaStore } from './media/media-store.port.js';
import type { MediaPolicy } from './media/keep-policy.js';
import type { MediaLinks } from './media/media-links.port.js';
import type { DailyQuotas, QuotaCounter } from './messages/send-quota.js';
import type { Clock } from './ports.js';
import type { TenantStore } from './tenants/tenants.ports.js';
import type { SetupStore } from './setup/setup.ports.js';
import { createSetupService } from './setup/setup.service.js';
import { createWebhookTester, type WebhookSender } from './webhooks/webhook-tester.js';
import { createUrlPolicy, type HostResolver } from './webhooks/url-policy.js';
import { createDeliveriesService, type DeliveryLog } from './webhooks/deliveries.service.js';
import { createTenantsService } from './tenants/tenants.service.js';
import { createLimitsView, type Usage } from './tenants/limits.js';
import type { Actor } from './actor.js';
import { capabilitiesOf } from './network/capabilities.js';
import type { QrPolicy } from './network/link-terms.js';
import { limitsOf, type Plans } from './tenants/plans.js';
import { DomainError, Unavailable } from './errors.js';
import type { ProxyProbe, ProxyVault } from './settings/settings.ports.js';
import { createSettingsService } from './settings/settings.service.js';
import { createProfileService } from './profile/profile.service.js';

/** Everything the domain needs from outside, implemented by infra/. */
export interface Ports {
  clock: Clock;
  tenants: TenantStore;
  /** The first account's one-time setup links. */
  setup: SetupStore;
  apiKeys: ApiKeyStore;
  sessions: SessionStore;
  loginThrottle: LoginThrottle;
  messages: MessageStore;
  conversations: ConversationStore;
  router: MessageRouter;
  quota: QuotaCounter;
  instances: InstanceStore;
  qrImages: QrImages;
  /** The chat network engines this deployment offers. */
  engines: EngineRegistry;
  /** Which instances this node owns, and how work reaches their owners. */
  ownership: Ownership;
  media: MediaProbe;
  /** Where media is kept (MEDIA_STORE), or null when it is not (docs/media.md). */
  mediaStore: MediaStore | null;
  /** Where keeping each message's media stands. */
  keptMedia: KeptMediaStore;
  /** Signed links to messages' media (docs/media.md). */
  mediaLinks: MediaLinks;
  webhookSender: WebhookSender;
  resolver: HostResolver;
  deliveryLog: DeliveryLog;
  /** The caller's requests in the current minute window (rate limits), read without counting one. */
  requestUsage: (actor: Actor) => Promise<Usage | null>;
  /** Where failures of background work are reported (logs). */
  report: (error: unknown, context: string) => void;
  /** A condition an operator should know of that is no failure of the gateway (one log line at warn, no stack). */
  warn: (message: string, context: Record<string, unknown>) => void;
  /** Where instances' proxies are kept (sealed), and how a new one is tested (docs/settings.md). */
  proxies: ProxyVault;
  proxyProbe: ProxyProbe;
  /** Runs work after the current request has been answered; failures go to `report`. */
  background: (work: () => Promise<unknown>, what: string) => void;
  /** Work arrived on this node (a send was accepted): the safety sweeps look often again while it waits. */
  workArrived: () => void;
}

/** Business limits the domain enforces, from configuration. */
export interface Policies {
  quotas: DailyQuotas;
  /** http:// and private addresses for webhooks and media: local development only. */
  allowInsecureUrls: boolean;
  /** How long pairings' QR codes live, by variant, and how many a pairing shows. */
  qr: QrPolicy;
  /** The plans table and the plan new tenants get. */
  plans: Plans;
  /** The media an instance without a policy of its own keeps (MEDIA_KEEP, MEDIA_MAX_BYTES). */
  media?: MediaPolicy;
}


export type Services = ReturnType<typeof createServices>;

export function createServices(ports: Ports, policies: Policies) {
  const { clock } = ports;
  const dispatcher = createDispatcher({
    messages: ports.messages,
    engines: ports.engines,
    ownership: ports.ownership,
    sessionOf: (instanceId) => ownerDuties.sessionOf(instanceId),
    clock,
    onError: (error, instanceId) => ports.report(error, `dispatching messages of instance ${instanceId}`),
    restrictionLapsed: (instanceId, lease, reason) => engineEvents.restricted(instanceId, lease, { reason, until: null }),
  });
  const ownerDuties = createOwnerDuties({ instances: ports.instances, engines: ports.engines, dispatcher, ownership: ports.ownership, warn: ports.warn, qr: policies.qr, proxies: ports.proxies });
  /** Routed messages waiting without an instance go to a usable one (of this tenant, or of every tenant); the instances that took some. */
  async function handOverWaiting(tenantId?: string) {
    const routed = await ports.messages.routeWaiting(tenantId);
    for (const instanceId of routed) dispatcher.kick(instanceId);
    return routed;
  }
  const urls = createUrlPolicy(ports.resolver, policies.allowInsecureUrls);
  const mediaKeeper = createMediaKeeper({
    kept: ports.keptMedia,
    messages: ports.messages,
    instances: ports.instances,
    engines: ports.engines,
    probe: ports.media,
    store: ports.mediaStore,
    policy: policies.media,
    clock,
    report: ports.report,
  });
  const instances = createInstancesService({ ...ports, urls, handOverWaiting, mediaDefault: policies.media });
  const messages = createMessagesService({
    ...ports,
    instances,
    quotas: policies.quotas,
    urls,
    capabilitiesOf: (integration: string) => capabilitiesOf(ports.engines.of(integration)),
    onAccepted: (instanceId) => {
      dispatcher.kick(instanceId);
      ports.workArrived();
    },
    keptMedia: {
      stateOf: async (instanceId, kind) => mediaKeeper.stateFor(instanceId ? await ports.instances.findById(instanceId) : null, kind),
      keep: (messageId) => mediaKeeper.keep(messageId),
    },
    checkFirstContact: createFirstContactCheck({
      instances,
      messages: ports.messages,
      contacts: ports.conversations,
      ownership: ports.ownership,
      capabilitiesOf: (integration: string) => capabilitiesOf(ports.engines.of(integration)),
    }),
  });
  const engineEvents = createEngineEvents({
    instances: ports.instances,
    transitions: createTransitions(ports.instances),
    messages: ports.messages,
    conversations: ports.conversations,
    dispatcher,
    qrImages: ports.qrImages,
    clock,
    handOverWaiting,
    mediaKeeper,
    replyToCall: (instance, to, text, callId) => replyToCall(instance, to, text, callId),
  });

  /**
   * A call's rejection message goes out as the tenant's own send through the instance (stored, queued,
   * counted and reported like any send; docs/settings.md, "Calls"), once per call by its idempotency key.
   */
  async function replyToCall(instance: InstanceRecord, to: string, text: string, callId: string) {
    const tenant = await ports.tenants.findSettings(instance.tenantId);
    if (!tenant) return;
    const actor: Actor = { kind: 'user', tenantId: tenant.id, plan: tenant.plan, limits: limitsOf(policies.plans, tenant.plan, tenant.overrides), userId: '' };
    try {
      await messages.sendThrough(actor, instance.id, { to, text }, `call-reply:${callId.replace(/[^\x21-\x7e]/g, '_')}`.slice(0, 255));
    } catch (error) {
      // Not sendable now (inactive, quota spent): the call stays rejected; the operator learns why.
      if (!(error instanceof DomainError) || error instanceof Unavailable) throw error;
      ports.warn("a call's rejection message was not sent", { instanceId: instance.id, callId, code: error.code });
    }
  }

  return {
    auth: createAuthService({ ...ports, throttle: ports.loginThrottle, plans: policies.plans }),
    tenants: createTenantsService({ tenants: ports.tenants, plans: policies.plans }),
    setup: createSetupService({ setup: ports.setup, clock, plans: policies.plans }),
    limits: createLimitsView({ ...ports, quotas: policies.quotas }),
    apiKeys: createApiKeysService({ apiKeys: ports.apiKeys, clock }),
    messages,
    instances,
    restrictions: createRestrictionsService({ instances, ownership: ports.ownership, capabilitiesOf: (integration: string) => capabilitiesOf(ports.engines.of(integration)) }),
    settings: createSettingsService({
      instances,
      store: ports.instances,
      capabilitiesOf: (integration: string) => capabilitiesOf(ports.engines.of(integration)),
      proxies: ports.proxies,
      probe: ports.proxyProbe,
      ownership: ports.ownership,
      clock,
      mediaDefault: policies.media,
    }),
    profile: createProfileService({
      instances,
      ownership: ports.ownership,
      capabilitiesOf: (integration: string) => capabilitiesOf(ports.engines.of(integration)),
      urls,
    }),
    messageActions: createMessageActionsService({
      messages: ports.messages,
      instances,
      ownership: ports.ownership,
      capabilitiesOf: (integration: string) => capabilitiesOf(ports.engines.of(integration)),
      clock,
      quota: ports.quota,
      quotas: policies.quotas,
    }),
    groups: createGroupsService({
      instances,
      ownership: ports.ownership,
      capabilitiesOf: (integration: string) => ports.engines.of(integration)?.capabilities ?? [],
    }),
    conversations: createConversationsService({
      instances,
      ownership: ports.ownership,
      capabilitiesOf: (integration: string) => capabilitiesOf(ports.engines.of(integration)),
      store: ports.conversations,
      clock,
    }),
    integrations: () => integrationsOf(ports.engines),
    mediaLinks: ports.mediaLinks,
    mediaDownloads: createMediaDownloads({ messages: ports.messages, instances: ports.instances, engines: ports.engines, media: ports.media, store: ports.mediaStore }),
    mediaKeeper,
    webhookTester: createWebhookTester({ instances, sender: ports.webhookSender, clock }),
    deliveries: createDeliveriesService({ log: ports.deliveryLog, instances }),
    engineEvents,
    dispatcher,
    ownerDuties,

    /** After a start: route what waits without an instance (the instances this node takes over send their queues). */
    async resume() {
      await handOverWaiting();
    },

    /**
     * The sweeps over queued messages, each step safe to race: route waiting messages, resume lost
     * dispatches, fail messages queued too long. Says whether this node found messages it can move now
     * (the sweep comes back soon) or only ones that wait for something else (it backs off).
     */
    async tick(): Promise<boolean> {
      const routed = await handOverWaiting();
      let dispatching = routed.length > 0;
      // A dispatch that failed (database outage) leaves its messages queued; the next tick resumes it.
      // A restriction whose end passed while no timer waited for it (a restart) is lifted by a dispatch.
      const lapsed = await ports.messages.restrictionsLapsed(clock.now());
      for (const instanceId of new Set([...lapsed, ...(await ports.messages.instancesHoldingQueued())])) {
        // Not owned here, or paced or held with its own timer: nothing for the sweep to move now.
        if (!ports.ownership.leaseOf(instanceId) || dispatcher.waits(instanceId)) continue;
        dispatcher.kick(instanceId);
        dispatching = true;
      }
      const now = clock.now();
      await ports.messages.failStale(new Date(now.getTime() - QUEUED_MESSAGE_LIFETIME_MS), now, GATEWAY_ERRORS.expired, (failed) => [statusEvent(failed)]);
      return dispatching;
    },
  };
}
