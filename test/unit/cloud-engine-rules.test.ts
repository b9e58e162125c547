import { describe, expect, it } from 'vitest';
import { actionOf, failureOf } from '../../src/engines/cloud/api-errors.js';
import { createPace } from '../../src/engines/cloud/pace.js';
import { readWebhook } from '../../src/engines/cloud/webhook-payload.js';

const change = (phoneNumberId: string, value: object) => ({ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '1', phone_number_id: phoneNumberId }, ...value } });

describe('CHAT-CLOUD: what the API answers', () => {
  it.each([
    [400, { error: { code: 130429, message: '(#130429) Rate limit hit' } }, 'retry'],
    [400, { error: { code: 131056, message: 'pair' } }, 'retry'],
    [429, { error: { code: 4, message: 'app' } }, 'retry'],
    [503, undefined, 'retry'],
    [null, undefined, 'retry'],
    [401, { error: { code: 190, message: 'expired' } }, 'token'],
    [401, undefined, 'token'],
    [400, { error: { code: 131047, message: '(#131047) Re-engagement message' } }, 'fail'],
    [400, { error: { code: 100, message: 'Invalid parameter' } }, 'fail'],
    [400, { error: { code: 131026, message: 'undeliverable' } }, 'fail'],
  ] as const)('HTTP %s %j → %s', (status, body, action) => {
    const failure = status === null ? { status: null, code: null, message: 'refused' } : failureOf(status, body);
    expect(actionOf(failure)).toBe(action);
  });

  it('keeps the code apart and the title without its (#code) prefix', () => {
    expect(failureOf(400, { error: { code: 131047, message: '(#131047) Re-engagement message', error_data: { details: 'more than 24 hours' } } })).toEqual({
      status: 400,
      code: 131047,
      message: 'Re-engagement message',
    });
    expect(failureOf(502, '<html>')).toEqual({ status: 502, code: null, message: 'the API answered HTTP 502' });
  });
});

describe('CHAT-CLOUD: reading the network webhook', () => {
  it('reads every entry, change, message and status, by number', () => {
    const updates = readWebhook({
      object: 'whatsapp_business_account',
      entry: [
        { id: '1', changes: [change('111', { contacts: [{ wa_id: '4420', profile: { name: 'Ana' } }], messages: [{ from: '4420000001', id: 'w1', type: 'text', text: { body: 'a' } }, { from: '4420000001', id: 'w2', type: 'text', text: { body: 'b' } }] }), change('111', { statuses: [{ id: 's1', status: 'delivered' }, { id: 's1', status: 'played' }, { id: 's2', status: 'sent' }] })] },
        { id: '2', changes: [change('222', { statuses: [{ id: 's3', status: 'failed', errors: [{ code: 131049, title: 'Not delivered' }] }] }), { field: 'account_update', value: {} }] },
      ],
    });
    expect(updates).toHaveLength(2);
    expect(updates![0]!.inbound.map((m) => m.text)).toEqual(['a', 'b']);
    // `sent` is known from the send's answer; `played` counts as read.
    expect(updates![0]!.receipts).toEqual([
      { networkMessageId: 's1', status: 'delivered' },
      { networkMessageId: 's1', status: 'read' },
    ]);
    expect(updates![1]!.receipts).toEqual([{ networkMessageId: 's3', status: 'failed', error: { code: '131049', message: 'Not delivered' } }]);
  });

  it('refuses what is not the envelope and skips items it cannot read', () => {
    expect(readWebhook([])).toBeNull();
    expect(readWebhook({ entry: 'x' })).toBeNull();
    const [update] = readWebhook({ entry: [{ changes: [change('1', { messages: [{ from: 'not digits', id: 'x', type: 'text', text: { body: 'a' } }, { from: '4420000001', id: 'y', type: 'unsupported' }, null] })] }] })!;
    expect(update!.inbound).toEqual([]);
  });
});

describe('CHAT-CLOUD: contact cards from the webhook', () => {
  /** The vCard of one contacts message as the gateway writes it. */
  const vcardOf = (card: object) => readWebhook({ entry: [{ changes: [change('1', { messages: [{ from: '4420000001', id: 'c', type: 'contacts', contacts: [card] }] })] }] })![0]!.inbound[0]!.contacts![0]!.vcard;

  it('escapes every value and keeps parameters to plain words and digits: no field can add a line of its own', () => {
    const vcard = vcardOf({
      name: { formatted_name: 'Eve\r\nTEL:+999;evil,name\\' },
      phones: [{ phone: '+1 555\nEMAIL:x@evil.example', type: 'CELL\nEMAIL:spoof@evil.example', wa_id: '1;X-EVIL=1' }, { phone: '+44 20', type: 'WORK', wa_id: '4420' }],
      emails: [{ email: 'a@b.example\rNOTE:injected' }],
      org: { company: 'ACME;\nURL:https://evil.example' },
    });
    expect(vcard.split('\n')).toEqual([
      'BEGIN:VCARD',
      'VERSION:3.0',
      'FN:Eve\\nTEL:+999\\;evil\\,name\\\\',
      'TEL;type=CELL:+1 555\\nEMAIL:x@evil.example',
      'TEL;type=WORK;waid=4420:+44 20',
      'EMAIL:a@b.example\\nNOTE:injected',
      'ORG:ACME\\;\\nURL:https://evil.example',
      'END:VCARD',
    ]);
  });
});

describe('CHAT-CLOUD: pacing a number', () => {
  it('starts a send only a second after the answer to the one perSecond places before it', async () => {
    const pace = createPace(2);
    const started: number[] = [];
    for (let n = 0; n < 4; n++) {
      const answered = await pace.take('n');
      started.push(Date.now());
      answered();
    }
    expect(started[2]! - started[0]!).toBeGreaterThanOrEqual(1000);
    expect(started[3]! - started[1]!).toBeGreaterThanOrEqual(1000);
    expect(started[1]! - started[0]!).toBeLessThan(500);
  });
});
