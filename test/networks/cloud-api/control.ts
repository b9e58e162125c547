// `/control/…`: the programmatic API over HTTP, so a person can drive the server with curl while trying the
// gateway by hand. Answers `{success:true,data}` or `{success:false,error:{code,message}}`; bad input is a
// 400 or 404, never a 500.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { BodyTooLarge, readBody, writeAnswer } from './http.js';
import type { CloudApi } from './api.js';
import { UnknownNumber, type BusinessNumber } from './numbers.js';
import type { InboundMessage } from './types.js';

const CONTROL_BODY_LIMIT = 64 * 1024 * 1024;

class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const digits = z.string().regex(/^\d+$/, 'digits only');
const phone = z.string().regex(/^\+?\d{6,15}$/, '6 to 15 digits');
const base64 = z.string().regex(/^[A-Za-z0-9+/=\r\n]+$/, 'base64');
const FAIL_CODES = [130429, 131056, 131047, 131026, 100, 190, 368, 4, 80007, 131049] as const;
const STATUS_NAMES = ['sent', 'delivered', 'read', 'played', 'failed'] as const;

const addNumberBody = z
  .object({
    phoneNumberId: digits,
    displayPhoneNumber: z.string().regex(/^\d{5,15}$/, '5 to 15 digits'),
    accessToken: z.string().min(1),
    appSecret: z.string().min(1),
    businessAccountId: digits.optional(),
    verifiedName: z.string().min(1).optional(),
    mpsLimit: z.number().int().positive().optional(),
  })
  .strict();

const statusStep = z.union([
  z.enum(STATUS_NAMES),
  z
    .object({ status: z.enum(STATUS_NAMES), delayMs: z.number().min(0).max(600_000).optional(), code: z.number().int().optional(), pricing: z.boolean().optional() })
    .strict(),
]);
const statusScriptBody = z.object({ script: z.array(statusStep), to: phone.optional() }).strict();
const failNextBody = z
  .object({ code: z.literal(FAIL_CODES), times: z.number().int().min(1).max(10_000).optional(), status: z.number().int().min(200).max(599).optional() })
  .strict();
const webhookBody = z.object({ url: z.url({ protocol: /^https?$/ }), verifyToken: z.string().min(1).optional(), verify: z.boolean().optional() }).strict();
const verifyBody = z.object({ verifyToken: z.string().min(1).optional() }).strict();
const batchBody = z.object({ count: z.number().int().min(1).max(10_000), windowMs: z.number().int().min(1).max(600_000).optional() }).strict();
const tokenBody = z.object({ accessToken: z.string().min(1) }).strict();
const windowBody = z.object({ lastMessageAt: z.number().int().min(0).optional() }).strict();
const windowModeBody = z.object({ mode: z.enum(['sync', 'async']) }).strict();
const errorBody = z.object({ code: z.number().int().positive() }).strict();

const common = {
  profileName: z.string().min(1).optional(),
  replyTo: z.union([z.string().min(1), z.object({ id: z.string().min(1), from: digits.optional() }).strict()]).optional(),
};
/** Media bytes travel as base64 in `data`. */
const inboundMessage = z.union([
  z.string().min(1),
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('text'), text: z.string().min(1), ...common }).strict(),
    z.object({ type: z.literal('image'), data: base64, mimeType: z.string().min(1).optional(), caption: z.string().optional(), ...common }).strict(),
    z.object({ type: z.literal('video'), data: base64, mimeType: z.string().min(1).optional(), caption: z.string().optional(), ...common }).strict(),
    z.object({ type: z.literal('sticker'), data: base64, mimeType: z.string().min(1).optional(), animated: z.boolean().optional(), ...common }).strict(),
    z.object({ type: z.literal('audio'), data: base64, mimeType: z.string().min(1).optional(), voice: z.boolean().optional(), ...common }).strict(),
    z
      .object({ type: z.literal('document'), data: base64, mimeType: z.string().min(1).optional(), filename: z.string().min(1), caption: z.string().optional(), ...common })
      .strict(),
    z
      .object({
        type: z.literal('location'),
        latitude: z.number().min(-90).max(90),
        longitude: z.number().min(-180).max(180),
        name: z.string().optional(),
        address: z.string().optional(),
        url: z.string().optional(),
        ...common,
      })
      .strict(),
    z
      .object({
        type: z.literal('contacts'),
        contacts: z
          .array(
            z.object({
              name: z.object({ formatted_name: z.string().min(1), first_name: z.string().optional(), last_name: z.string().optional() }),
              phones: z.array(z.object({ phone: z.string().min(1), wa_id: digits.optional(), type: z.string().optional() })).optional(),
              emails: z.array(z.object({ email: z.string().min(1), type: z.string().optional() })).optional(),
            }),
          )
          .min(1),
        ...common,
      })
      .strict(),
    z.object({ type: z.literal('reaction'), messageId: z.string().min(1), emoji: z.string(), ...common }).strict(),
    z
      .object({
        type: z.literal('interactive'),
        buttonReply: z.object({ id: z.string().min(1), title: z.string().min(1) }).optional(),
        listReply: z.object({ id: z.string().min(1), title: z.string().min(1), description: z.string().optional() }).optional(),
        ...common,
      })
      .strict()
      .refine((m) => Boolean(m.buttonReply) !== Boolean(m.listReply), 'exactly one of buttonReply or listReply'),
    z.object({ type: z.literal('button'), text: z.string().min(1), payload: z.string(), ...common }).strict(),
    z.object({ type: z.literal('unsupported'), ...common }).strict(),
  ]),
]);
const customerMessageItem = z.object({ from: phone, message: inboundMessage }).strict();
const customerMessagesBody = z.union([customerMessageItem, z.object({ messages: z.array(customerMessageItem).min(1).max(1000) }).strict()]);

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (!result.success) {
    const message = result.error.issues.map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
    throw new ControlError(400, 'invalid_request', message);
  }
  return result.data;
}

/** Control input → the programmatic inbound type: base64 becomes bytes. */
function toInbound(message: z.infer<typeof inboundMessage>): InboundMessage {
  if (typeof message === 'string' || !('data' in message)) return message as InboundMessage;
  return { ...message, data: new Uint8Array(Buffer.from(message.data, 'base64')) } as InboundMessage;
}

const digitsOf = (value: string) => value.replace(/^\+/, '');

interface ControlExtras {
  summary: () => Array<{ id: number; state: string; attempts: number; body: string; signature: string }>;
  numbers: () => BusinessNumber[];
  webhook: () => { url: string | null; verifyToken: string | null };
}

type Handler = (params: string[], body: unknown, url: URL) => Promise<unknown> | unknown;
interface Route {
  method: string;
  pattern: RegExp;
  describe: string;
  handler: Handler;
  status?: number;
}

export function createControl(api: CloudApi, extras: ControlExtras) {
  const numberParam = (params: string[]) => {
    const id = params[0] as string;
    if (!extras.numbers().some((n) => n.phoneNumberId === id)) throw new ControlError(404, 'not_found', `no number with phoneNumberId ${id}`);
    return id;
  };

  const routes: Route[] = [
    { method: 'GET', pattern: /^$/, describe: 'this list', handler: () => routes.map((r) => r.describe) },
    { method: 'GET', pattern: /^numbers$/, describe: 'GET /control/numbers', handler: () => extras.numbers() },
    {
      method: 'POST',
      pattern: /^numbers$/,
      status: 201,
      describe: 'POST /control/numbers {phoneNumberId, displayPhoneNumber, accessToken, appSecret, businessAccountId?, verifiedName?, mpsLimit?}',
      handler: (_p, body) => {
        const input = parse(addNumberBody, body);
        api.addNumber(input);
        return extras.numbers().find((n) => n.phoneNumberId === input.phoneNumberId);
      },
    },
    {
      method: 'POST',
      pattern: /^numbers\/([^/]+)\/expire-token$/,
      describe: 'POST /control/numbers/<id>/expire-token',
      handler: (params) => {
        api.expireToken(numberParam(params));
        return { expired: true };
      },
    },
    {
      method: 'PUT',
      pattern: /^numbers\/([^/]+)\/token$/,
      describe: 'PUT /control/numbers/<id>/token {accessToken}',
      handler: (params, body) => {
        const id = numberParam(params);
        api.replaceToken(id, parse(tokenBody, body).accessToken);
        return { replaced: true };
      },
    },
    {
      method: 'PUT',
      pattern: /^numbers\/([^/]+)\/status-script$/,
      describe: "PUT /control/numbers/<id>/status-script {script: ['sent','delivered','read'] | [{status, delayMs?, code?, pricing?}], to?}",
      handler: (params, body) => {
        const id = numberParam(params);
        const input = parse(statusScriptBody, body);
        api.statusScript(id, input.script, input.to === undefined ? undefined : { to: input.to });
        return input;
      },
    },
    {
      method: 'POST',
      pattern: /^numbers\/([^/]+)\/fail-next$/,
      describe: 'POST /control/numbers/<id>/fail-next {code, times?, status?}',
      handler: (params, body) => {
        const id = numberParam(params);
        const input = parse(failNextBody, body);
        api.failNext(id, input);
        return input;
      },
    },
    {
      method: 'POST',
      pattern: /^numbers\/([^/]+)\/customer-messages$/,
      describe: "POST /control/numbers/<id>/customer-messages {from, message: 'text' | {type, …}} or {messages: [{from, message}]} (one webhook POST)",
      handler: async (params, body) => {
        const id = numberParam(params);
        const input = parse(customerMessagesBody, body);
        if ('messages' in input) {
          const wamids = await api.customerMessages(id, input.messages.map((m) => ({ from: digitsOf(m.from), message: toInbound(m.message) })));
          return { wamids };
        }
        return { wamid: await api.customerMessage(id, digitsOf(input.from), toInbound(input.message)) };
      },
    },
    {
      method: 'PUT',
      pattern: /^numbers\/([^/]+)\/windows\/([^/]+)$/,
      describe: 'PUT /control/numbers/<id>/windows/<user> {lastMessageAt?} opens the window; DELETE closes it',
      handler: (params, body) => {
        const id = numberParam(params);
        const user = parse(phone, params[1]);
        const input = parse(windowBody, body);
        api.openWindow(id, user, input.lastMessageAt);
        return { open: true };
      },
    },
    {
      method: 'DELETE',
      pattern: /^numbers\/([^/]+)\/windows\/([^/]+)$/,
      describe: 'DELETE /control/numbers/<id>/windows/<user>',
      handler: (params) => {
        const id = numberParam(params);
        api.closeWindow(id, parse(phone, params[1]));
        return { open: false };
      },
    },
    {
      method: 'POST',
      pattern: /^numbers\/([^/]+)\/errors$/,
      describe: 'POST /control/numbers/<id>/errors {code} (an out-of-band error webhook)',
      handler: (params, body) => {
        api.reportError(numberParam(params), parse(errorBody, body).code);
        return { reported: true };
      },
    },
    { method: 'GET', pattern: /^webhook$/, describe: 'GET /control/webhook', handler: () => ({ ...extras.webhook(), pending: api.pendingWebhooks() }) },
    {
      method: 'PUT',
      pattern: /^webhook$/,
      describe: 'PUT /control/webhook {url, verifyToken?, verify?} (verify: run the GET verification now)',
      handler: async (_p, body) => {
        const input = parse(webhookBody, body);
        api.setWebhook(input.url, input.verifyToken);
        const verification = input.verify && input.verifyToken ? await api.verifyWebhook(input.verifyToken) : null;
        return { ...extras.webhook(), verification };
      },
    },
    {
      method: 'POST',
      pattern: /^webhook\/verify$/,
      describe: 'POST /control/webhook/verify {verifyToken?}',
      handler: async (_p, body) => {
        const input = parse(verifyBody, body);
        const webhook = extras.webhook();
        if (!webhook.url) throw new ControlError(400, 'invalid_request', 'no webhook URL set: PUT /control/webhook first');
        if (!input.verifyToken && !webhook.verifyToken) throw new ControlError(400, 'invalid_request', 'no verify token given or set');
        return api.verifyWebhook(input.verifyToken);
      },
    },
    {
      method: 'POST',
      pattern: /^webhook\/batch-next$/,
      describe: 'POST /control/webhook/batch-next {count, windowMs?}',
      handler: (_p, body) => {
        const input = parse(batchBody, body);
        api.batchNext(input.count, input.windowMs);
        return input;
      },
    },
    {
      method: 'PUT',
      pattern: /^window-mode$/,
      describe: 'PUT /control/window-mode {mode: sync|async}',
      handler: (_p, body) => {
        api.setWindowMode(parse(windowModeBody, body).mode);
        return { mode: (body as { mode: string }).mode };
      },
    },
    {
      method: 'GET',
      pattern: /^sent$/,
      describe: 'GET /control/sent[?phoneNumberId=]',
      handler: (_p, _b, url) => api.sent(url.searchParams.get('phoneNumberId') ?? undefined),
    },
    { method: 'GET', pattern: /^requests$/, describe: 'GET /control/requests', handler: () => api.requests() },
    { method: 'GET', pattern: /^reads$/, describe: 'GET /control/reads', handler: () => api.readMarks() },
    {
      method: 'GET',
      pattern: /^deliveries$/,
      describe: 'GET /control/deliveries (every delivery and attempt)',
      handler: () => ({ pending: api.pendingWebhooks(), deliveries: extras.summary().map(({ body: _b, ...rest }) => rest), attempts: api.deliveries() }),
    },
    {
      method: 'POST',
      pattern: /^deliveries\/([^/]+)\/redeliver$/,
      describe: 'POST /control/deliveries/<id>/redeliver',
      handler: (params) => {
        const id = Number(params[0]);
        if (!Number.isInteger(id) || !extras.summary().some((d) => d.id === id)) throw new ControlError(404, 'not_found', `no delivery ${params[0]}`);
        return { deliveryId: api.redeliver(id) };
      },
    },
  ];

  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const answer = (status: number, body: unknown) => writeAnswer(res, { status, body: body as object });
    try {
      const path = url.pathname.replace(/^\/control\/?/, '').replace(/\/$/, '');
      const matching = routes.filter((r) => r.pattern.test(path));
      if (matching.length === 0) throw new ControlError(404, 'not_found', `no control route ${url.pathname}`);
      const route = matching.find((r) => r.method === req.method);
      if (!route) throw new ControlError(405, 'method_not_allowed', `${req.method} is not allowed on ${url.pathname}`);
      let body: unknown = {};
      if (req.method === 'POST' || req.method === 'PUT') {
        let raw: Buffer;
        try {
          raw = await readBody(req, CONTROL_BODY_LIMIT);
        } catch (error) {
          if (error instanceof BodyTooLarge) throw new ControlError(413, 'payload_too_large', error.message);
          throw new ControlError(400, 'invalid_request', 'could not read the request body');
        }
        if (raw.length > 0) {
          try {
            body = JSON.parse(raw.toString('utf8'));
          } catch {
            throw new ControlError(400, 'invalid_request', 'the body is not valid JSON');
          }
        }
      } else {
        req.resume();
      }
      const params = (route.pattern.exec(path) ?? []).slice(1).map((p) => decodeURIComponent(p));
      const data = await route.handler(params, body, url);
      answer(route.status ?? 200, { success: true, data });
    } catch (error) {
      if (error instanceof ControlError) return answer(error.status, { success: false, error: { code: error.code, message: error.message } });
      if (error instanceof UnknownNumber) return answer(404, { success: false, error: { code: 'not_found', message: error.message } });
      // Everything the programmatic API throws is about its input (a bad URL, a bad script…).
      const message = error instanceof Error ? error.message : String(error);
      answer(400, { success: false, error: { code: 'invalid_request', message } });
    }
  };
}
