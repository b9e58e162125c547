import { describe, expect, it } from 'vitest';
import { backfillBatch, historyBatches } from '../../src/engines/sandbox/past-batches.js';
import { generatedPast, pastNetworkId } from '../../src/engines/sandbox/past.js';

// How a sandbox phone's past becomes history batches (docs/engines.md, "The sandbox's past"): the
// link's terms decide how far back, keys stay the same for the same past, and ids join replies to their targets.
const phone = '5511900001111';
const anchor = new Date('2026-11-29T00:00:00.000Z');
const now = new Date('2026-11-29T09:00:00.000Z');
const past = generatedPast(phone, anchor);
const DAY_MS = 86_400_000;

describe("a sandbox phone's history sync", () => {
  it('takes nothing for none, the last days for recent, everything for full; newest first, with progress', () => {
    expect(historyBatches(phone, past, { mode: 'none', days: 30 }, now)).toEqual([]);
    const recent = historyBatches(phone, past, { mode: 'recent', days: 30 }, now);
    const full = historyBatches(phone, past, { mode: 'full', days: 30 }, now);
    const ats = (batches: typeof full) => batches.flatMap((batch) => batch.messages.map((m) => m.at.getTime()));
    expect(ats(full)).toHaveLength(past.messages.length);
    expect(ats(recent).every((at) => at >= now.getTime() - 30 * DAY_MS)).toBe(true);
    expect(ats(recent).length).toBe(past.messages.filter((m) => Date.parse(m.at) >= now.getTime() - 30 * DAY_MS).length);
    expect(ats(full)).toEqual([...ats(full)].sort((x, y) => y - x));
    for (const batches of [recent, full]) {
      expect(batches.map((batch) => batch.done)).toEqual(batches.map((_, index) => index === batches.length - 1));
      expect(batches.at(-1)!.progress).toBe(100);
      expect(batches.map((batch) => batch.progress)).toEqual([...batches.map((batch) => batch.progress)].sort((x, y) => x! - y!));
    }
    // The same past under the same terms has the same keys; other terms, other keys.
    expect(historyBatches(phone, past, { mode: 'recent', days: 30 }, now).map((b) => b.key)).toEqual(recent.map((b) => b.key));
    expect(new Set([...recent, ...full].map((b) => b.key)).size).toBe(recent.length + full.length);
  });

  it('carries each message as the network would: its chat, the group and participant, replies and reactions by network id', () => {
    const messages = historyBatches(phone, past, { mode: 'full', days: 30 }, now).flatMap((batch) => batch.messages);
    const byId = new Map(past.messages.map((m) => [pastNetworkId(phone, m.id), m]));
    for (const sent of messages) {
      const original = byId.get(sent.message.networkMessageId!)!;
      expect(sent.chat).toBe(original.chat);
      expect(sent.fromMe).toBe(original.fromMe);
      if (sent.fromMe) expect(sent.message.from).toBeNull();
      if (original.chat.endsWith('@g.us')) expect(sent.message.group).toEqual({ id: original.chat, subject: past.chats.find((c) => c.id === original.chat)!.name });
      if (original.quotedId) expect(sent.message.quotedNetworkId).toBe(pastNetworkId(phone, original.quotedId));
      if (original.reaction) expect(sent.message.reaction).toEqual({ emoji: original.reaction.emoji, networkMessageId: pastNetworkId(phone, original.reaction.messageId) });
      if (original.type === 'image') expect(sent.message.media).toMatchObject({ type: 'image', mimetype: 'image/png', source: { past: 'picture' } });
    }
    expect(new Set(messages.map((m) => m.message.type))).toEqual(new Set(['text', 'image', 'location', 'reaction']));
  });

  it('answers a backfill with the chat\'s messages older than the oldest the gateway has, up to the count', () => {
    const chat = past.chats[0]!.id;
    const own = past.messages.filter((m) => m.chat === chat).sort((x, y) => Date.parse(y.at) - Date.parse(x.at));
    const oldestKept = own[2]!;
    const batch = backfillBatch(phone, past, chat, 2, { networkMessageId: pastNetworkId(phone, oldestKept.id), at: null });
    expect(batch.messages.map((m) => m.message.networkMessageId)).toEqual(own.slice(3, 5).map((m) => pastNetworkId(phone, m.id)));
    expect(batch.done).toBe(true);
    const none = backfillBatch(phone, past, chat, 5, { networkMessageId: null, at: new Date(Date.parse(own.at(-1)!.at)) });
    expect(none.messages).toEqual([]);
  });

  it('draws the same past for the same number, and another for another', () => {
    expect(generatedPast(phone, anchor)).toEqual(past);
    expect(generatedPast('5511900002222', anchor).contacts).not.toEqual(past.contacts);
  });
});
