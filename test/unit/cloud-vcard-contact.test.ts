import { describe, expect, it } from 'vitest';
import { contactOfVcard } from '../../src/engines/cloud/vcard-contact.js';
import { readWebhook } from '../../src/engines/cloud/webhook-payload.js';

/** A contacts item as the API sends it, through the webhook reader: the vCard the gateway stores for it. */
function storedVcard(card: object): { displayName: string; vcard: string } {
  const body = {
    entry: [{ changes: [{ field: 'messages', value: { metadata: { phone_number_id: '1' }, messages: [{ from: '15550001111', id: 'wamid.A', type: 'contacts', contacts: [card] }] } }] }],
  };
  return readWebhook(body)![0]!.inbound[0]!.contacts![0]!;
}

describe('CHAT-CLOUD: a vCard as the API contact object', () => {
  it('reads back what a received card was written as, escapes and all', () => {
    const card = {
      name: { formatted_name: 'Smith, Bob; Jr.\\ \nthe second' },
      phones: [{ phone: '+1 555 0100', type: 'WORK', wa_id: '15550100' }, { phone: '+44 20;7946' }],
      emails: [{ email: 'bob@example.com' }],
      org: { company: 'Acme, Inc.' },
    };
    expect(contactOfVcard(storedVcard(card))).toEqual({
      name: { formatted_name: 'Smith, Bob; Jr.\\ \nthe second' },
      phones: [{ phone: '+1 555 0100', type: 'WORK', wa_id: '15550100' }, { phone: '+44 20;7946', type: 'CELL' }],
      emails: [{ email: 'bob@example.com' }],
      org: { company: 'Acme, Inc.' },
    });
  });

  it('takes vCard 2.1 bare types, grouped properties, quoted parameters and tel: URIs', () => {
    const vcard = [
      'BEGIN:VCARD',
      'VERSION:2.1',
      'item1.TEL;CELL:+351 912 345 678',
      'TEL;VALUE=uri;TYPE="home,voice":tel:+1-555-555-0000',
      'item2.EMAIL;INTERNET:a@example.com',
      'END:VCARD',
    ].join('\n');
    expect(contactOfVcard({ displayName: 'Ana', vcard })).toEqual({
      name: { formatted_name: 'Ana' },
      phones: [{ phone: '+351 912 345 678', type: 'CELL' }, { phone: '+1-555-555-0000', type: 'HOME' }],
      emails: [{ email: 'a@example.com' }],
    });
  });

  it('leaves out what the API has no field for, and a waid or birthday it would refuse', () => {
    const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:X\nNOTE:hello\nPHOTO;ENCODING=b:AAAA\nTEL;waid=abc:+1 2\nBDAY:--0102\nEND:VCARD';
    expect(contactOfVcard({ displayName: 'ignored', vcard })).toEqual({ name: { formatted_name: 'X' }, phones: [{ phone: '+1 2' }] });
  });
});
