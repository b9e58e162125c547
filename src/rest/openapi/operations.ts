import { z } from 'zod';
import { createApiKeyInput } from '../../domain/apikeys/apikeys.input.js';
import { loginInput } from '../../domain/auth/auth.service.js';
import { completeSetupInput } from '../../domain/setup/setup.service.js';
import type { KnownEngine } from '../../domain/network/credentials.js';
import { instanceInputs, setWebhookInput } from '../../domain/instances/instances.input.js';
import { listMessagesInput, sendMediaInput, sendMessageInput, sendTextInput } from '../../domain/messages/messages.input.js';
import { sendKindsInput } from '../../domain/messages/send-kinds.input.js';
import { MAX_MEDIA_BODY_BYTES, MAX_MEDIA_BYTES } from '../../domain/media/limits.js';
import { editInput, numberCheckInput, presenceInput as chatPresenceInput } from '../../domain/messages/message-actions.input.js';
import { writtenPhone } from '../../domain/phone.js';
import { changeTenantInput } from '../../domain/tenants/tenants.input.js';
import { chatIdInput, contactIdInput } from '../../domain/conversations/conversations.input.js';
import { pairingCodeInput } from '../../domain/network/pairing-code.js';
import * as s from './schemas.js';
import { groupOperations } from './group-operations.js';
import { conversationOperations } from './conversation-operations.js';
import { settingsOperations } from './settings-operations.js';
import type { Credential, Operation } from '../../http/operation.js';


const key: Credential[] = ['bearerKey'];
const keyOrHeader: Credential[] = ['bearerKey', 'xApiKey'];
const cookie: Credential[] = ['sessionCookie'];
const ok = s.okEnvelope;

/** The gateway's own operations (engines bring theirs), with the instance bodies of the engines the gateway knows (each credentials engine's field). */
export function operations(known: readonly KnownEngine[]): Operation[] {
  const { createV1: createV1Input, updateV1: updateV1Input, createSession: createSessionInput, updateSession: updateSessionInput } = instanceInputs(known);
  return [
    { method: 'get', path: '/healthz', tag: 'Health', summary: 'Liveness: the process answers', auth: [], success: { status: 200, schema: ok(s.Health), description: 'alive' }, errors: [] },
    { method: 'get', path: '/readyz', tag: 'Health', summary: 'Readiness: database and Redis answer; the live node set; the event brokers (ok or down)', auth: [], success: { status: 200, schema: ok(s.Ready), description: 'ready to serve' }, errors: [503] },
    { method: 'get', path: '/metrics', tag: 'Operations', summary: 'Prometheus metrics (bearer METRICS_TOKEN when set)', auth: ['metricsToken'], success: { status: 200, description: 'Prometheus text format', contentType: 'text/plain' }, errors: [401] },
    { method: 'get', path: '/admin/plans', tag: 'Administration', summary: 'The plans table (PLANS_FILE over the built-in plans) and the plan new tenants get', auth: ['adminToken'], success: { status: 200, schema: ok(s.AdminPlans), description: 'the plans' }, errors: [401] },
    { method: 'get', path: '/admin/tenants/:tenantId', tag: 'Administration', summary: "A tenant's plan, the limits it works under, and its own limits", auth: ['adminToken'], success: { status: 200, schema: ok(s.AdminTenant), description: 'the tenant' }, errors: [401, 404] },
    { method: 'patch', path: '/admin/tenants/:tenantId', tag: 'Administration', summary: "Change a tenant's plan or its own limits (null gives a limit back to the plan); every node applies them from the tenant's next request", auth: ['adminToken'], body: changeTenantInput, success: { status: 200, schema: ok(s.AdminTenant), description: 'the tenant as changed' }, errors: [401, 404] },
    { method: 'get', path: '/openapi.json', tag: 'Operations', summary: 'This document', auth: [], success: { status: 200, description: 'an OpenAPI 3.1 document', contentType: 'application/json' }, errors: [] },
    { method: 'get', path: '/docs', tag: 'Operations', summary: 'The API reference page for this document', auth: [], success: { status: 200, description: 'an HTML page', contentType: 'text/html' }, errors: [] },
    { method: 'get', path: '/docs/:asset', tag: 'Operations', summary: 'The files of the reference page (swagger-ui-bundle.js, swagger-ui.css, init.js)', auth: [], success: { status: 200, description: 'a script or a style sheet', contentType: 'text/javascript' }, errors: [404] },

    { method: 'post', path: '/auth/sessions', tag: 'Sessions', summary: 'Log in: sets the auth-session cookie', auth: [], body: loginInput, success: { status: 200, schema: ok(s.LoginAnswer), description: 'logged in; Set-Cookie carries the session' }, errors: [400, 401, 429] },
    { method: 'post', path: '/auth/setup/check', tag: 'Sessions', summary: 'Whether a first-account setup link (printed at start while no user exists) can still be used', auth: [], body: completeSetupInput.pick({ token: true }), success: { status: 200, schema: ok(s.SetupCheck), description: 'the link is open until expiresAt' }, errors: [400, 401, 403] },
    { method: 'post', path: '/auth/setup', tag: 'Sessions', summary: 'Use the setup link: create the first tenant and its owner, and sign in (sets the auth-session cookie)', auth: [], body: completeSetupInput, success: { status: 201, schema: ok(s.LoginAnswer), description: 'created and signed in; the link is used up' }, errors: [400, 401, 403] },
    { method: 'delete', path: '/auth/sessions', tag: 'Sessions', summary: 'Log out: ends the session and clears the cookie', auth: [], success: { status: 200, schema: s.messageEnvelope, description: 'logged out' }, errors: [] },

    { method: 'get', path: '/api-keys', tag: 'API keys', summary: "List the tenant's keys (never the key itself)", auth: ['bearerKey', 'sessionCookie'], success: { status: 200, schema: ok(z.array(s.ApiKey)), description: 'the keys' }, errors: [] },
    { method: 'post', path: '/api-keys', tag: 'API keys', summary: 'Create a key; the full key is shown once', auth: cookie, body: createApiKeyInput, success: { status: 201, schema: ok(s.ApiKeyCreated), description: 'created' }, errors: [400] },
    { method: 'delete', path: '/api-keys/:keyId', tag: 'API keys', summary: 'Revoke a key at once', auth: cookie, success: { status: 200, schema: s.messageEnvelope, description: 'revoked' }, errors: [403, 404] },

    { method: 'post', path: '/v1/messages/send', tag: 'Messages', summary: "Send a text through the tenant's least recently used connected instance, or through the one `instanceId` names", auth: keyOrHeader, body: sendMessageInput, idempotent: true, success: { status: 200, schema: ok(s.SendResult), description: 'accepted (queued)' }, errors: [400, 403, 404, 409] },
    { method: 'get', path: '/v1/messages/list', tag: 'Messages', summary: "The tenant's messages, newest first, narrowed by every filter given (since at or after, until before); any other parameter is a 400 naming it", auth: keyOrHeader, query: listMessagesInput, success: { status: 200, schema: s.MessagePage, description: 'a page of messages' }, errors: [400] },
    { method: 'get', path: '/v1/messages/:messageId/media', tag: 'Messages', summary: "The message's media, decrypted: the gateway's kept copy (Range: bytes=… answers 206 with Content-Range, 416 past the end), else a received file as the network keeps it (410 media_expired once the network no longer has it) or a sent one from its URL, whole", auth: [...keyOrHeader, 'sessionCookie'], success: { status: 200, description: "the file in its own type (the media's mimetype: image/jpeg, video/mp4, audio/ogg, application/pdf…), with Content-Length and a file name in Content-Disposition", contentType: ['image/*', 'video/*', 'audio/*', 'application/*', 'text/*'] }, errors: [403, 404, 410, 416, 502] },
    { method: 'get', path: '/media/:messageId', tag: 'Messages', summary: "The message's media through the signed link its record carries (media.url, until media.expiresAt), without a key: served as GET /v1/messages/<id>/media serves it, ranges too; a link malformed, altered or expired is 403 media_link_invalid. Limited per client address", auth: [], query: s.MediaLinkQuery, success: { status: 200, description: 'the file, as the keyed download serves it (206 with Content-Range for a range of a kept copy); Cache-Control lets the browser keep it until the link expires', contentType: ['image/*', 'video/*', 'audio/*', 'application/*', 'text/*'] }, errors: [403, 404, 410, 416, 429, 502] },
    { method: 'get', path: '/v1/messages/status/:messageId', tag: 'Messages', summary: 'One message and its status times', auth: keyOrHeader, success: { status: 200, schema: ok(s.Message), description: 'the message' }, errors: [403, 404] },

    ...messagingOperations('/v1/chat/instances', key),
    ...messagingOperations('/chat/instances', cookie),
    ...groupOperations('/v1/chat/instances', key),
    ...groupOperations('/chat/instances', cookie),
    ...conversationOperations('/v1/chat/instances', key),
    ...conversationOperations('/chat/instances', cookie),
    ...settingsOperations('/v1/chat/instances', key),
    ...settingsOperations('/chat/instances', cookie),
    { method: 'get', path: '/v1/integrations', tag: 'Instances (v1)', summary: 'The engines this gateway offers (the default first), each with what it can carry (docs/messaging.md)', auth: [...keyOrHeader, 'sessionCookie'], success: { status: 200, schema: ok(z.array(s.Integration)), description: 'the integrations' }, errors: [] },

    { method: 'get', path: '/v1/chat/instances', tag: 'Instances (v1)', summary: "List the tenant's instances", auth: key, success: { status: 200, schema: ok(z.array(s.V1ListItem)), description: 'the instances' }, errors: [] },
    { method: 'post', path: '/v1/chat/instances', tag: 'Instances (v1)', summary: 'Create an instance; the answer carries its first QR code', auth: key, body: createV1Input, success: { status: 201, schema: ok(s.V1Created), description: 'created' }, errors: [400, 403, 409] },
    { method: 'get', path: '/v1/chat/instances/:instanceId', tag: 'Instances (v1)', summary: 'One instance with its webhook settings and counts', auth: key, success: { status: 200, schema: ok(s.V1Detail), description: 'the instance' }, errors: [403, 404] },
    { method: 'put', path: '/v1/chat/instances/:instanceId', tag: 'Instances (v1)', summary: 'Change name, description or webhook settings', auth: key, body: updateV1Input, success: { status: 200, schema: ok(s.V1Detail), description: 'changed' }, errors: [400, 403, 404, 409] },
    { method: 'delete', path: '/v1/chat/instances/:instanceId', tag: 'Instances (v1)', summary: 'Delete the instance with its messages', auth: key, success: { status: 200, schema: s.messageEnvelope, description: 'deleted' }, errors: [403, 404] },
    { method: 'post', path: '/v1/chat/instances/:instanceId/toggle', tag: 'Instances (v1)', summary: 'Activate or deactivate', auth: key, success: { status: 200, schema: ok(s.Toggled), description: 'the new state' }, errors: [403, 404] },
    { method: 'get', path: '/v1/chat/instances/:instanceId/qr', tag: 'Instances (v1)', summary: 'The live QR code, or the first of a new pairing (503 when the network issues none within 10 s)', auth: key, success: { status: 200, schema: ok(s.V1Qr), description: 'a QR code' }, errors: [403, 404, 409] },
    { method: 'post', path: '/v1/chat/instances/:instanceId/pairing-code', tag: 'Instances (v1)', summary: 'A pairing code for the phone to enter instead of scanning (503 when the network does not confirm it within 10 s)', auth: key, body: pairingCodeInput, success: { status: 200, schema: ok(s.PairingCode), description: 'the code, shown once' }, errors: [403, 404, 409] },
    { method: 'post', path: '/v1/chat/instances/:instanceId/webhook', tag: 'Webhooks', summary: 'Set the webhook URL and events of a v1 instance', auth: key, body: setWebhookInput('v1'), success: { status: 200, schema: ok(s.WebhookSettings), description: 'the settings' }, errors: [400, 403, 404] },
    { method: 'post', path: '/v1/chat/instances/:instanceId/webhook/secret', tag: 'Webhooks', summary: 'Rotate the signing secret (the old one signs beside it for 24 h)', auth: key, success: { status: 200, schema: ok(s.WebhookSecret), description: 'the new secret, shown once' }, errors: [403, 404] },
    { method: 'post', path: '/v1/chat/instances/:instanceId/webhook/test', tag: 'Webhooks', summary: "Send a webhook.test event and report the receiver's answer", auth: key, success: { status: 200, schema: ok(s.WebhookTestResult), description: 'what the receiver answered' }, errors: [400, 403, 404, 409] },
    { method: 'get', path: '/v1/chat/instances/:instanceId/webhook/deliveries', tag: 'Webhooks', summary: 'The latest 50 deliveries with every attempt', auth: key, success: { status: 200, schema: ok(z.array(s.Delivery)), description: 'the delivery log' }, errors: [403, 404] },
    { method: 'post', path: '/v1/chat/instances/:instanceId/webhook/deliveries/:deliveryId/redeliver', tag: 'Webhooks', summary: 'Deliver again, now', auth: key, success: { status: 200, schema: ok(s.Delivery), description: 'the delivery, scheduled' }, errors: [403, 404] },

    { method: 'get', path: '/chat/instances', tag: 'Instances (session)', summary: "List the tenant's instances", auth: cookie, success: { status: 200, schema: ok(z.array(s.SessionListItem)), description: 'the instances' }, errors: [] },
    { method: 'post', path: '/chat/instances', tag: 'Instances (session)', summary: 'Create an instance; QR codes follow by themselves', auth: cookie, body: createSessionInput, success: { status: 201, schema: ok(s.SessionCreated), description: 'created' }, errors: [400, 403, 409] },
    { method: 'get', path: '/chat/instances/:instanceId', tag: 'Instances (session)', summary: 'One instance, with its QR code while one is live', auth: cookie, success: { status: 200, schema: ok(s.SessionDetail), description: 'the instance' }, errors: [403, 404] },
    { method: 'put', path: '/chat/instances/:instanceId', tag: 'Instances (session)', summary: 'Change name or webhook URL', auth: cookie, body: updateSessionInput, success: { status: 200, schema: ok(s.SessionDetail), description: 'changed' }, errors: [400, 403, 404, 409] },
    { method: 'delete', path: '/chat/instances/:instanceId', tag: 'Instances (session)', summary: 'Delete the instance with its messages', auth: cookie, success: { status: 200, schema: s.messageEnvelope, description: 'deleted' }, errors: [403, 404] },
    { method: 'post', path: '/chat/instances/:instanceId/webhook/secret', tag: 'Webhooks', summary: 'Rotate the signing secret (the old one signs beside it for 24 h)', auth: cookie, success: { status: 200, schema: ok(s.WebhookSecret), description: 'the new secret, shown once' }, errors: [403, 404] },
    { method: 'post', path: '/chat/instances/:instanceId/regenerate-qr', tag: 'Instances (session)', summary: 'Start a new pairing (503 when the network issues no code within 10 s)', auth: cookie, success: { status: 200, schema: ok(s.SessionRegenerated), description: 'the first code of the pairing' }, errors: [403, 404, 409] },
    { method: 'post', path: '/chat/instances/:instanceId/pairing-code', tag: 'Instances (session)', summary: 'A pairing code for the phone to enter instead of scanning (503 when the network does not confirm it within 10 s)', auth: cookie, body: pairingCodeInput, success: { status: 200, schema: ok(s.PairingCode), description: 'the code, shown once' }, errors: [403, 404, 409] },
    { method: 'post', path: '/chat/instances/:instanceId/disconnect', tag: 'Instances (session)', summary: 'Log the phone out', auth: cookie, success: { status: 200, schema: ok(s.SessionDisconnected), description: 'disconnected' }, errors: [403, 404, 409] },
    { method: 'post', path: '/chat/instances/:instanceId/send-text', tag: 'Messages', summary: 'Send a text through this instance', auth: cookie, body: sendTextInput, idempotent: true, success: { status: 200, schema: ok(s.SessionSendResult), description: 'accepted (queued)' }, errors: [400, 403, 404, 409] },
    { method: 'post', path: '/chat/instances/:instanceId/send-media', tag: 'Messages', summary: 'Send an image, video, audio or document by URL through this instance', auth: cookie, body: sendMediaInput, idempotent: true, success: { status: 200, schema: ok(s.SessionSendResult), description: 'accepted (queued)' }, errors: [400, 403, 404, 409] },
  ];
}

/** Path parameters a route path names; a phone's number is written as the gateway's own inputs take it. */
export function pathParams(path: string) {
  const names = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  return names.length ? z.object(Object.fromEntries(names.map((name) => [name, PATH_PARAMS[name] ?? z.string()]))) : undefined;
}

/** What the gateway takes in each path parameter (an id that is not a UUID is simply not found: 404). */
const PATH_PARAMS: Record<string, z.ZodType> = {
  number: writtenPhone,
  chat: z.string().meta({ description: 'phone digits (5511999990001) or a group id (120363012345678901@g.us)' }),
  groupId: z.string().regex(/^\d{6,30}@g\.us$/).meta({ description: 'a group id like 120363012345678901@g.us' }),
  chatId: chatIdInput.shape.chatId.meta({ description: 'phone digits (5511999990001), <lid>@lid, or a group id (120363012345678901@g.us)' }),
  phone: contactIdInput.shape.phone,
  ...Object.fromEntries(['instanceId', 'messageId', 'keyId', 'deliveryId'].map((name) => [name, z.string().meta({ format: 'uuid' })])),
};

export const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** Sends of every kind and actions through one instance (docs/messaging.md): the same under /v1 (key) and without it (cookie). */
function messagingOperations(prefix: string, auth: Credential[]): Operation[] {
  const lacks = 'refused with 422 not_supported, before anything is stored, when the instance\'s engine lacks the capability';
  return [
    { method: 'post', path: `${prefix}/:instanceId/messages`, tag: 'Messages', summary: `Send any kind of message (text with mentions, media by URL or base64, location, contacts, reaction, poll, template; a reply with quotedMessageId) through this instance; ${lacks}. Its body may be up to ${MAX_MEDIA_BODY_BYTES} bytes, room for a ${MAX_MEDIA_BYTES}-byte (16 MiB) file as base64 (other routes take 1 MiB; 413 payload_too_large beyond)`, auth, body: sendKindsInput, idempotent: true, success: { status: 200, schema: ok(s.SendResult), description: 'accepted (queued)' }, errors: [400, 403, 404, 409, 422] },
    { method: 'patch', path: `${prefix}/:instanceId/messages/:messageId`, tag: 'Messages', summary: 'Edit a text this instance sent (within 15 minutes of sending: later 409 edit_window_closed); done on the network before the answer', auth, body: editInput, success: { status: 200, schema: ok(s.Message), description: 'the edited message' }, errors: [400, 403, 404, 409, 422, 502] },
    { method: 'delete', path: `${prefix}/:instanceId/messages/:messageId`, tag: 'Messages', summary: 'Delete a message this instance sent, for everyone in the chat', auth, success: { status: 200, schema: s.messageEnvelope, description: 'deleted' }, errors: [403, 404, 409, 422, 502] },
    { method: 'post', path: `${prefix}/:instanceId/messages/:messageId/read`, tag: 'Messages', summary: 'Mark a received message (and those before it in its chat) read on the network', auth, success: { status: 200, schema: s.messageEnvelope, description: 'marked read' }, errors: [403, 404, 409, 422, 502] },
    { method: 'post', path: `${prefix}/:instanceId/chats/:chat/presence`, tag: 'Messages', summary: 'Tell a chat the user is typing, recording or stopped, or the network that the user is online or away', auth, body: chatPresenceInput, success: { status: 200, schema: s.messageEnvelope, description: 'sent' }, errors: [400, 403, 404, 409, 422, 502] },
    { method: 'post', path: `${prefix}/:instanceId/contacts/check`, tag: 'Messages', summary: 'Which of up to 50 phones have an account on the network', auth, body: numberCheckInput, success: { status: 200, schema: ok(z.array(s.NumberCheck)), description: 'one answer per phone, in the order asked' }, errors: [400, 403, 404, 409, 422, 502] },
  ];
}
