import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { z } from 'zod';
import { ChatNetworkError } from '../errors.js';
import type { ChatNetwork } from '../api.js';
import { groupRoutes } from './group-routes.js';
import { historyRoutes } from './history-routes.js';
import { parse, phone, type Route } from './route.js';
import type { InboundContent, PhoneMessage } from '../types.js';

/** Media comes as base64 in JSON; this bounds a request body (a 16 MB file, encoded). */
const MAX_BODY_BYTES = 24 * 1024 * 1024;

const media = z.object({
  data: z.string().min(1).describe('base64 of the file'),
  mimetype: z.string().min(1),
  caption: z.string().optional(),
  fileName: z.string().optional(),
  ptt: z.boolean().optional(),
  seconds: z.number().int().nonnegative().optional(),
  expired: z.boolean().optional(),
});
const location = z.object({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  name: z.string().optional(),
  address: z.string().optional(),
});
const card = z.object({ displayName: z.string(), vcard: z.string() });
const sendBody = z
  .object({
    to: phone,
    text: z.string().optional(),
    location: location.optional(),
    image: media.optional(),
    video: media.optional(),
    audio: media.optional(),
    document: media.optional(),
    sticker: media.optional(),
    contact: card.optional(),
    contacts: z.array(card).min(1).optional(),
    reaction: z.object({ messageId: z.string().min(1), emoji: z.string() }).optional(),
    poll: z
      .object({ name: z.string().min(1), options: z.array(z.string().min(1)).min(2), selectableCount: z.number().int().nonnegative().optional() })
      .optional(),
    mentions: z.array(phone).optional(),
    id: z.string().min(1).optional(),
    pushName: z.string().optional(),
    quoted: z.string().min(1).optional(),
    addressing: z.enum(['pn', 'lid']).optional(),
    asLid: z.boolean().optional(),
  })
  .refine((body) => CONTENT_KINDS.filter((kind) => body[kind] !== undefined).length === 1, {
    message: `exactly one of ${'text, location, image, video, audio, document, sticker, contact, contacts, reaction, poll'} is required`,
  });
const CONTENT_KINDS = ['text', 'location', 'image', 'video', 'audio', 'document', 'sticker', 'contact', 'contacts', 'reaction', 'poll'] as const;

type Body = z.infer<typeof sendBody>;

function contentOf(body: Body): InboundContent {
  for (const kind of CONTENT_KINDS) {
    const value = body[kind];
    if (value === undefined) continue;
    if (kind === 'image' || kind === 'video' || kind === 'audio' || kind === 'document' || kind === 'sticker') {
      const item = value as z.infer<typeof media>;
      const { data, ...rest } = item;
      return { [kind]: { ...rest, bytes: Buffer.from(data, 'base64') } } as InboundContent;
    }
    return { [kind]: value } as InboundContent;
  }
  throw new ChatNetworkError(400, 'invalid_content', 'no content');
}

/** A phone message as JSON: media as base64 with its size and SHA-256, so it can be checked by hand. */
function presentMessage(message: PhoneMessage) {
  const { bytes, message: _content, receivedAt, ...rest } = message;
  return {
    ...rest,
    receivedAt: receivedAt.toISOString(),
    media: bytes && { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), base64: bytes.toString('base64') },
  };
}

const routes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/control\/scan$/,
    async run(network, _, body) {
      const { qr, phone: number } = parse(z.object({ qr: z.string().min(1), phone }), body);
      await network.scan(qr, number);
      return { data: { linked: true } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/control\/pair$/,
    async run(network, _, body) {
      const { code, phone: number } = parse(z.object({ code: z.string().min(1), phone }), body);
      await network.enterPairingCode(code, number);
      return { data: { linked: true } };
    },
  },
  {
    method: 'GET',
    pattern: /^\/control\/phones\/([^/]+)\/messages$/,
    async run(network, [number]) {
      return { data: network.inbox(number!).map(presentMessage) };
    },
  },
  {
    method: 'POST',
    pattern: /^\/control\/phones\/([^/]+)\/messages$/,
    async run(network, [number], body) {
      const parsed = parse(sendBody, body);
      const id = await network.send(number!, parsed.to, contentOf(parsed), {
        id: parsed.id,
        pushName: parsed.pushName,
        quoted: parsed.quoted,
        mentions: parsed.mentions,
        addressing: parsed.addressing,
        asLid: parsed.asLid,
      });
      return { status: 201, data: { id } };
    },
  },
  {
    method: 'GET',
    pattern: /^\/control\/phones\/([^/]+)\/receipts$/,
    async run(network, [number]) {
      return { data: network.receipts(number!).map((receipt) => ({ ...receipt, at: receipt.at.toISOString() })) };
    },
  },
  {
    method: 'POST',
    pattern: /^\/control\/phones\/([^/]+)\/receipts$/,
    async run(network, [number], body) {
      const { messageId, type } = parse(
        z.object({ messageId: z.string().min(1), type: z.enum(['delivered', 'read', 'played']) }),
        body,
      );
      await network.receipt(number!, messageId, type);
      return { data: { sent: true } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/control\/phones\/([^/]+)\/revoke$/,
    async run(network, [number], body) {
      const { messageId, to } = parse(z.object({ messageId: z.string().min(1), to: phone }), body);
      return { data: { id: await network.revoke(number!, messageId, to) } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/control\/phones\/([^/]+)\/edits$/,
    async run(network, [number], body) {
      const { messageId, to, text } = parse(z.object({ messageId: z.string().min(1), to: phone, text: z.string().min(1) }), body);
      return { data: { id: await network.edit(number!, messageId, to, text) } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/control\/phones\/([^/]+)\/votes$/,
    async run(network, [number], body) {
      const { messageId, to, options, addressing } = parse(
        z.object({ messageId: z.string().min(1), to: phone, options: z.array(z.string()), addressing: z.enum(['pn', 'lid']).optional() }),
        body,
      );
      return { status: 201, data: await network.vote(number!, messageId, to, options, { addressing }) };
    },
  },
  {
    method: 'POST',
    pattern: /^\/control\/phones\/([^/]+)\/privacy$/,
    async run(network, [number], body) {
      const { acceptsGroupAdds } = parse(z.object({ acceptsGroupAdds: z.boolean() }), body);
      network.setAcceptsGroupAdds(number!, acceptsGroupAdds);
      return { data: { acceptsGroupAdds } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/control\/phones\/([^/]+)\/registration$/,
    async run(network, [number], body) {
      const { registered } = parse(z.object({ registered: z.boolean() }), body);
      network.setRegistered(number!, registered);
      return { data: { registered } };
    },
  },
  {
    method: 'GET',
    pattern: /^\/control\/phones\/([^/]+)\/lid$/,
    async run(network, [number]) {
      return { data: { lid: network.lidOf(number!) } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/control\/phones\/([^/]+)\/lid-mapping$/,
    async run(network, [number], body) {
      const { contacts } = parse(z.object({ contacts: z.array(phone).min(1) }), body);
      return { data: { id: await network.shareLidMapping(number!, contacts) } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/control\/phones\/([^/]+)\/media-expiry$/,
    async run(network, [number], body) {
      const { messageId } = parse(z.object({ messageId: z.string().min(1) }), body);
      network.expireMedia(number!, messageId);
      return { data: { expired: true } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/control\/phones\/([^/]+)\/presence$/,
    async run(network, [number], body) {
      const { to, type } = parse(z.object({ to: phone, type: z.enum(['available', 'unavailable', 'composing', 'recording', 'paused']) }), body);
      network.presence(number!, to, type);
      return { data: { sent: true } };
    },
  },
  {
    method: 'GET',
    pattern: /^\/control\/phones\/([^/]+)\/presence$/,
    async run(network, [number]) {
      return {
        data: {
          presence: network.presenceOf(number!),
          chatStates: network.chatStates(number!).map((state) => ({ ...state, at: state.at.toISOString() })),
        },
      };
    },
  },
  {
    method: 'POST',
    pattern: /^\/control\/phones\/([^/]+)\/profile$/,
    async run(network, [number], body) {
      const change = parse(
        z
          .object({ pushName: z.string().min(1).optional(), picture: z.string().min(1).nullable().optional(), to: z.array(phone).optional() })
          .refine((value) => value.pushName !== undefined || value.picture !== undefined, { message: 'pushName or picture is required' }),
        body,
      );
      network.setProfile(number!, {
        pushName: change.pushName,
        picture: change.picture === undefined ? undefined : change.picture === null ? null : Buffer.from(change.picture, 'base64'),
        to: change.to,
      });
      return { data: { changed: true } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/control\/phones\/([^/]+)\/calls$/,
    async run(network, [number], body) {
      const { to, video } = parse(z.object({ to: phone, video: z.boolean().optional() }), body);
      return { status: 201, data: { id: network.call(number!, to, { video }) } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/control\/phones\/([^/]+)\/status$/,
    async run(network, [number], body) {
      const { viewers, text } = parse(z.object({ viewers: z.array(phone).min(1), text: z.string().min(1) }), body);
      return { status: 201, data: { id: await network.postStatus(number!, viewers, text) } };
    },
  },
  {
    method: 'GET',
    pattern: /^\/control\/phones\/([^/]+)\/calls$/,
    async run(network, [number]) {
      return { data: network.calls(number!).map((call) => ({ ...call, at: call.at.toISOString() })) };
    },
  },
  {
    method: 'GET',
    pattern: /^\/control\/phones\/([^/]+)\/profile$/,
    async run(network, [number]) {
      const { picture, ...seen } = network.profileOf(number!);
      return { data: { ...seen, picture: picture ? picture.toString('base64') : null, privacy: network.privacyOf(number!) } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/control\/calls\/([^/]+)\/end$/,
    async run(network, [callId], body) {
      const { outcome } = parse(z.object({ outcome: z.enum(['accept', 'reject', 'timeout', 'hangup']) }), body);
      network.endCall(callId!, outcome);
      return { data: { ended: true } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/control\/phones\/([^/]+)\/app-state-key$/,
    async run(network, [number]) {
      return { data: { devices: network.shareAppStateKey(number!) } };
    },
  },
  ...groupRoutes,
  ...historyRoutes,
  {
    method: 'POST',
    pattern: /^\/control\/devices\/([^/]+)\/stream-error$/,
    async run(network, [number], body) {
      const { code, deviceId } = parse(
        z.object({
          code: z.literal([408, 428, 440, 401, 403, 500, 503, 515]),
          deviceId: z.number().int().positive().optional(),
        }),
        body,
      );
      return { data: { ended: network.streamError(number!, code, { deviceId }) } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/control\/devices\/([^/]+)\/unban$/,
    async run(network, [number]) {
      network.unban(number!);
      return { data: { banned: false } };
    },
  },
  {
    method: 'GET',
    pattern: /^\/control\/devices$/,
    async run(network) {
      return { data: network.devices().map((device) => ({ ...device, linkedAt: device.linkedAt.toISOString() })) };
    },
  },
  {
    method: 'GET',
    pattern: /^\/control\/stats$/,
    async run(network) {
      return { data: network.stats() };
    },
  },
];

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new ChatNetworkError(400, 'body_too_large', `request bodies are limited to ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  if (!size) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new ChatNetworkError(400, 'invalid_json', 'the request body is not valid JSON');
  }
}

function reply(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

/**
 * The control API: the programmatic API over HTTP/JSON, so a person can play the phones by hand.
 * Answers `{success: true, data}` or `{success: false, error: {code, message}}`; bad input is a 400
 * or 404, never a 500.
 */
export function createControlHandler(network: () => ChatNetwork, logger: Logger) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const candidates = routes.filter((route) => route.pattern.test(path));
    const route = candidates.find((candidate) => candidate.method === req.method);
    if (!route) {
      req.resume();
      reply(res, 404, { success: false, error: { code: 'not_found', message: `no route ${req.method} ${path}` } });
      return;
    }
    (async () => {
      let params: string[];
      try {
        params = route.pattern.exec(path)!.slice(1).map(decodeURIComponent);
      } catch {
        throw new ChatNetworkError(400, 'invalid_path', 'malformed escape in the path');
      }
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      const { status, data } = await route.run(network(), params, body);
      reply(res, status ?? 200, { success: true, data });
    })().catch((error: unknown) => {
      if (error instanceof ChatNetworkError) {
        reply(res, error.status, { success: false, error: { code: error.code, message: error.message } });
        return;
      }
      logger.error({ err: error, path }, 'control API failure');
      reply(res, 500, { success: false, error: { code: 'internal_error', message: 'unexpected failure' } });
    });
  };
}
