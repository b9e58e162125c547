import { z } from 'zod';
import { type Operation, okEnvelope } from '../../http/operation.js';
import { pastInput } from './past-input.js';

const instant = z.iso.datetime({ offset: true }).meta({ description: 'an instant, ISO 8601 in UTC' });
const number = z.string().meta({ description: 'phone digits' });

const PastChat = z.object({ id: z.string(), name: z.string().nullable(), unreadCount: z.number().int(), archived: z.boolean(), pinned: z.boolean() });
const PastMessage = z.object({
  id: z.string(),
  chat: z.string(),
  fromMe: z.boolean(),
  from: z.string().nullable(),
  pushName: z.string().nullable(),
  at: instant,
  type: z.enum(['text', 'image', 'location', 'reaction']),
  text: z.string().nullable(),
  caption: z.string().nullable(),
  location: z.object({ latitude: z.number(), longitude: z.number(), name: z.string().optional() }).nullable(),
  reaction: z.object({ messageId: z.string(), emoji: z.string() }).nullable(),
  quotedId: z.string().nullable(),
  status: z.enum(['sent', 'delivered', 'read']).nullable(),
});
const Past = z.object({ chats: z.array(PastChat), contacts: z.array(z.object({ phone: number, name: z.string().nullable(), pushName: z.string().nullable() })), messages: z.array(PastMessage) });
const Given = z.object({
  phone: number,
  chats: z.number().int(),
  contacts: z.number().int(),
  messages: z.number().int(),
  told: z.number().int().meta({ description: "the phone's connected instances, which take the past at once (others when they link next)" }),
});
const ChatStateSeen = z.object({
  chat: z.string(),
  change: z.union([z.object({ archived: z.boolean() }), z.object({ pinned: z.boolean() }), z.object({ mutedUntil: z.union([instant, z.literal('forever'), z.null()]) }), z.object({ unread: z.literal(true) })]),
  at: instant,
});
const BlockSeen = z.object({ phone: number.meta({ description: 'the person blocked or unblocked' }), blocked: z.boolean(), at: instant });

const ProfileSeen = z.object({
  name: z.string().nullable(),
  about: z.string().nullable(),
  picture: z.string().nullable().meta({ description: "where the picture is served; null when the number set none" }),
  privacy: z.record(z.string(), z.string()).meta({ description: 'the privacy settings its instances set (lastSeen, online, picture, about, readReceipts, groupsAdd)' }),
});

const tag = 'Sandbox network';

/** The control API's operations on a phone's past and its own lists (docs/engines.md, "The sandbox's past"). */
export const pastOperations = {
  givePast: { method: 'post', path: '/sandbox/phones/:number/past', tag, summary: 'Gives a phone a past: the chats, contacts and messages its instances take as history', auth: [], body: pastInput, success: { status: 200, schema: okEnvelope(Given), description: 'given' }, errors: [400] },
  phonePast: { method: 'get', path: '/sandbox/phones/:number/past', tag, summary: "A phone's past: the one given, else the made-up one (SANDBOX_PAST=generated), else null", auth: [], success: { status: 200, schema: okEnvelope(Past.nullable()), description: 'its past' }, errors: [400] },
  phoneChatStates: { method: 'get', path: '/sandbox/phones/:number/chat-states', tag, summary: "What a phone's linked instances did to its chats (archive, pin, mute, mark unread)", auth: [], success: { status: 200, schema: okEnvelope(z.array(ChatStateSeen)), description: 'oldest first' }, errors: [400] },
  phoneBlocks: { method: 'get', path: '/sandbox/phones/:number/blocks', tag, summary: "The blocks and unblocks a phone's linked instances made", auth: [], success: { status: 200, schema: okEnvelope(z.array(BlockSeen)), description: 'oldest first' }, errors: [400] },
  phoneProfile: { method: 'get', path: '/sandbox/phones/:number/profile', tag, summary: "A number's own profile and privacy as its instances set them (what another phone sees)", auth: [], success: { status: 200, schema: okEnvelope(ProfileSeen), description: 'the profile' }, errors: [400] },
  phonePicture: { method: 'get', path: '/sandbox/phones/:number/picture', tag, summary: "A sandbox number's profile picture (the URL a contact's profile gives): the one its instances set, else one drawn from the number", auth: [], success: { status: 200, description: 'the picture', contentType: ['image/svg+xml', 'image/jpeg', 'image/png', 'image/webp'] }, errors: [400, 404] },
} satisfies Record<string, Operation>;
