import { describe, expect, it } from 'vitest';
import { createAccountEvents } from '../../src/domain/network/account-events.js';
import type { CallReport } from '../../src/domain/network/engine.port.js';
import type { InstanceRecord, InstanceStore } from '../../src/domain/instances/instances.ports.js';

/** The account events over one instance with these settings: what they emitted and which replies they asked for. */
function withSettings(settings: unknown) {
  const instance = { id: 'i-1', tenantId: 't-1', settings } as unknown as InstanceRecord;
  const emitted: string[] = [];
  const replies: Array<{ to: string; text: string; callId: string }> = [];
  const events = createAccountEvents({
    instances: { findById: async () => instance } as unknown as InstanceStore,
    messages: { emit: async (_owner, list) => void emitted.push(...list.map((event) => `${event.event}:${(event.data as { status: string }).status}`)) },
    dispatcher: { kick: () => {} },
    replyToCall: async (_instance, to, text, callId) => void replies.push({ to, text, callId }),
  });
  return { events, emitted, replies };
}

const step = (status: CallReport['status'], rejectedByInstance?: boolean): CallReport => ({ id: 'C1', from: '5511988887777', video: false, status, at: new Date(), ...(rejectedByInstance ? { rejectedByInstance } : {}) });

describe("a call's rejection message (docs/settings.md, 'Calls')", () => {
  it('is sent once the instance itself rejected the call, with rejecting on and a message set', async () => {
    const { events, emitted, replies } = withSettings({ calls: { reject: true, message: 'Write to us instead.' } });
    await events.call('i-1', step('offer'));
    await events.call('i-1', step('reject', true));
    expect(emitted).toEqual(['call:offer', 'call:reject']);
    expect(replies).toEqual([{ to: '5511988887777', text: 'Write to us instead.', callId: 'C1' }]);
  });

  it.each([
    ['rejecting is off (a message set is kept, not used)', { calls: { reject: false, message: 'Write to us instead.' } }, step('reject', true)],
    ['no message is set', { calls: { reject: true, message: null } }, step('reject', true)],
    ['the phone declined it, not the instance', { calls: { reject: true, message: 'Write to us instead.' } }, step('reject')],
    ['the call was missed', { calls: { reject: true, message: 'Write to us instead.' } }, step('missed')],
    ['the instance has no settings at all', null, step('reject', true)],
  ])('is not sent when %s, and the step is still reported', async (_, settings, report) => {
    const { events, emitted, replies } = withSettings(settings);
    await events.call('i-1', report);
    expect(emitted).toEqual([`call:${report.status}`]);
    expect(replies).toEqual([]);
  });
});
