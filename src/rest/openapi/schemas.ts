import { CAPABILITIES } from '../../domain/network/capabilities.js';
import { INBOUND_MEDIA_TYPES } from '../../domain/media/media-source.js';
import { z } from 'zod';
import { SESSION_STATUSES, V1_STATUSES } from '../../domain/instances/state-machine.js';
import { DISCONNECT_REASONS } from '../../domain/network/engine.port.js';
import { MEDIA_TYPES, MESSAGE_DIRECTIONS, MESSAGE_MODES, MESSAGE_STATUSES } from '../../domain/messages/message-values.js';
import { LIMIT_NAMES, PLAN_NAME } from '../../domain/tenants/plans.js';

/**
 * The shapes of the REST answers, for the OpenAPI document: the presenters are typed by these, so a
 * shape cannot change without its documentation.
 */

const instant = z.iso.datetime({ offset: true }).meta({ description: 'an instant, ISO 8601 in UTC' });
const uuid = z.uuid();

export { okEnvelope } from '../../http/operation.js';
export const messageEnvelope = z.object({ success: z.literal(true), message: z.string() }).meta({ id: 'Confirmation' });

export const ErrorEnvelope = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.string().meta({ description: 'a stable code, e.g. invalid_request, unauthorized, not_found, rate_limit_exceeded' }),
      message: z.string().meta({ description: 'what went wrong, in words' }),
      retryAfter: z.number().int().optional().meta({ description: 'seconds to wait (429 and 503)' }),
    }),
  })
  .meta({ id: 'Error', description: 'Every error, from every endpoint.' });

export const Statistics = z.object({ messagesSent: z.number().int(), messagesReceived: z.number().int(), mediaSize: z.number().int() });

export const V1ListItem = z
  .object({
    id: uuid,
    name: z.string(),
    description: z.string().nullable(),
    status: z.enum(V1_STATUSES),
    phoneNumber: z.string().nullable(),
    active: z.boolean(),
    createdAt: instant,
    lastConnection: instant.nullable(),
  })
  .meta({ id: 'V1Instance' });

export const LastDisconnect = z
  .object({ reason: z.enum(DISCONNECT_REASONS), at: instant })
  .nullable()
  .meta({ id: 'LastDisconnect', description: 'why the connection last closed, and when; null if it never did' });

export const Restricted = z
  .object({ reason: z.string(), until: instant })
  .nullable()
  .meta({ id: 'Restricted', description: 'the network holds the queue until `until` (a reach-out timelock, docs/settings.md); null when it does not' });

const integration = z.string().meta({ description: 'the chat network engine, e.g. CHAT-SANDBOX or CHAT-BAILEYS' });

export const HistorySync = z
  .object({ mode: z.enum(['none', 'recent', 'full']), days: z.number().int() })
  .meta({ id: 'HistorySync', description: "how much of the phone's past the instance takes when it links (docs/conversations.md)" });

export const MediaPolicy = z
  .object({ keep: z.union([z.enum(['all', 'none']), z.array(z.enum(INBOUND_MEDIA_TYPES))]), maxBytes: z.number().int() })
  .meta({ id: 'MediaPolicy', description: 'which received and sent media the instance keeps, its own or the gateway default (docs/media.md)' });

export const V1Detail = V1ListItem.extend({
  integration,
  webhookUrl: z.string().nullable(),
  webhookEvents: z.array(z.string()),
  statistics: Statistics,
  lastDisconnect: LastDisconnect,
  restricted: Restricted,
  historySync: HistorySync,
  media: MediaPolicy,
}).meta({ id: 'V1InstanceDetail' });

export const V1Created = z
  .object({
    id: uuid,
    name: z.string(),
    status: z.enum(V1_STATUSES),
    qrCode: z.string().nullable().meta({ description: 'a PNG data URL' }),
    webhookUrl: z.string().nullable(),
    webhookSecret: z.string().meta({ description: 'shown in this answer only' }),
    createdAt: instant,
  })
  .meta({ id: 'V1InstanceCreated' });

export const V1Qr = z.object({ qrCode: z.string().meta({ description: 'a PNG data URL' }), expiresAt: instant }).meta({ id: 'V1Qr' });

export const SessionQr = z
  .object({ base64: z.string().meta({ description: 'a PNG data URL' }), expiry: z.number().int().meta({ description: 'seconds left' }), attemptId: uuid })
  .meta({ id: 'SessionQr' });

export const SessionListItem = z
  .object({
    id: uuid,
    name: z.string(),
    phone: z.string().nullable(),
    status: z.enum(SESSION_STATUSES),
    webhookUrl: z.string().nullable(),
    active: z.boolean(),
    createdAt: instant,
  })
  .meta({ id: 'SessionInstance' });

export const SessionDetail = z
  .object({
    id: uuid,
    name: z.string(),
    phone: z.string().nullable(),
    status: z.enum(SESSION_STATUSES),
    integration,
    webhookUrl: z.string().nullable(),
    profilePicUrl: z.string().nullable(),
    active: z.boolean(),
    createdAt: instant,
    updatedAt: instant,
    lastDisconnect: LastDisconnect,
    restricted: Restricted,
    historySync: HistorySync,
    media: MediaPolicy,
    qrCode: SessionQr.optional().meta({ description: 'while a QR code is live' }),
  })
  .meta({ id: 'SessionInstanceDetail' });

export const SessionCreated = z
  .object({
    instanceId: uuid,
    instanceName: z.string(),
    status: z.enum(SESSION_STATUSES),
    integration,
    webhookUrl: z.string().nullable(),
    webhookSecret: z.string().meta({ description: 'shown in this answer only' }),
  })
  .meta({ id: 'SessionInstanceCreated' });

export const SessionRegenerated = z.object({ id: uuid, status: z.enum(SESSION_STATUSES), qrCode: SessionQr }).meta({ id: 'SessionQrRegenerated' });

export const SessionDisconnected = z.object({ id: uuid, status: z.enum(SESSION_STATUSES) });

export const PairingCode = z
  .object({
    code: z.string().meta({ description: 'the 8 characters to enter on the phone (Linked devices → Link with phone number)' }),
    expiresAt: instant,
  })
  .meta({ id: 'PairingCode' });

export const WebhookSecret = z.object({ webhookSecret: z.string() }).meta({ id: 'WebhookSecret' });

export const WebhookSettings = z.object({ url: z.string().nullable(), events: z.array(z.string()) });

export const WebhookTestResult = z
  .union([
    z.object({ status: z.literal('sent'), response: z.object({ statusCode: z.number().int(), body: z.string() }) }),
    z.object({ status: z.literal('failed'), error: z.string() }),
  ])
  .meta({ id: 'WebhookTestResult' });

export const Delivery = z
  .object({
    id: uuid,
    event: z.string(),
    url: z.string(),
    status: z.string().meta({ description: 'pending, delivered or failed' }),
    attemptCount: z.number().int(),
    nextAttemptAt: instant.nullable(),
    createdAt: instant,
    attempts: z.array(
      z.object({
        number: z.number().int(),
        startedAt: instant,
        statusCode: z.number().int().nullable(),
        error: z.string().nullable(),
        durationMs: z.number().int().nullable(),
      }),
    ),
  })
  .meta({ id: 'WebhookDelivery' });

export const Toggled = z.object({ id: uuid, active: z.boolean(), message: z.string() });

export const SendResult = z
  .object({ id: uuid, status: z.enum(MESSAGE_STATUSES), timestamp: instant, mode: z.enum(MESSAGE_MODES) })
  .meta({ id: 'SendResult' });

export const SessionSendResult = z.object({ id: uuid, status: z.enum(MESSAGE_STATUSES), timestamp: instant }).meta({ id: 'SessionSendResult' });

export const MessageMedia = z
  .object({
    type: z.string().meta({ description: 'image, video, audio, document or sticker' }),
    mimetype: z.string().nullable(),
    size: z.number().int().nullable().meta({ description: 'bytes of the file, when known' }),
    caption: z.string().nullable(),
    fileName: z.string().nullable(),
    url: z.string().meta({ description: 'a signed link, GET it without a key until expiresAt: /media/<id>?expires=…&signature=… (absolute when PUBLIC_URL is set); GET /v1/messages/<id>/media with a key any time' }),
    expiresAt: instant.meta({ description: 'when the signed link stops working (MEDIA_LINK_TTL after the answer, rounded up to a minute)' }),
    stored: z.boolean().meta({ description: 'whether the gateway keeps its bytes (served from its store, ranges too)' }),
    sha256: z.string().optional().meta({ description: 'SHA-256 (hex) of the kept bytes; only when stored' }),
    error: z.object({ code: z.string(), message: z.string() }).optional().meta({ description: 'why keeping the file failed (media_too_large, media_store_failed, media_expired…); only when it did' }),
  })
  .meta({ id: 'MessageMedia' });

export const MediaLinkQuery = z.object({
  expires: z.string().meta({ description: 'unix seconds the link works until' }),
  signature: z.string().meta({ description: 'base64url HMAC-SHA256 of `<message id>.<expires>`' }),
});

export const MessageError = z
  .object({
    code: z.string().meta({
      description: 'stable: the API\'s own code on CHAT-CLOUD (e.g. "131047": outside the 24-hour window, send a template); elsewhere expired, template_unsupported, media_unavailable or network_refused',
    }),
    message: z.string().meta({ description: 'what went wrong, in words' }),
  })
  .meta({ id: 'MessageError', description: 'Why a message failed.' });

export const Integration = z
  .object({ integration: z.string().meta({ description: 'e.g. CHAT-SANDBOX' }), capabilities: z.array(z.enum(CAPABILITIES)) })
  .meta({ id: 'Integration' });

export const NumberCheck = z
  .object({ phone: z.string(), exists: z.boolean(), lid: z.string().optional().meta({ description: "the network's hidden id of the account, when it gave one" }) })
  .meta({ id: 'NumberCheck' });

export const PollTally = z
  .object({
    name: z.string(),
    selectableCount: z.number().int(),
    options: z.array(z.object({ name: z.string(), votes: z.number().int(), voters: z.array(z.string()).meta({ description: 'phone digits of those who chose it' }) })),
  })
  .meta({ id: 'PollTally', description: 'present on a poll: its question and options, each with its current votes' });

export const Message = z
  .object({
    id: uuid,
    to: z.string(),
    from: z.string().nullable(),
    direction: z.enum(MESSAGE_DIRECTIONS),
    networkMessageId: z.string().nullable().meta({ description: "the chat network's own id of the message, once it has one" }),
    type: z.string().meta({ description: `text, location or a media type (${MEDIA_TYPES.join(', ')})` }),
    text: z.string().nullable(),
    fromLid: z.string().optional().meta({ description: "present when the network hid the sender's phone number and no mapping was known (`from` is then null): the sender's LID" }),
    media: MessageMedia.optional(),
    contacts: z.array(z.object({ displayName: z.string(), vcard: z.string() })).optional().meta({ description: 'present on a contact message: the cards received (vCard)' }),
    reaction: z
      .object({ emoji: z.string(), messageId: uuid.nullable(), networkMessageId: z.string() })
      .optional()
      .meta({ description: "present on a reaction: the emoji ('' takes it back) and the message reacted to (messageId null when the gateway does not have it)" }),
    quoted: z
      .object({ messageId: uuid.nullable(), networkMessageId: z.string() })
      .optional()
      .meta({ description: 'present on a reply: the message it quotes (messageId null when the gateway does not have it)' }),
    location: z
      .object({ latitude: z.number().optional(), longitude: z.number().optional(), name: z.string().optional(), address: z.string().optional() })
      .optional()
      .meta({ description: 'present on a location message' }),
    mentions: z.array(z.string()).optional().meta({ description: 'present when the text names phones as @<digits>: those phones' }),
    poll: PollTally.optional(),
    group: z.object({ id: z.string(), subject: z.string().nullable() }).optional().meta({ description: 'present on a group message: the group' }),
    edited: z.object({ text: z.string(), at: instant }).optional().meta({ description: 'present once the text was edited: the latest text and when' }),
    deleted: z.object({ at: instant }).optional().meta({ description: 'present once it was deleted for everyone: when (the record stays until retention removes it)' }),
    status: z.enum(MESSAGE_STATUSES),
    mode: z.enum(MESSAGE_MODES),
    instanceId: uuid.nullable(),
    createdAt: instant,
    updatedAt: instant,
    timestamps: z.object({
      queued: instant.nullable(),
      sent: instant.nullable(),
      delivered: instant.nullable(),
      read: instant.nullable(),
      failed: instant.nullable(),
    }),
    error: MessageError.nullable().meta({ description: 'why it failed; null unless failed' }),
  })
  .meta({ id: 'Message' });

export const MessagePage = z.object({
  success: z.literal(true),
  data: z.array(Message),
  pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), pages: z.number().int() }),
});

export const ApiKey = z
  .object({
    id: uuid,
    name: z.string(),
    description: z.string().nullable(),
    testMode: z.boolean(),
    keyPrefix: z.string(),
    createdAt: instant,
    lastUsedAt: instant.nullable(),
  })
  .meta({ id: 'ApiKey' });

export const ApiKeyCreated = z
  .object({ id: uuid, name: z.string(), key: z.string().meta({ description: 'the full key, shown in this answer only' }), testMode: z.boolean(), createdAt: instant })
  .meta({ id: 'ApiKeyCreated' });

const PlanName = z
  .string()
  .regex(PLAN_NAME)
  .meta({ description: "a plan of the gateway's plans table: starter, pro, enterprise, self-hosted, or one its operator configured (docs/operating.md)" });

const limit = (description: string) => z.number().int().nullable().meta({ description });

/** The limits a tenant works under (null: none); the same shape holds a tenant's own limits (null: its plan's). */
const limitsShape = (none: string) =>
  z.object({
    instances: limit(`instances the tenant may have; null: ${none}`),
    dailyMessages: limit(`messages accepted per UTC day (production keys and sessions); null: ${none}`),
    requestsPerMinute: limit(`requests per minute per key or user${none === 'no limit' ? '' : `; null: ${none}`}`),
    requestsPerHour: limit(`requests per hour per key or user${none === 'no limit' ? '' : `; null: ${none}`}`),
    burst: limit(`requests in flight at once per key or user${none === 'no limit' ? '' : `; null: ${none}`}`),
  } satisfies Record<(typeof LIMIT_NAMES)[number], z.ZodType>);

export const Limits = limitsShape('no limit').meta({ id: 'Limits' });

export const AdminTenant = z
  .object({
    id: uuid,
    name: z.string(),
    plan: PlanName,
    limits: Limits.meta({ description: 'what the tenant works under: its plan, with its own limits in their place' }),
    overrides: limitsShape("the plan's").meta({ description: "the tenant's own limits" }),
  })
  .meta({ id: 'AdminTenant' });

export const AdminPlans = z
  .object({ defaultPlan: PlanName, plans: z.record(z.string(), Limits) })
  .meta({ id: 'AdminPlans' });

export const LoginAnswer = z.object({
  user: z.object({ id: uuid, email: z.string() }),
  tenant: z.object({ id: uuid, name: z.string(), plan: PlanName }),
  expiresAt: instant,
});

export const SetupCheck = z.object({ open: z.literal(true), expiresAt: instant });

export const Health = z.object({ status: z.literal('ok') });

export const Ready = z.object({
  status: z.literal('ready'),
  database: z.literal('ok'),
  redis: z.enum(['ok', 'not configured']),
  node: z.string().meta({ description: 'the id of the node that answered' }),
  nodes: z.array(z.object({ id: z.string(), instances: z.number().int(), lastSeen: instant })).meta({ description: 'the live nodes and how many instances each owns' }),
  brokers: z
    .object({ amqp: z.enum(['ok', 'down']).optional(), nats: z.enum(['ok', 'down']).optional() })
    .optional()
    .meta({ description: 'the event-stream brokers configured (EVENTS_AMQP_URL, EVENTS_NATS_URL) and whether this node reaches them; a broker down delays events and does not make the gateway unready' }),
});
