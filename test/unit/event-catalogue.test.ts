import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGUE, EVENT_NAMES, HISTORY_EVENTS, SESSION_EVENTS, TEST_EVENT, V1_EVENTS, eventsOf } from '../../src/domain/events/catalogue.js';
import { testPayload } from '../../src/domain/events/envelopes.js';
import { callEvent, connectionEvent, qrEvent, restrictedEvent } from '../../src/domain/events/instance-payloads.js';
import { deleteEvent, editEvent, pollVoteEvent, statusEvent, upsertEvent } from '../../src/domain/events/message-payloads.js';
import { contactsUpdateEvent, groupsUpsertEvent, groupUpdateEvent, presenceUpdateEvent } from '../../src/domain/events/network-payloads.js';
import type { MessageRecord } from '../../src/domain/messages/messages.ports.js';
import type { ChatRecord } from '../../src/domain/conversations/conversations.ports.js';
import { chatDeleteEvent, chatUpdateEvent, chatUpsertEvent, contactsUpsertEvent, historySyncEvent } from '../../src/domain/events/conversation-payloads.js';
import { storesEvent } from '../../src/infra/db/outbox-statement.js';
import { HISTORY_EVENTS_SQL } from '../../src/infra/db/retention.js';

const at = new Date('2026-01-02T03:04:05.000Z');
const message = {
  id: 'm1', direction: 'out', from: '5511999990001', to: '5511999990002', type: 'text', text: 'hi', caption: null, status: 'sent',
  createdAt: at, updatedAt: at, sentAt: at, deliveredAt: null, readAt: null, failedAt: null, editedAt: at, deletedAt: null,
  poll: { name: 'Lunch?', selectableCount: 1, options: [] },
} as unknown as MessageRecord;

const chat: ChatRecord = {
  instanceId: 'i1', tenantId: 't1', id: '5511999990002', kind: 'direct', name: 'Ana', lastMessage: message, unreadCount: 1,
  archived: false, pinned: false, mutedUntil: null, activityAt: at, createdAt: at, updatedAt: at,
};

/** One event of each builder: together they must name the catalogue's events, and no other. */
const built = [
  upsertEvent(message),
  statusEvent(message),
  editEvent(message),
  pollVoteEvent(message),
  deleteEvent(message, '5511999990001', true),
  connectionEvent({ variant: 'v1', phone: '+5511999990001' }, 'connected'),
  qrEvent('data:image/png;base64,', at, 'a1'),
  groupsUpsertEvent([]),
  groupUpdateEvent({ id: '1@g.us', author: null }),
  contactsUpdateEvent([]),
  presenceUpdateEvent({ phone: '5511999990002', presence: 'available', lastSeen: null }),
  chatUpsertEvent(chat),
  chatUpdateEvent(chat),
  chatDeleteEvent('i1', '5511999990002'),
  contactsUpsertEvent([]),
  historySyncEvent({ batches: 1, messages: 2, chats: 1, progress: 100, done: true }),
  callEvent({ id: 'c1', from: '5511999990002', video: false, status: 'offer', at: at.toISOString() }),
  restrictedEvent('reach_out_timelock', at),
];

describe('the event catalogue', () => {
  it('has a payload builder for every event it names, and no builder of an event it does not', () => {
    expect(new Set(built.map((e) => e.event))).toEqual(new Set(EVENT_NAMES));
    expect(JSON.parse(testPayload('i1', at))).toEqual({ event: TEST_EVENT, instanceId: 'i1', timestamp: at.toISOString(), data: {} });
  });

  it('lists each variant its events in the order of its default subscription', () => {
    // The account's events are taken by name only, in both variants (docs/settings.md, "Events").
    expect(V1_EVENTS).toEqual(['messages.upsert', 'messages.update', 'messages.delete', 'connection.update', 'qr.update', 'call', 'instance.restricted']);
    expect(eventsOf('v1')).toEqual(V1_EVENTS.slice(0, 5));
    const sessionDefaults = ['messages.upsert', 'messages.update', 'messages.delete', 'connection.update', 'groups.update', 'groups.upsert', 'contacts.update', 'presence.update'];
    // The conversation events are taken by name only (docs/conversations.md, "Events").
    expect(SESSION_EVENTS).toEqual([...sessionDefaults, 'chats.upsert', 'chats.update', 'chats.delete', 'contacts.upsert', 'history.sync', 'call', 'instance.restricted']);
    expect(eventsOf('session')).toEqual(sessionDefaults);
  });

  it('is where the SQL and the outbox read the connection-history set from', () => {
    expect(HISTORY_EVENTS).toEqual(['connection.update', 'qr.update', 'instance.restricted']);
    expect([...HISTORY_EVENTS_SQL.matchAll(/'([^']+)'/g)].map((m) => m[1])).toEqual([...HISTORY_EVENTS]);
    for (const name of EVENT_NAMES) expect(storesEvent(name, null)).toBe(CATALOGUE[name].history);
  });

  it('is the only place event payloads are written, and the names compared elsewhere are its own', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []));
    const outside = files('src').filter((file) => !file.startsWith(join('src', 'domain', 'events')) && !file.includes('generated'));
    const known = new Set<string>([...EVENT_NAMES, TEST_EVENT]);
    const literals: string[] = [];
    const unknown: string[] = [];
    for (const file of outside) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\bevent:\s*'([a-z]+\.[a-z]+)'\s*[,}]/g)) literals.push(`${file}: ${m[1]}`);
      for (const m of text.matchAll(/\bevent\s*[!=]==?\s*'([^']+)'/g)) if (!known.has(m[1]!)) unknown.push(`${file}: ${m[1]}`);
    }
    expect(literals).toEqual([]);
    expect(unknown).toEqual([]);
  });
});
