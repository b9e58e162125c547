import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, isWellFormedApiKey, sameHash } from '../../src/domain/apikeys/api-key-format.js';

describe('API key format', () => {
  it('has the mode prefix, 32 random base62 characters and a 6-character checksum', () => {
    const live = generateApiKey(false);
    const test = generateApiKey(true);
    expect(live.key).toMatch(/^mgw_live_[0-9A-Za-z]{38}$/);
    expect(test.key).toMatch(/^mgw_test_[0-9A-Za-z]{38}$/);
    expect(live.keyPrefix).toBe(live.key.slice(0, 12));
    expect(live.keyHash).toBe(hashApiKey(live.key));
    expect(live.keyHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('makes a different key each time', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey(false).key));
    expect(keys.size).toBe(200);
  });

  it('accepts its own keys and rejects any single-character typo through the checksum', () => {
    const { key } = generateApiKey(false);
    expect(isWellFormedApiKey(key)).toBe(true);
    let rejected = 0;
    for (let i = 9; i < key.length; i++) {
      const replacement = key[i] === 'a' ? 'b' : 'a';
      if (!isWellFormedApiKey(key.slice(0, i) + replacement + key.slice(i + 1))) rejected++;
    }
    expect(rejected).toBe(key.length - 9);
  });

  it.each(['', 'mgw_live_', 'sk_live_abc', `mgw_prod_${'a'.repeat(38)}`, `mgw_live_${'a'.repeat(37)}!`, `mgw_live_${'a'.repeat(300)}`])(
    'rejects %j',
    (key) => {
      expect(isWellFormedApiKey(key)).toBe(false);
    },
  );

  it('compares hashes in constant time and only when equal', () => {
    const a = hashApiKey('a');
    expect(sameHash(a, hashApiKey('a'))).toBe(true);
    expect(sameHash(a, hashApiKey('b'))).toBe(false);
    expect(sameHash(a, 'abcd')).toBe(false);
  });
});
