import { randomBytes } from 'node:crypto';
import { type Actor, assertSameTenant, modeOf } from '../actor.js';
import { Conflict, Invalid, NotFound } from '../errors.js';
import { fingerprint, IDEMPOTENCY_TTL_MS, parseIdempotencyKey } from '../idempotency/idempotency.js';
import type { InstancesService } from '../instances/instances.service.js';
import { refuseInactive } from '../instances/acting-instance.js';
import type { Clock } from '../ports.js';
import { allValid, parseInput, textField } from '../validation.js';
import type { UrlPolicy } from '../webhooks/url-policy.js';
import { listMessagesInput, sendMediaInput, sendMessageInput, sendTextInput, type TemplateInput } from './messages.input.js';
import type { JsonValue, MessageRecord, MessageRouter, MessageStore, NewOutboundMessage, SendResult, StoredAnswer } from './messages.ports.js';
import { type DailyQuotas, type QuotaCounter, takeDailyQuota } from './send-quota.js';
import type { Capability } from '../network/capabilities.js';
import type { InstanceStanding } from '../instances/instances.ports.js';
import { capabilitiesNeeded, newPoll, requireCapabilities, targetOf } from './outbound-content.js';
import { sendKindsInput, type SendKindsInput } from './send-kinds.input.js';
import { acceptMediaUpload, acceptMediaUrl, acceptVoiceNote } from '../media/accept.js';
import type { MediaProbe } from '../media/media-probe.js';

export const TEST_PREFIX = '[TEST] ';

/** What a test key sends is marked so nobody mistakes it for a real message. */
export function outboundText(text: string, mode: 'test' | 'production'): string {
  return mode === 'test' ? TEST_PREFIX + text : text;
}

export function toSendResult(message: MessageRecord): SendResult {
  return { id: message.id, status: message.status, timestamp: message.createdAt.toISOString(), mode: message.mode };
}

export type MessagesService = ReturnType<typeof createMessagesService>;

export function createMessagesService(deps: {
  messages: MessageStore;
  router: MessageRouter;
  /** The instance service's tenancy-checked lookup: one rule for "this tenant's instance". */
  instances: Pick<InstancesService, 'ownedStanding'>;
  clock: Clock;
  quota: QuotaCounter;
  quotas: DailyQuotas;
  media: MediaProbe;
  urls: UrlPolicy;
  /** Called with the instance of every accepted message, so it goes out without waiting. */
  onAccepted: (instanceId: string) => void;
  /** What an integration's engine can carry (none when it is not offered). */
  capabilitiesOf: (integration: string) => readonly Capability[];
  /** Keeps sent media (docs/media.md): whether a send through the instance is marked pending, and keeping it once stored. */
  keptMedia?: {
    stateOf(instanceId: string | null, kind: string | null): Promise<'pending' | null>;
    keep(messageId: string): void;
  };
  /** Refuses a first message to a number the network does not know (first-contact.ts), for a send through a named instance. */
  checkFirstContact?: (actor: Actor, instanceId: string, to: string) => Promise<void>;
}) {
  const { messages, router, clock, quota, quotas } = deps;

  function replay(stored: StoredAnswer, requestFingerprint: string): SendResult {
    if (stored.fingerprint !== requestFingerprint) {
      throw new Conflict('idempotency_conflict', 'This Idempotency-Key was already used with a different request body.');
    }
    return stored.response;
  }

  /**
   * The one path every send takes: idempotency, routing, daily quota, storing the message as queued.
   * `route` runs for a request that is not a replay, and once more when its first pick went stale
   * before the message was stored; `scope` keeps idempotency keys of different endpoints apart.
   */
  async function accept({ actor, scope, request, idempotencyKey: rawIdempotencyKey, route, message }: {
    actor: Actor;
    scope: string;
    request: unknown;
    idempotencyKey: string | undefined;
    route: (stale: boolean) => Promise<{ instanceId: string | null; routed: boolean }>;
    message: () => Promise<Omit<NewOutboundMessage, 'tenantId' | 'instanceId' | 'apiKeyId' | 'mode' | 'queuedAt' | 'routed'>>;
  }): Promise<SendResult> {
    const idempotencyKey = parseIdempotencyKey(rawIdempotencyKey);
    const now = clock.now();
    // Only a send with a key is ever compared with another: the others skip hashing their body.
    const requestFingerprint = idempotencyKey ? fingerprint(request) : '';
    if (idempotencyKey) {
      const stored = await messages.findAnswer(actor.tenantId, scope, idempotencyKey, now);
      if (stored) return replay(stored, requestFingerprint);
    }
    let picked = await route(false);
    const content = await message();
    if (picked.instanceId && !picked.routed) await deps.checkFirstContact?.(actor, picked.instanceId, content.to);
    const mode = modeOf(actor);
    const giveBack = await takeDailyQuota(quota, quotas, actor, now);
    const claim = idempotencyKey
      ? { scope, key: idempotencyKey, fingerprint: requestFingerprint, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) }
      : undefined;
    const kind = content.mediaType ? content.type : null;
    const store = async () =>
      messages.createOutbound(
        {
          ...content,
          mediaState: kind && deps.keptMedia ? await deps.keptMedia.stateOf(picked.instanceId, kind) : null,
          text: content.text === null ? null : outboundText(content.text, mode),
          caption: content.caption == null ? content.caption : outboundText(content.caption, mode),
          tenantId: actor.tenantId,
          instanceId: picked.instanceId,
          routed: picked.routed,
          apiKeyId: actor.kind === 'apiKey' ? actor.apiKeyId : null,
          mode,
          queuedAt: now,
        },
        claim,
        toSendResult,
      );
    let result: Awaited<ReturnType<typeof store>>;
    try {
      result = await store();
      if ('unusable' in result) {
        picked = await route(true);
        result = await store();
      }
      if ('unusable' in result) throw new Conflict('instance_unavailable', 'The instance stopped being able to send while the message was accepted; retry.');
    } catch (error) {
      await giveBack();
      throw error;
    }
    if ('replay' in result) {
      await giveBack();
      return replay(result.replay, requestFingerprint);
    }
    if (picked.instanceId) deps.onAccepted(picked.instanceId);
    // Kept at accept: the upload is at hand and the URL serves now; it may not by the time the message is sent.
    if (result.message.mediaState === 'pending') deps.keptMedia?.keep(result.message.id);
    return result.response;
  }

  /** A text message, or a template one (its text null: no [TEST] prefix is ever put into a template). */
  function contentOf(to: string, text: string | undefined, template: TemplateInput | undefined) {
    if (template) return Promise.resolve({ to, type: 'template' as const, text: null, content: template as unknown as JsonValue });
    return Promise.resolve({ to, type: 'text' as const, text: text! });
  }

  /** Only an engine that sends templates takes one through a named instance (a routed one fails later, with a reason). */
  async function refuseTemplateThrough(actor: Actor, instanceId: string) {
    const instance = await deps.instances.ownedStanding(actor, instanceId);
    if (!deps.capabilitiesOf(instance.engine).includes('template')) throw Invalid.at('template', `is only for instances that send templates (CHAT-CLOUD); this one runs on ${instance.engine}`);
  }

  /**
   * The instance's own send endpoints: this instance, active, able to connect. Its standing comes from
   * memory; `fresh` (a second look, after the store found the first one stale) reads it from the
   * database, so the answer says why it can no longer send.
   */
  async function sendableInstance(actor: Actor, instanceId: string, fresh: boolean) {
    return sendable(await deps.instances.ownedStanding(actor, instanceId, fresh));
  }

  /** An instance a named send may go through: active, and not banned or in error. */
  function sendable(instance: InstanceStanding) {
    refuseInactive(instance);
    if (instance.state === 'banned' || instance.state === 'error') {
      throw new Conflict('instance_unavailable', `The instance cannot send while it is ${instance.state}.`);
    }
    return instance.id;
  }

  /**
   * A file given with a send: fetched from its URL (probed, as send-media does) or decoded from base64;
   * its declared type checked, and for what apps play (not documents) its bytes too (docs/messaging.md).
   */
  async function mediaOf(data: SendKindsInput) {
    const media = data.media!;
    const kind = data.mediaType!;
    if ('url' in media) {
      const mediaUrl = await deps.urls.check(media.url, 'media.url');
      const { contentType, bytes, sniffed } = await acceptMediaUrl(deps.media, mediaUrl, kind, 'media.url');
      const fileName = decodeURIComponent(new URL(mediaUrl).pathname.split('/').pop() ?? '') || null;
      return { mediaUrl, mediaType: contentType, mediaBytes: bytes, fileName, fileBytes: null, sniffed };
    }
    const fileBytes = Buffer.from(media.data, 'base64');
    const { sniffed } = await acceptMediaUpload(deps.media, fileBytes, kind, media.mimetype);
    return { mediaUrl: null, mediaType: media.mimetype.toLowerCase(), mediaBytes: fileBytes.length, fileName: media.fileName ?? null, fileBytes, sniffed };
  }

  /** The stored fields of a send of any kind (docs/messaging.md), its targets resolved on the instance. */
  async function kindContent(instance: InstanceStanding, data: SendKindsInput) {
    const find = (id: string) => messages.findById(id);
    const base = { to: data.to, text: data.text ?? null, mentions: data.mentions ?? null, caption: null as string | null };
    if (data.quotedMessageId !== undefined) Object.assign(base, { quoted: await targetOf(find, instance, data.to, data.quotedMessageId, 'quotedMessageId') });
    if (data.text !== undefined) return { ...base, type: 'text' as const };
    if (data.template !== undefined) return { ...base, type: 'template' as const, content: data.template as unknown as JsonValue };
    if (data.location !== undefined) return { ...base, type: 'location' as const, location: data.location };
    if (data.contacts !== undefined) return { ...base, type: 'contact' as const, contacts: data.contacts };
    // The secret the network's apps draw each vote's key from: made here, kept with the poll (never shown).
    if (data.poll !== undefined) return { ...base, type: 'poll' as const, poll: newPoll(data.poll), pollSecret: randomBytes(32) };
    if (data.reaction !== undefined) {
      const target = await targetOf(find, instance, data.to, data.reaction.messageId, 'reaction.messageId');
      return { ...base, type: 'reaction' as const, reaction: { emoji: data.reaction.emoji, ...target } };
    }
    const { sniffed, ...media } = await mediaOf(data);
    if (data.voice) acceptVoiceNote(sniffed, media.mediaType);
    return { ...base, type: data.mediaType!, caption: data.caption ?? null, voice: data.voice === true, ...media };
  }

  /** A send through one named instance (send-text, send-media): its idempotency keys are its own. */
  function acceptThrough(
    actor: Actor,
    instanceId: string,
    request: unknown,
    idempotencyKey: string | undefined,
    message: Parameters<typeof accept>[0]['message'],
  ) {
    return accept({
      actor,
      scope: `instance.send:${instanceId}`,
      request,
      idempotencyKey,
      route: async (stale) => ({ instanceId: await sendableInstance(actor, instanceId, stale), routed: false }),
      message,
    });
  }

  return {
    async send(actor: Actor, input: unknown, rawIdempotencyKey?: string): Promise<SendResult> {
      const data = parseInput(sendMessageInput, input);
      if (data.instanceId !== undefined) {
        const instanceId = data.instanceId;
        if (data.template) await refuseTemplateThrough(actor, instanceId);
        return accept({
          actor,
          scope: 'messages.send',
          request: data,
          idempotencyKey: rawIdempotencyKey,
          route: async (stale) => ({ instanceId: await sendableInstance(actor, instanceId, stale), routed: false }),
          message: async () => contentOf(data.to, data.text, data.template),
        });
      }
      return accept({
        actor,
        scope: 'messages.send',
        request: data,
        idempotencyKey: rawIdempotencyKey,
        route: async (stale) => {
          if (stale) router.forget(actor.tenantId);
          const route = await router.route(actor.tenantId);
          if (route.kind === 'none') {
            throw new Conflict('instance_unavailable', 'No active instance: create and connect an instance first.');
          }
          return { instanceId: route.kind === 'instance' ? route.instanceId : null, routed: true };
        },
        message: async () => contentOf(data.to, data.text, data.template),
      });
    },

    /** A send of any kind through a named instance (docs/messaging.md): what its engine cannot carry is refused before anything is stored. */
    async sendThrough(actor: Actor, instanceId: string, input: unknown, rawIdempotencyKey?: string) {
      const data = parseInput(sendKindsInput, input);
      const instance = await deps.instances.ownedStanding(actor, instanceId);
      requireCapabilities(instance.engine, deps.capabilitiesOf(instance.engine), capabilitiesNeeded(data));
      return accept({
        actor,
        scope: `instance.send:${instanceId}`,
        request: data,
        idempotencyKey: rawIdempotencyKey,
        route: async (stale) => ({ instanceId: stale ? await sendableInstance(actor, instanceId, true) : sendable(instance), routed: false }),
        message: () => kindContent(instance, data),
      });
    },

    async sendText(actor: Actor, instanceId: string, input: unknown, rawIdempotencyKey?: string) {
      const data = parseInput(sendTextInput, input);
      if (data.template) await refuseTemplateThrough(actor, instanceId);
      return acceptThrough(actor, instanceId, data, rawIdempotencyKey, async () => contentOf(data.to, data.message, data.template));
    },

    async sendMedia(actor: Actor, instanceId: string, input: unknown, rawIdempotencyKey?: string) {
      const [data, mediaUrl] = await allValid(
        () => parseInput(sendMediaInput, input),
        // A URL the schema refuses (not text, too long) is reported by the schema alone.
        async () => { const raw = textField(input, 'mediaUrl'); return raw === undefined ? '' : deps.urls.check(raw, 'mediaUrl'); },
      );
      return acceptThrough(actor, instanceId, data, rawIdempotencyKey, async () => {
        const { contentType, bytes } = await acceptMediaUrl(deps.media, mediaUrl, data.mediaType, 'mediaUrl');
        return { to: data.to, type: data.mediaType, text: null, mediaUrl, mediaType: contentType, caption: data.caption ?? null, mediaBytes: bytes };
      });
    },

    async list(actor: Actor, input: unknown) {
      const { page, limit, ...filter } = parseInput(listMessagesInput, input);
      const { items, total } = await messages.listByTenant(actor.tenantId, (page - 1) * limit, limit, filter);
      return { items, page, limit, total, pages: Math.ceil(total / limit) };
    },

    async get(actor: Actor, id: string) {
      const message = await messages.findById(id);
      if (!message) throw new NotFound('Message');
      assertSameTenant(actor, message);
      return message;
    },
  };
}
