import { randomBytes, randomUUID } from 'node:crypto';
import type { RouterMiddleware } from '@koa/router';
import { z } from 'zod';
import { int } from '../../../src/config.js';
import { Invalid, NotFound } from '../../../src/domain/errors.js';
import type { ChatEngine, EngineEvents, InstanceSession } from '../../../src/domain/network/engine.port.js';
import type { Lease } from '../../../src/domain/ownership/lease.js';
import { defineEngine } from '../../../src/engines/descriptor.js';
import { type AppState, ok } from '../../../src/http/context.js';
import { jsonBody } from '../../../src/http/json-body.js';
import { loopbackOperations as op, loopbackSurface } from './operations.js';

/**
 * CHAT-LOOPBACK: the smallest engine there is, kept outside src to show that an engine, its routes and
 * their document included, is one folder and one catalogue line. Its "network" lives in this process:
 * QR codes, a phone's scan, inboxes, texts and an echo, each a route it declares (operations.ts).
 */
export const loopbackEngine = defineEngine({
  name: 'loopback',
  integration: 'CHAT-LOOPBACK',
  jidDomain: 'loopback.chat',
  settings: z.object({ LOOPBACK_CODES_KEPT: int(1, 1000).default(10) }),
  loginFlows: ['qr'],
  capabilities: ['text'],
  http: loopbackSurface,
  async create(_shared, settings) {
    let events: EngineEvents | undefined;
    /** Live QR codes, by their text: the instance they link, and the lease its session holds. */
    const codes = new Map<string, { instanceId: string; lease: Lease }>();
    /** The phone each linked instance speaks as. */
    const phones = new Map<string, string>();
    /** What each phone received, in order. */
    const inboxes = new Map<string, Array<{ from: string; text: string | null; networkMessageId: string }>>();

    const engine: ChatEngine = {
      integration: 'CHAT-LOOPBACK',
      async attach(first, lease): Promise<InstanceSession> {
        const session: InstanceSession = {
          async update(instance, terms) {
            if (instance.logoutPending) return events!.closed(instance.id, lease, 'logged_out');
            if (instance.pairingSince !== null) {
              if ([...codes.values()].some((code) => code.instanceId === instance.id && code.lease === lease)) return;
              const text = `loopback:${randomBytes(12).toString('base64url')}`;
              codes.set(text, { instanceId: instance.id, lease });
              while (codes.size > settings.LOOPBACK_CODES_KEPT) codes.delete(codes.keys().next().value!);
              return events!.qrCode(instance.id, lease, { text, expiresAt: new Date(Date.now() + terms.qr.lifetimeMs * terms.qr.codes) });
            }
            if (instance.phone !== null && instance.state === 'disconnected') return events!.connected(instance.id, lease);
          },
          async send(messages, phone) {
            return messages.map((message) => {
              const networkMessageId = randomUUID();
              const inbox = inboxes.get(message.to) ?? [];
              inbox.push({ from: phone.replace('+', ''), text: message.text, networkMessageId });
              inboxes.set(message.to, inbox);
              return { messageId: message.messageId, networkMessageId };
            });
          },
          detach() {},
          async forget() {
            phones.delete(first.id);
          },
        };
        return session;
      },
    };

    const scan: RouterMiddleware<AppState> = async (ctx) => {
      const { code, phone } = ctx.state.body as { code?: string; phone?: string };
      const linked = code ? codes.get(code) : undefined;
      if (!linked) throw Invalid.at('code', 'unknown or already used');
      const { instanceId, lease } = linked;
      if (typeof phone !== 'string') throw Invalid.at('phone', 'is required');
      codes.delete(code!);
      await events!.paired(instanceId, lease, phone);
      await events!.connected(instanceId, lease);
      phones.set(instanceId, phone);
      ctx.body = ok({ instanceId });
    };
    const send: RouterMiddleware<AppState> = async (ctx) => {
      const { from, to, text } = ctx.state.body as { from: string; to: string; text: string };
      const instanceId = [...phones].find(([, phone]) => phone === to)?.[0];
      if (!instanceId) throw new NotFound('Instance with that phone');
      const stored = await events!.inbound(instanceId, {
        networkMessageId: randomUUID(),
        from,
        type: 'text',
        text,
        location: null,
        pushName: null,
      });
      ctx.body = ok(stored);
    };
    const inbox: RouterMiddleware<AppState> = (ctx) => {
      ctx.body = ok(inboxes.get(ctx.params.phone!) ?? []);
    };
    const echo: RouterMiddleware<AppState> = (ctx) => {
      ctx.body = ok({ integration: 'CHAT-LOOPBACK', text: String(ctx.query.text ?? '') });
    };

    return {
      engine,
      connect(handlers) {
        events = handlers;
      },
      routes: [
        { operation: op.scan, handlers: [jsonBody, scan] },
        { operation: op.send, handlers: [jsonBody, send] },
        { operation: op.inbox, handlers: [inbox] },
        { operation: op.echo, handlers: [echo] },
      ],
      stop() {
        codes.clear();
      },
    };
  },
});
