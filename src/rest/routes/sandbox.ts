import { Router } from '@koa/router';
import { z } from 'zod';
import { NotFound } from '../../domain/errors.js';
import { phoneNumber } from '../../domain/messages/messages.input.js';
import { INBOUND_MEDIA_TYPES, type InboundMediaType, type MediaDescriptor } from '../../domain/messages/media.js';
import { parseInput } from '../../domain/validation.js';
import type { SandboxNetwork } from '../../infra/engines/sandbox.js';
import type { PhoneInbox } from '../../infra/engines/sandbox-inbox.js';
import { type AppState, ok } from '../context.js';
import { jsonBody } from '../middleware/json-body.js';

export const scanInput = z.object({ code: z.string({ error: 'is required' }).min(1), phone: z.string({ error: 'is required' }) });
export const pairInput = z.object({
  code: z.string({ error: 'is required' }).min(1).max(20).meta({ description: 'the pairing code as the phone user types it' }),
  phone: z.string({ error: 'is required' }).meta({ description: 'the phone entering it, + and digits: the number the code was asked for' }),
});
const sandboxMedia = z.object({
  data: z.base64({ error: 'must be the file as base64' }).min(1, 'must not be empty').meta({ description: 'the file, base64 (the request body is limited to 1 MiB)' }),
  mimetype: z.string({ error: 'is required' }).regex(/^[\w.+-]+\/[\w.+-]+$/, 'must be a MIME type like image/jpeg'),
  fileName: z.string().min(1).max(255).optional(),
});
const MEDIA_KINDS = INBOUND_MEDIA_TYPES as readonly string[];
export const inboundInput = z
  .object({
    from: phoneNumber,
    to: phoneNumber,
    type: z.enum(['text', 'location', 'contact', 'reaction', ...INBOUND_MEDIA_TYPES]).default('text'),
    text: z.string().max(4096).nullish(),
    pushName: z.string().max(100).nullish(),
    location: z.object({ name: z.string().max(200).optional(), latitude: z.number().optional(), longitude: z.number().optional() }).nullish(),
    media: sandboxMedia.nullish().meta({ description: 'the file of an image, video, audio, document or sticker' }),
    caption: z.string().max(1024).nullish(),
    voice: z.boolean().optional().meta({ description: 'an audio recorded as a voice note' }),
    contacts: z
      .array(z.object({ displayName: z.string().min(1).max(200), vcard: z.string().min(1).max(8192) }))
      .min(1)
      .max(20)
      .nullish()
      .meta({ description: 'the contact cards of a contact message' }),
    reaction: z.object({ messageId: z.string().min(1), emoji: z.string().max(16) }).nullish().meta({ description: "a reaction to a message the phone received (the gateway's id of it); emoji '' takes it back" }),
    quotedMessageId: z.string().min(1).max(100).nullish().meta({ description: "the message this one replies to (the gateway's id of a message the phone received)" }),
  })
  .superRefine((body, ctx) => {
    if (MEDIA_KINDS.includes(body.type) && !body.media) ctx.addIssue({ code: 'custom', path: ['media'], message: `is required for a ${body.type}` });
    if (!MEDIA_KINDS.includes(body.type) && body.media) ctx.addIssue({ code: 'custom', path: ['media'], message: `is only for ${MEDIA_KINDS.join(', ')}` });
    if (body.type === 'contact' && !body.contacts) ctx.addIssue({ code: 'custom', path: ['contacts'], message: 'is required for a contact' });
    if (body.type === 'reaction' && !body.reaction) ctx.addIssue({ code: 'custom', path: ['reaction'], message: 'is required for a reaction' });
  });

export const readInput = z.object({ messageId: z.string({ error: 'is required' }) });
export const deleteInput = z.object({ forEveryone: z.boolean().default(true), deletedBy: phoneNumber.optional() });

/** DESIGN §9: the control API of the simulated network, mounted only when ENGINES offers the sandbox. */
export function sandboxRoutes(sandbox: SandboxNetwork, inbox: PhoneInbox) {
  const router = new Router<AppState>({ prefix: '/sandbox' });
  const { control } = sandbox;

  router.post('/scan', jsonBody, async (ctx) => {
    const { code, phone } = parseInput(scanInput, ctx.state.body);
    ctx.body = ok(await control.scan(code, phone));
  });
  router.post('/pair', jsonBody, async (ctx) => {
    const { code, phone } = parseInput(pairInput, ctx.state.body);
    ctx.body = ok(await control.pair(code, phone));
  });
  router.post('/messages', jsonBody, async (ctx) => {
    const data = parseInput(inboundInput, ctx.state.body);
    let media: MediaDescriptor | null = null;
    if (data.media) {
      const bytes = Buffer.from(data.media.data, 'base64');
      const kept = await control.keepMedia(bytes, data.media.mimetype);
      media = {
        type: data.type as InboundMediaType,
        mimetype: data.media.mimetype,
        size: bytes.length,
        fileName: data.media.fileName ?? null,
        ...(data.type === 'audio' ? { voice: data.voice === true } : {}),
        source: kept,
      };
    }
    const result = await control.inbound(`+${data.to}`, {
      networkMessageId: null,
      from: data.from,
      type: data.type,
      text: data.text ?? null,
      caption: data.caption ?? null,
      location: data.location ?? null,
      media,
      contacts: data.contacts ?? null,
      // The sandbox network knows a message by the gateway's own id.
      reaction: data.reaction ? { emoji: data.reaction.emoji, networkMessageId: data.reaction.messageId } : null,
      quotedNetworkId: data.quotedMessageId ?? null,
      pushName: data.pushName ?? null,
    });
    ctx.body = ok('held' in result ? { held: true, message: 'The instance is offline; the network holds the message until it is connected again.' } : result);
  });
  router.get('/phones/:number/messages', async (ctx) => {
    const number = parseInput(phoneNumber, ctx.params.number);
    ctx.body = ok(await inbox.received(number));
  });
  router.post('/phones/:number/read', jsonBody, async (ctx) => {
    const number = parseInput(phoneNumber, ctx.params.number);
    const { messageId } = parseInput(readInput, ctx.state.body);
    if (!(await inbox.has(number, messageId))) throw new NotFound('Message on that phone');
    await control.read(messageId);
    ctx.body = ok({ messageId, status: 'read' });
  });
  router.post('/messages/:messageId/delete', jsonBody, async (ctx) => {
    const { forEveryone, deletedBy } = parseInput(deleteInput, ctx.state.body);
    const messageId = ctx.params.messageId!;
    await control.deleted(messageId, deletedBy ?? (await inbox.senderOf(messageId)), forEveryone);
    ctx.body = ok({ messageId, forEveryone });
  });
  router.post('/messages/:messageId/media-expiry', async (ctx) => {
    await control.expireMedia(ctx.params.messageId!);
    ctx.body = ok({ messageId: ctx.params.messageId, expired: true });
  });
  router.post('/instances/:instanceId/drop', async (ctx) => {
    await control.drop(ctx.params.instanceId!);
    ctx.body = ok({ instanceId: ctx.params.instanceId, status: 'dropped' });
  });
  router.post('/instances/:instanceId/ban', async (ctx) => {
    await control.ban(ctx.params.instanceId!);
    ctx.body = ok({ instanceId: ctx.params.instanceId, status: 'banned' });
  });
  return router;
}
