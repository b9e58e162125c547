import type { WACallEvent } from 'baileys';
import { describe, expect, it } from 'vitest';
import { CallSteps } from '../../src/engines/baileys/calls.js';
import { fromUpsert } from '../../src/engines/baileys/inbound.js';
import { isIgnored } from '../../src/domain/network/ignored-chats.js';

const call = (id: string, status: WACallEvent['status']): WACallEvent => ({ id, status, chatId: '5511988887777@s.whatsapp.net', from: '5511988887777@s.whatsapp.net', date: new Date(), offline: false });

describe("the steps of a call CHAT-BAILEYS reports (docs/settings.md, 'Calls')", () => {
  it('reports offer, accept, reject and timeout as they are; a hang-up before anyone answered is missed, after an answer nothing', () => {
    const steps = new CallSteps();
    expect(['offer', 'ringing', 'terminate'].map((status) => steps.statusOf(call('A', status as WACallEvent['status'])))).toEqual(['offer', null, 'missed']);
    expect(['offer', 'accept', 'terminate'].map((status) => steps.statusOf(call('B', status as WACallEvent['status'])))).toEqual(['offer', 'accept', null]);
    expect(['offer', 'timeout'].map((status) => steps.statusOf(call('C', status as WACallEvent['status'])))).toEqual(['offer', 'timeout']);
    expect(['preaccept', 'transport', 'relaylatency'].map((status) => steps.statusOf(call('D', status as WACallEvent['status'])))).toEqual([null, null, null]);
    // Rejected by the instance itself: the network's terminate that follows is no missed call.
    steps.remember('E');
    expect(steps.statusOf(call('E', 'terminate'))).toBeNull();
  });
});

describe('status updates and broadcast lists CHAT-BAILEYS receives', () => {
  it('are reported from their participant and marked by kind, so the settings may ignore them', () => {
    const sender = '5511988887777@s.whatsapp.net';
    const { inbound } = fromUpsert([
      { key: { remoteJid: 'status@broadcast', fromMe: false, id: 'S1', participant: sender }, message: { conversation: 'a status' } },
      { key: { remoteJid: '1700000000@broadcast', fromMe: false, id: 'B1', participant: sender }, message: { conversation: 'to my list' } },
      { key: { remoteJid: sender, fromMe: false, id: 'D1' }, message: { conversation: 'direct' } },
    ]);
    expect(inbound.map(({ networkMessageId, from, chatKind }) => ({ networkMessageId, from, chatKind }))).toEqual([
      { networkMessageId: 'S1', from: '5511988887777', chatKind: 'status' },
      { networkMessageId: 'B1', from: '5511988887777', chatKind: 'broadcast' },
      { networkMessageId: 'D1', from: '5511988887777', chatKind: undefined },
    ]);
  });

  it('are dropped by the ignore setting of their kind only', () => {
    const none = { groups: false, broadcasts: false, status: false };
    const group = { group: { id: '120363000000000001@g.us', subject: null } };
    expect(isIgnored(none, group)).toBe(false);
    expect(isIgnored({ ...none, groups: true }, group)).toBe(true);
    expect(isIgnored({ ...none, groups: true }, { chatKind: 'status' })).toBe(false);
    expect(isIgnored({ ...none, status: true }, { chatKind: 'status' })).toBe(true);
    expect(isIgnored({ ...none, status: true }, { chatKind: 'broadcast' })).toBe(false);
    expect(isIgnored({ ...none, broadcasts: true }, { chatKind: 'broadcast' })).toBe(true);
    expect(isIgnored({ groups: true, broadcasts: true, status: true }, {})).toBe(false);
  });
});
