import { describe, expect, it } from 'vitest';
import { backoffMs, closeOf } from '../../src/engines/baileys/close-policy.js';
import { fromUpdates, fromUpsert } from '../../src/engines/baileys/inbound.js';
import { userJidDigits } from '../../src/engines/baileys/message-refs.js';
import { networkMessageIdOf } from '../../src/engines/baileys/network-id.js';
import { PushNames } from '../../src/engines/baileys/session-events.js';
import { proto } from 'baileys';

describe('the connection policy of CHAT-BAILEYS', () => {
  it.each([
    [515, '', false, 'restart_required', 'restart'],
    [401, 'Connection Failure', false, 'logged_out', 'stop'],
    [403, 'Connection Failure', false, 'banned', 'stop'],
    [440, 'Stream Errored (conflict)', false, 'replaced', 'replaced'],
    [408, 'Connection was lost', false, 'connection_lost', 'reconnect'],
    [408, 'Timed Out', false, 'timed_out', 'reconnect'],
    [408, 'QR refs attempts ended', true, 'pairing_expired', 'stop'],
    [428, 'Connection Closed', false, 'connection_closed', 'reconnect'],
    [500, 'Stream Errored (unknown)', false, 'bad_session', 'reconnect'],
    [411, 'Multi-device beta not joined', false, 'bad_session', 'reconnect'],
    [503, 'Stream Errored (unknown)', false, 'unavailable', 'reconnect'],
    [undefined, 'socket hang up', false, 'connection_closed', 'reconnect'],
    [400, 'noise leaf certificate does not name the server static key', true, 'untrusted_network', 'reconnect'],
    [400, 'noise leaf certificate was not issued by its intermediate', false, 'untrusted_network', 'reconnect'],
    [400, 'noise intermediate certificate signature invalid', true, 'untrusted_network', 'reconnect'],
    [400, 'certification match failed', false, 'untrusted_network', 'reconnect'],
  ] as const)('maps %s "%s" (pairing: %s) to %s, then %s', (code, message, pairing, reason, action) => {
    expect(closeOf(code, message, pairing)).toEqual({ reason, action });
  });

  it('backs off from 1 s to 60 s, with jitter between half and all of each step, never shorter than half a second', () => {
    const lowest = Array.from({ length: 12 }, (_, attempt) => backoffMs(attempt, () => 0));
    const highest = Array.from({ length: 12 }, (_, attempt) => backoffMs(attempt, () => 1));
    expect(lowest).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, 30000, 30000, 30000]);
    expect(highest).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000, 60000, 60000, 60000]);
    expect(backoffMs(1000)).toBeLessThanOrEqual(60_000);
  });

  it('gives a message the same network id every time it is handed over, in the library\'s shape', () => {
    const id = networkMessageIdOf('0b1c4a2e-2b6f-4a39-9a4e-2a6b1d9e7c11');
    expect(id).toMatch(/^3EB0[0-9A-F]{18}$/);
    expect(networkMessageIdOf('0b1c4a2e-2b6f-4a39-9a4e-2a6b1d9e7c11')).toBe(id);
    expect(networkMessageIdOf('0b1c4a2e-2b6f-4a39-9a4e-2a6b1d9e7c12')).not.toBe(id);
  });
});

describe('what CHAT-BAILEYS takes from the library\'s events', () => {
  const chat = '5511988887777@s.whatsapp.net';
  it('reads text and location from contacts and groups (the participant is the sender), skips status and protocol messages, and takes receipts folded into its own sends', () => {
    const reports = fromUpsert([
      { key: { remoteJid: chat, fromMe: false, id: 'A1' }, message: { conversation: 'oi' }, pushName: 'Ana' },
      { key: { remoteJid: chat, fromMe: false, id: 'A2' }, message: { extendedTextMessage: { text: 'with a link https://x.example' } } },
      { key: { remoteJid: chat, fromMe: false, id: 'A3' }, message: { locationMessage: { degreesLatitude: -23.5, degreesLongitude: -46.6, name: 'Paulista', address: 'Av. Paulista' } } },
      { key: { remoteJid: '120363000000000001@g.us', fromMe: false, id: 'G1', participant: chat }, message: { conversation: 'in a group' } },
      { key: { remoteJid: 'status@broadcast', fromMe: false, id: 'S1' }, message: { conversation: 'a status' } },
      { key: { remoteJid: chat, fromMe: false, id: 'P1' }, message: { protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE } } },
      { key: { remoteJid: chat, fromMe: true, id: 'OWN' }, message: { conversation: 'mine' }, status: proto.WebMessageInfo.Status.READ },
      { key: { remoteJid: chat, fromMe: true, id: 'OWN2' }, message: { conversation: 'mine' }, status: proto.WebMessageInfo.Status.SERVER_ACK },
    ]);
    expect(reports.inbound).toEqual([
      { networkMessageId: 'A1', from: '5511988887777', pushName: 'Ana', fromLid: null, quotedNetworkId: null, type: 'text', text: 'oi', location: null },
      { networkMessageId: 'A2', from: '5511988887777', pushName: null, fromLid: null, quotedNetworkId: null, type: 'text', text: 'with a link https://x.example', location: null },
      { networkMessageId: 'A3', from: '5511988887777', pushName: null, fromLid: null, quotedNetworkId: null, type: 'location', text: null, location: { latitude: -23.5, longitude: -46.6, name: 'Paulista', address: 'Av. Paulista' } },
      {
        networkMessageId: 'G1',
        from: '5511988887777',
        pushName: null,
        fromLid: null,
        quotedNetworkId: null,
        type: 'text',
        text: 'in a group',
        location: null,
        group: { id: '120363000000000001@g.us', subject: null },
      },
    ]);
    expect(reports.receipts).toEqual([{ networkMessageId: 'OWN', status: 'read' }]);
  });

  it('turns delivery, read and played into receipts, a revoke into a delete by whoever revoked it', () => {
    const reports = fromUpdates(
      [
        { key: { remoteJid: chat, fromMe: true, id: 'M1' }, update: { status: proto.WebMessageInfo.Status.DELIVERY_ACK } },
        { key: { remoteJid: chat, fromMe: true, id: 'M2' }, update: { status: proto.WebMessageInfo.Status.PLAYED } },
        { key: { remoteJid: chat, fromMe: false, id: 'M3' }, update: { status: proto.WebMessageInfo.Status.READ } },
        { key: { remoteJid: chat, fromMe: false, id: 'M4' }, update: { message: null, messageStubType: proto.WebMessageInfo.StubType.REVOKE, key: { remoteJid: chat, fromMe: false, id: 'R1' } } },
        { key: { remoteJid: chat, fromMe: true, id: 'M5' }, update: { message: null, messageStubType: proto.WebMessageInfo.StubType.REVOKE, key: { remoteJid: chat, fromMe: true, id: 'R2' } } },
      ],
      '5511911112222',
    );
    expect(reports.receipts).toEqual([
      { networkMessageId: 'M1', status: 'delivered' },
      { networkMessageId: 'M2', status: 'read' },
    ]);
    expect(reports.deletes).toEqual([
      { networkMessageId: 'M4', deletedBy: '5511988887777', forEveryone: true },
      { networkMessageId: 'M5', deletedBy: '5511911112222', forEveryone: true },
    ]);
  });

  it('reads phone digits from phone jids only', () => {
    expect(userJidDigits('5511988887777:3@s.whatsapp.net')).toBe('5511988887777');
    expect(userJidDigits('123456789012345@lid')).toBeNull();
    expect(userJidDigits('120363000000000001@g.us')).toBeNull();
    expect(userJidDigits(undefined)).toBeNull();
  });
});

describe('the push names a node has reported', () => {
  it('reports a name once per instance and contact, and again after the instance is forgotten (deleted)', () => {
    const names = new PushNames();
    expect(names.changed('instance-a', '5511@s.whatsapp.net', 'Ana')).toBe(true);
    expect(names.changed('instance-a', '5511@s.whatsapp.net', 'Ana')).toBe(false);
    expect(names.changed('instance-b', '5511@s.whatsapp.net', 'Ana')).toBe(true);
    names.forget('instance-a');
    expect(names.changed('instance-a', '5511@s.whatsapp.net', 'Ana')).toBe(true);
    expect(names.changed('instance-b', '5511@s.whatsapp.net', 'Ana')).toBe(false);
  });
});

describe('edits and mentions CHAT-BAILEYS takes from the library', () => {
  const chat = '5511988887777@s.whatsapp.net';
  const EDIT = proto.Message.ProtocolMessage.Type.MESSAGE_EDIT;

  it('stores no edit as a message, in any of the shapes the network sends it; reads mentions as digits', () => {
    const reports = fromUpsert([
      { key: { remoteJid: chat, fromMe: false, id: 'E1' }, message: { protocolMessage: { type: EDIT, key: { id: 'A1' }, editedMessage: { conversation: 'new' } } } },
      { key: { remoteJid: chat, fromMe: false, id: 'E2' }, message: { editedMessage: { message: { protocolMessage: { type: EDIT, key: { id: 'A1' }, editedMessage: { conversation: 'new' } } } } } },
      { key: { remoteJid: chat, fromMe: false, id: 'E3' }, message: { editedMessage: { message: { conversation: 'new' } } } },
      {
        key: { remoteJid: chat, fromMe: false, id: 'A2' },
        message: { extendedTextMessage: { text: 'hi @5511911112222', contextInfo: { mentionedJid: ['5511911112222@s.whatsapp.net', '99887766@lid'] } } },
      },
    ]);
    expect(reports.inbound).toEqual([
      { networkMessageId: 'A2', from: '5511988887777', pushName: null, fromLid: null, quotedNetworkId: null, type: 'text', text: 'hi @5511911112222', location: null, mentions: ['5511911112222'] },
    ]);
  });

  it('reports edits with who made them, and drops the echo of the instance’s own edits and deletes', () => {
    const own = new Set(['edit:M1', 'revoke:M3']);
    const echo = (change: 'edit' | 'revoke', id: string) => own.delete(`${change}:${id}`);
    const edited = (text: string) => ({ editedMessage: { message: { conversation: text } } });
    const reports = fromUpdates(
      [
        { key: { remoteJid: chat, fromMe: true, id: 'M1' }, update: { message: edited('ours, echoed'), messageTimestamp: 1_790_000_000 } },
        { key: { remoteJid: chat, fromMe: true, id: 'M2' }, update: { message: edited('ours, from the phone'), messageTimestamp: 1_790_000_001 } },
        { key: { remoteJid: chat, fromMe: false, id: 'M4' }, update: { message: { editedMessage: { message: { imageMessage: { caption: 'their caption' } } } }, messageTimestamp: 1_790_000_002 } },
        { key: { remoteJid: chat, fromMe: true, id: 'M3' }, update: { message: null, messageStubType: proto.WebMessageInfo.StubType.REVOKE, key: { remoteJid: chat, fromMe: true, id: 'R3' } } },
      ],
      '5511911112222',
      echo,
    );
    expect(reports.edits).toEqual([
      { networkMessageId: 'M2', text: 'ours, from the phone', at: new Date(1_790_000_001_000), byInstance: true },
      { networkMessageId: 'M4', text: 'their caption', at: new Date(1_790_000_002_000), byInstance: false },
    ]);
    expect(reports.deletes).toEqual([]);
    expect(own.size).toBe(0);
  });
});
