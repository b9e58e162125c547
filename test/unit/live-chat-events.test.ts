import { describe, expect, it } from 'vitest';
import { liveEventsOf } from '../../src/domain/network/live-events.js';

/** Which committed events tell chatUpdated subscribers to read a chat again (docs/graphql.md "Conversations"). */
describe('the chat events of the live feed', () => {
  const at = new Date('2026-11-29T10:00:00.000Z');
  const of = (event: string, data: Record<string, unknown>, instanceId: string | null = 'i1') =>
    liveEventsOf({ tenantId: 't1', instanceId, event, data, createdAt: at }).filter((e) => e.kind === 'chat');

  it("names the chat of a chat's own event, and tells a deletion", () => {
    expect(of('chats.update', { id: '5511988887777' })).toEqual([{ kind: 'chat', tenantId: 't1', instanceId: 'i1', chatId: '5511988887777', messageId: null, deleted: false }]);
    expect(of('chats.upsert', { id: '120363012345678901@g.us' })[0]).toMatchObject({ chatId: '120363012345678901@g.us', deleted: false });
    expect(of('chats.delete', { id: '5511988887777', instanceId: 'i1' })[0]).toMatchObject({ chatId: '5511988887777', deleted: true });
  });

  it('names the message of every message event, whose chat the subscriber reads', () => {
    for (const event of ['messages.upsert', 'messages.update', 'messages.delete']) {
      expect(of(event, { messageId: 'm1', status: 'read' })).toEqual([{ kind: 'chat', tenantId: 't1', instanceId: 'i1', chatId: null, messageId: 'm1', deleted: false }]);
    }
  });

  it("names a contact's chat only if it exists, and not for a whole address book", () => {
    expect(of('contacts.update', { contacts: [{ phone: '+5511988887777', pushName: 'Ana' }, { phone: null, lid: '123@lid' }] })).toEqual([
      { kind: 'chat', tenantId: 't1', instanceId: 'i1', chatId: '5511988887777', messageId: null, deleted: false, ifExists: true },
    ]);
    const book = Array.from({ length: 101 }, (_, n) => ({ phone: `55119000${String(n).padStart(5, '0')}` }));
    expect(of('contacts.upsert', { contacts: book })).toEqual([]);
  });

  it('names nothing for events of no instance or of no chat', () => {
    expect(of('chats.update', { id: '5511988887777' }, null)).toEqual([]);
    expect(of('connection.update', { status: 'connected' })).toEqual([]);
    expect(of('history.sync', { batches: 1 })).toEqual([]);
  });
});
