import { Router } from '@koa/router';
import { z } from 'zod';
import { NotFound } from '../../domain/errors.js';
import { phoneNumber } from '../../domain/messages/messages.input.js';
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
export const inboundInput = z.object({
  from: phoneNumber,
  to: phoneNumber,
  type: z.enum(['text', 'image', 'location']).default('text'),
  text: z.string().max(4096).nullish(),
  pushName: z.string().max(100).nullish(),
  location: z.object({ name: z.string().max(200).optional(), latitude: z.number().optional(), longitude: z.number().optional() }).nullish(),
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
    const result = await control.inbound(`+${data.to}`, {
      networkMessageId: null,
      from: data.from,
      type: data.type,
      text: data.text ?? null,
      location: data.location ?? null,
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
