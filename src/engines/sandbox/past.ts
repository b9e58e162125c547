import { createHash } from 'node:crypto';

/**
 * A sandbox phone's past (docs/engines.md, "The sandbox's past"): the chats, people and messages the
 * phone had before a device linked. A message names its chat as the gateway does: the peer's digits or
 * a group id; `id` is the past's own name of it, which replies and reactions use.
 */
export interface PastMessage {
  id: string;
  chat: string;
  fromMe: boolean;
  /** The sender's digits (a group's participant); null for the phone's own messages. */
  from: string | null;
  pushName: string | null;
  /** ISO 8601. */
  at: string;
  type: 'text' | 'image' | 'location' | 'reaction';
  text: string | null;
  caption: string | null;
  location: { latitude: number; longitude: number; name?: string } | null;
  reaction: { messageId: string; emoji: string } | null;
  quotedId: string | null;
  /** What the phone last saw of its own message. */
  status: 'sent' | 'delivered' | 'read' | null;
}

export interface PastChat {
  id: string;
  /** A group's subject; a direct chat's saved name. */
  name: string | null;
  unreadCount: number;
  archived: boolean;
  pinned: boolean;
}

export interface PastContact {
  phone: string;
  name: string | null;
  pushName: string | null;
}

export interface PhonePast {
  chats: PastChat[];
  contacts: PastContact[];
  messages: PastMessage[];
}

const DAY_MS = 86_400_000;
const FIRST = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elisa', 'Felipe', 'Gabi', 'Hugo', 'Iris', 'João', 'Lara', 'Marco'];
const LAST = ['Souza', 'Lima', 'Costa', 'Rocha', 'Alves', 'Pereira'];
const SUBJECTS = ['Family', 'Football on Thursdays', 'Book club', 'Neighbours', 'Trip to the coast'];
const GREETINGS = ['Hi! Are we still on for Saturday?', 'Hello! Free for a coffee this week?', 'Hey, did you get my message?'];
const PLACES = [
  { name: 'Praça da Sé', latitude: -23.5503, longitude: -46.6339 },
  { name: 'Parque Ibirapuera', latitude: -23.5874, longitude: -46.6576 },
  { name: 'Mercado Municipal', latitude: -23.5416, longitude: -46.6297 },
];
const EMOJIS = ['👍', '❤️', '😂', '🙏'];

/** A network id of a past message: a UUID drawn from the phone and the past's name of it, the same on every link. */
export function pastNetworkId(phone: string, id: string): string {
  const hex = createHash('sha256').update(`sandbox-past:${phone}:${id}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A short name of a past's content: a batch's key carries it, so the same past gives the same keys. */
export const pastTag = (past: PhonePast) => createHash('sha256').update(JSON.stringify(past)).digest('hex').slice(0, 12);

/** Numbers drawn from the phone's digits: the same phone always draws the same. */
function drawsOf(phone: string) {
  let seed = createHash('sha256').update(`sandbox-seed:${phone}`).digest().readUInt32LE(0);
  const next = () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!,
    digits: (count: number) => Array.from({ length: count }, () => Math.floor(next() * 10)).join(''),
  };
}

/**
 * The past every sandbox phone has when none was given (SANDBOX_PAST=generated): three direct chats
 * and a group over the 70 days before `anchor`, both directions, texts, a captioned image, locations,
 * reactions and replies. Drawn from the phone's digits; only the moments follow the anchor.
 */
export function generatedPast(phone: string, anchor: Date): PhonePast {
  const draw = drawsOf(phone);
  const people = [0, 1, 2].map((n) => {
    const first = FIRST[(FIRST.indexOf(draw.pick(FIRST)) + n * 4) % FIRST.length]!;
    return { phone: `5521${n}${draw.digits(8)}`, first, full: `${first} ${draw.pick(LAST)}` };
  });
  const stranger = { phone: `5531${draw.digits(9)}`, first: draw.pick(FIRST) };
  const group = `120363${draw.digits(12)}@g.us`;
  const subject = draw.pick(SUBJECTS);
  const [a, b, c] = people as [(typeof people)[0], (typeof people)[0], (typeof people)[0]];
  const messages: PastMessage[] = [];
  let seq = 0;
  const at = (daysAgo: number) => new Date(anchor.getTime() - daysAgo * DAY_MS + seq * 3 * 60_000).toISOString();
  const add = (chat: string, daysAgo: number, who: { phone: string; first: string } | null, fields: Partial<PastMessage>) => {
    seq += 1;
    messages.push({ id: `m${seq}`, chat, fromMe: who === null, from: who?.phone ?? null, pushName: who?.first ?? null, at: at(daysAgo), type: 'text', text: null, caption: null, location: null, reaction: null, quotedId: null, status: who === null ? 'read' : null, ...fields });
    return `m${seq}`;
  };
  add(a.phone, 40, a, { text: draw.pick(GREETINGS) });
  add(a.phone, 40, null, { text: 'Yes, 10am at the usual place' });
  const view = add(a.phone, 12, a, { type: 'image', caption: 'The view from here' });
  add(a.phone, 12, null, { type: 'reaction', reaction: { messageId: view, emoji: draw.pick(EMOJIS) } });
  const meet = add(a.phone, 3, a, { type: 'location', location: draw.pick(PLACES) });
  add(a.phone, 3, null, { text: 'On my way', quotedId: meet, status: 'delivered' });
  add(a.phone, 1, a, { text: 'Running 5 minutes late' });
  const welcome = add(b.phone, 70, null, { text: 'Welcome aboard!' });
  add(b.phone, 70, b, { text: 'Thanks, glad to be here' });
  add(b.phone, 69, b, { type: 'reaction', reaction: { messageId: welcome, emoji: '❤️' } });
  const report = add(b.phone, 20, b, { text: 'Can you send me the report?' });
  add(b.phone, 20, null, { text: 'Sent it by email', quotedId: report });
  add(c.phone, 5, c, { text: 'Call me when you can', pushName: null });
  add(c.phone, 5, null, { text: 'Will do after lunch', status: 'sent' });
  add(group, 50, a, { text: `Welcome to ${subject}!` });
  const photo = add(group, 25, stranger, { type: 'image', caption: 'Last weekend' });
  const great = add(group, 25, null, { text: 'Great picture!', quotedId: photo });
  add(group, 24, b, { type: 'reaction', reaction: { messageId: great, emoji: '😂' } });
  add(group, 2, stranger, { type: 'location', location: draw.pick(PLACES) });
  add(group, 1, a, { text: 'See you all tomorrow' });
  return {
    chats: [
      { id: a.phone, name: a.full, unreadCount: 1, archived: false, pinned: true },
      { id: b.phone, name: null, unreadCount: 0, archived: false, pinned: false },
      { id: c.phone, name: c.full, unreadCount: 0, archived: true, pinned: false },
      { id: group, name: subject, unreadCount: 2, archived: false, pinned: false },
    ],
    // b is known only by the name it gave itself; c never set one.
    contacts: [
      { phone: a.phone, name: a.full, pushName: a.first },
      { phone: b.phone, name: null, pushName: b.first },
      { phone: c.phone, name: c.full, pushName: null },
    ],
    messages,
  };
}
