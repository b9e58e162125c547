import { describe, expect, it } from 'vitest';
import { modeOf } from '../../src/domain/actor.js';
import { Invalid } from '../../src/domain/errors.js';
import { fingerprint, parseIdempotencyKey } from '../../src/domain/idempotency/idempotency.js';
import { listMessagesInput, sendMessageInput } from '../../src/domain/messages/messages.input.js';
import { outboundText } from '../../src/domain/messages/messages.service.js';
import { parseInput } from '../../src/domain/validation.js';
import { PRO_LIMITS } from '../support/actors.js';

const apiKey = (testMode: boolean) => ({ kind: 'apiKey' as const, tenantId: 't', plan: 'pro', limits: PRO_LIMITS, apiKeyId: 'k', testMode });

describe('message rules', () => {
  it.each([
    ['5511987654321', true],
    ['1234567', true],
    ['123456789012345', true],
    ['123456', false],
    ['1234567890123456', false],
    ['0123456789', false],
    ['+5511987654321', false],
    ['55 11 987654321', false],
    ['55-11-987654321', false],
    ['(55)11987654321', false],
    ['５５１１９８７６５４３２１', false],
  ])('to %j is valid: %s', (to, valid) => {
    expect(sendMessageInput.safeParse({ to, text: 'x' }).success).toBe(valid);
  });

  it('names the bad field in the error', () => {
    expect(() => parseInput(sendMessageInput, { to: '5511987654321', text: '' })).toThrow(Invalid);
    expect(() => parseInput(sendMessageInput, { to: '5511987654321', text: '' })).toThrow(/^text: /);
    expect(() => parseInput(sendMessageInput, { text: 'x' })).toThrow(/^to: /);
  });

  it('takes text of 1 to 4096 characters', () => {
    expect(sendMessageInput.safeParse({ to: '5511987654321', text: 'x'.repeat(4096) }).success).toBe(true);
    expect(sendMessageInput.safeParse({ to: '5511987654321', text: 'x'.repeat(4097) }).success).toBe(false);
  });

  it('sends test-key text with the [TEST] prefix and mode test; everything else as production', () => {
    expect(modeOf(apiKey(true))).toBe('test');
    expect(modeOf(apiKey(false))).toBe('production');
    expect(modeOf({ kind: 'user', tenantId: 't', plan: 'pro', limits: PRO_LIMITS, userId: 'u' })).toBe('production');
    expect(outboundText('Hi', 'test')).toBe('[TEST] Hi');
    expect(outboundText('Hi', 'production')).toBe('Hi');
  });

  it('pages from 1 with 1-100 per page', () => {
    expect(parseInput(listMessagesInput, {})).toEqual({ page: 1, limit: 10 });
    expect(parseInput(listMessagesInput, { page: '3', limit: '100' })).toEqual({ page: 3, limit: 100 });
    expect(parseInput(listMessagesInput, { page: 2, limit: 5 })).toEqual({ page: 2, limit: 5 });
    for (const bad of [{ page: '0' }, { limit: '101' }, { page: 'x' }, { page: ['1', '2'] }, { limit: 2.5 }]) {
      expect(() => parseInput(listMessagesInput, bad)).toThrow(Invalid);
    }
  });
});

describe('idempotency', () => {
  it('fingerprints the same body the same way whatever the key order', () => {
    expect(fingerprint({ to: '1', text: 'a' })).toBe(fingerprint({ text: 'a', to: '1' }));
    expect(fingerprint({ to: '1', text: 'a' })).not.toBe(fingerprint({ to: '1', text: 'b' }));
    expect(fingerprint({ a: [1, { b: 2, c: 3 }] })).toBe(fingerprint({ a: [1, { c: 3, b: 2 }] }));
  });

  it('accepts printable keys of up to 255 characters and nothing else', () => {
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
    expect(parseIdempotencyKey('order-42')).toBe('order-42');
    for (const bad of ['', 'has space', 'x'.repeat(256), 'naïve']) {
      expect(() => parseIdempotencyKey(bad)).toThrow(Invalid);
    }
  });
});
