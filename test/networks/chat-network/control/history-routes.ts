import { z } from 'zod';
import { parse, phone, type Route } from './route.js';

const pastMessage = z.object({
  id: z.string().min(1).optional(),
  text: z.string(),
  at: z.iso.datetime({ offset: true }).transform((value) => new Date(value)),
  fromMe: z.boolean().optional(),
  author: phone.optional(),
  status: z.enum(['sent', 'delivered', 'read']).optional(),
});
const pastChat = z.object({
  with: z.string().min(1),
  lidOnly: z.boolean().optional(),
  name: z.string().optional(),
  unreadCount: z.number().int().nonnegative().optional(),
  archived: z.boolean().optional(),
  pinned: z.boolean().optional(),
  messages: z.array(pastMessage),
});
const pastBody = z.object({
  chats: z.array(pastChat),
  chatsPerChunk: z.number().int().positive().optional(),
  messagesPerChat: z.number().int().positive().optional(),
  chunksPerConnection: z.number().int().positive().optional(),
});

/** The control API's history routes: a phone's past (texts), its chunks handed over again, and what devices asked of it. */
export const historyRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/control\/phones\/([^/]+)\/history$/,
    async run(network, [number], body) {
      const past = parse(pastBody, body);
      network.setHistory(number!, past);
      return { data: { chats: past.chats.length } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/control\/phones\/([^/]+)\/history\/again$/,
    async run(network, [number]) {
      return { data: { handed: await network.historyAgain(number!) } };
    },
  },
  {
    method: 'GET',
    pattern: /^\/control\/phones\/([^/]+)\/history\/requests$/,
    async run(network, [number]) {
      return { data: network.historyRequests(number!).map((request) => ({ ...request, at: request.at.toISOString() })) };
    },
  },
  {
    method: 'GET',
    pattern: /^\/control\/phones\/([^/]+)\/blocked$/,
    async run(network, [number]) {
      return { data: network.blocked(number!) };
    },
  },
];
