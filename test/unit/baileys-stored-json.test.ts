import { randomBytes } from 'node:crypto';
import { BufferJSON, initAuthCreds } from 'baileys';
import { describe, expect, it } from 'vitest';
import { decodeStored, encodeStored } from '../../src/engines/baileys/stored-json.js';

/** What the library's own reviver makes of the text: what every read must give back. */
const byLibrary = (text: string): unknown => JSON.parse(text, BufferJSON.reviver);

const b64 = (n: number) => randomBytes(n).toString('base64');
const chain = () => ({ chainKey: { counter: 12, key: b64(32) }, chainType: 1, messageKeys: { '3': b64(32), '7': b64(32) } });
const VALUES: Record<string, unknown> = {
  'fresh creds (Buffers in nested objects)': initAuthCreds(),
  'a session record (base64 strings only)': {
    _sessions: {
      [b64(33)]: {
        registrationId: 12345,
        currentRatchet: { ephemeralKeyPair: { pubKey: b64(33), privKey: b64(32) }, lastRemoteEphemeralKey: b64(33), previousCounter: 3, rootKey: b64(32) },
        indexInfo: { baseKey: b64(33), baseKeyType: 1, closed: -1, used: 1795890000000, created: 1795890000000, remoteIdentityKey: b64(33) },
        _chains: { [b64(33)]: chain(), [b64(33)]: chain() },
      },
    },
    version: 'v1',
  },
  'a pre-key pair': { private: randomBytes(32), public: randomBytes(32) },
  'Buffers inside arrays, and arrays of arrays': { list: [randomBytes(4), 1, 'x', null, [randomBytes(2), { key: randomBytes(3) }]] },
  'an object of numbers under integer keys (a serialized Uint8Array)': { bytes: { 0: 1, 1: 2, 2: 255 }, mixed: { 0: 1, 1: 'two' } },
  'a Uint8Array and an already serialized Buffer': { array: new Uint8Array([1, 2, 3]), serialized: { type: 'Buffer', data: b64(8) } },
  'a string (a LID mapping)': '123456789@lid',
  'a number': 42,
  'an empty object and an empty array': { empty: {}, none: [] },
};

describe('the key store values as stored text', () => {
  it.each(Object.entries(VALUES))('reads %s back as the library’s reviver does', (_name, value) => {
    const text = encodeStored(value);
    expect(text).toBe(JSON.stringify(value, BufferJSON.replacer));
    const read = decodeStored(text);
    expect(read).toEqual(byLibrary(text));
    // Buffers come back as Buffers where the library's reviver makes them, and nowhere else.
    expect(encodeStored(read)).toBe(encodeStored(byLibrary(text)));
  });

  it('keeps a parsed __proto__ key as data, never as a prototype', () => {
    const text = '{"__proto__":{"type":"Buffer","data":"AQI="},"plain":{"__proto__":{"polluted":true}}}';
    const read = decodeStored<Record<string, unknown>>(text);
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(read, '__proto__')?.value).toEqual(Buffer.from([1, 2]));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(read.plain)).toBe(Object.prototype);
  });
});
