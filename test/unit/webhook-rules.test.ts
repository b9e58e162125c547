import { lookup } from 'node:dns/promises';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { isForbiddenAddress } from '../../src/domain/webhooks/address-policy.js';
import { webhookPayload } from '../../src/domain/events/envelopes.js';
import { isDelivered, nextAttemptAfterFailure } from '../../src/domain/webhooks/retry-policy.js';
import { hubSignature, signedHeaders } from '../../src/domain/webhooks/signature.js';
import { createUrlPolicy } from '../../src/domain/webhooks/url-policy.js';
import { Invalid } from '../../src/domain/errors.js';

describe('signatures', () => {
  it('matches GitHub\'s published X-Hub-Signature-256 test vector', () => {
    expect(hubSignature("It's a Secret to Everybody", 'Hello, World!')).toBe(
      'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
    );
  });

  it('signs the Standard Webhooks way (the reference library verifies it)', () => {
    const secret = `whsec_${Buffer.from('a secret of 24 bytes!!!!').toString('base64')}`;
    const body = '{"event":"x"}';
    const secrets = { webhookSecret: secret, previousWebhookSecret: null, webhookSecretRotatedAt: null };
    const headers = signedHeaders(secrets, 'msg_1', 'x', body, new Date());
    expect(() => new Webhook(secret.slice(6)).verify(body, headers)).not.toThrow();
    const stale = signedHeaders(secrets, 'msg_1', 'x', body, new Date(Date.now() - 3600_000));
    expect(() => new Webhook(secret.slice(6)).verify(body, stale)).toThrow(); // replay window
  });

  it('signs with both secrets for 24 hours after a rotation (X-Hub-Signature-256 with the old one), then with the new one only', () => {
    const oldSecret = `whsec_${Buffer.from('the old secret, 24 bytes').toString('base64')}`;
    const newSecret = `whsec_${Buffer.from('the new secret, 24 bytes').toString('base64')}`;
    const body = '{"event":"y"}';
    const now = new Date();
    const rotated = (hoursAgo: number) => ({
      webhookSecret: newSecret,
      previousWebhookSecret: oldSecret,
      webhookSecretRotatedAt: new Date(now.getTime() - hoursAgo * 3600_000),
    });
    const within = signedHeaders(rotated(23), 'msg_2', 'y', body, now);
    expect(within['webhook-signature']!.split(' ')).toHaveLength(2);
    // One HMAC fits X-Hub-Signature-256: the old secret's, so a receiver that has not switched loses nothing.
    expect(within['x-hub-signature-256']).toBe(hubSignature(oldSecret, body));
    // A receiver still on the old secret and one already on the new both verify the same delivery.
    expect(() => new Webhook(oldSecret.slice(6)).verify(body, within)).not.toThrow();
    expect(() => new Webhook(newSecret.slice(6)).verify(body, within)).not.toThrow();

    const after = signedHeaders(rotated(25), 'msg_2', 'y', body, now);
    expect(after['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(after['x-hub-signature-256']).toBe(hubSignature(newSecret, body));
    expect(() => new Webhook(newSecret.slice(6)).verify(body, after)).not.toThrow();
    expect(() => new Webhook(oldSecret.slice(6)).verify(body, after)).toThrow();
  });
});

describe('address policy', () => {
  it.each([
    '127.0.0.1', '127.8.9.10', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '100.100.100.200',
    '0.0.0.0', '224.0.0.1', '255.255.255.255', '192.0.2.1', '198.18.0.1', '::1', '::', 'fe80::1', 'fc00::1', 'fd00:ec2::254',
    'ff02::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '64:ff9b::7f00:1', '2002:7f00:1::', 'not an ip',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows the public address %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });
});

describe('outbound URL policy', () => {
  const resolver = (answers: Record<string, string[]>) => ({
    resolve: async (host: string) => {
      if (!answers[host]) throw new Error('ENOTFOUND');
      return answers[host]!;
    },
  });
  const strict = createUrlPolicy(resolver({ 'hooks.example.com': ['93.184.216.34'], 'sneaky.example.com': ['93.184.216.34', '10.0.0.7'], 'metadata.example.com': ['169.254.169.254'] }), false);

  it('accepts https to a public host', async () => {
    expect(await strict.check('https://hooks.example.com/in', 'url')).toBe('https://hooks.example.com/in');
  });

  it.each([
    ['http://hooks.example.com/in', /https/],
    ['https://user:pw@hooks.example.com/', /credentials/],
    ['https://127.0.0.1/', /public address/],
    ['https://[::1]/', /public address/],
    ['https://[::ffff:127.0.0.1]/', /public address/],
    ['https://169.254.169.254/latest/meta-data', /public address/],
    ['https://metadata.example.com/', /public address/],
    ['https://sneaky.example.com/', /public address/],
    ['https://nowhere.example.com/', /does not resolve/],
    ['not a url', /absolute URL/],
  ])('refuses %s', async (url, reason) => {
    await expect(strict.check(url, 'url')).rejects.toThrow(Invalid);
    await expect(strict.check(url, 'url')).rejects.toThrow(reason);
  });

  it('lets everything http(s) through when insecure URLs are allowed', async () => {
    const open = createUrlPolicy(resolver({}), true);
    expect(await open.check('http://127.0.0.1:8080/x', 'url')).toBe('http://127.0.0.1:8080/x');
  });

  it('resolves real names with the system resolver (localhost is loopback)', async () => {
    const addresses = (await lookup('localhost', { all: true })).map((a) => a.address);
    expect(addresses.every(isForbiddenAddress)).toBe(true);
  });
});

describe('retry policy', () => {
  const delays = [0, 60, 300, 1800];
  const now = new Date('2026-01-01T00:00:00Z');
  it('waits 1, 5, then 30 minutes after failures, then gives up', () => {
    expect(nextAttemptAfterFailure(1, delays, now)?.toISOString()).toBe('2026-01-01T00:01:00.000Z');
    expect(nextAttemptAfterFailure(2, delays, now)?.toISOString()).toBe('2026-01-01T00:05:00.000Z');
    expect(nextAttemptAfterFailure(3, delays, now)?.toISOString()).toBe('2026-01-01T00:30:00.000Z');
    expect(nextAttemptAfterFailure(4, delays, now)).toBeNull();
  });
  it('counts only 2xx as delivered', () => {
    expect([200, 204, 299].every(isDelivered)).toBe(true);
    expect([100, 301, 302, 400, 500, undefined].some(isDelivered)).toBe(false);
  });
});

describe('envelopes', () => {
  const at = new Date('2026-05-01T12:00:00.000Z');
  const upsert = { messageId: 'm1', from: '5511911111111', to: '5511922222222', fromMe: false, type: 'text', text: 'Oi', timestamp: at.toISOString(), pushName: 'Ana' };
  it('v1 wraps data as {event, instanceId, timestamp, data}, with only the spec 6.2 fields of messages.upsert', () => {
    const { pushName: _sessionOnly, ...v1Fields } = upsert as Record<string, unknown>;
    expect(JSON.parse(webhookPayload({ id: 'i1', name: 'n', variant: 'v1' }, 'messages.upsert', { ...upsert, mediaUrl: 'https://m.example.com/a.png' }, at, 'sandbox.chat'))).toEqual({
      event: 'messages.upsert', instanceId: 'i1', timestamp: '2026-05-01T12:00:00.000Z', data: v1Fields,
    });
  });
  it('session shapes message events as key/message/messageType/pushName', () => {
    expect(JSON.parse(webhookPayload({ id: 'i1', name: 'Support', variant: 'session' }, 'messages.upsert', { ...upsert, fromMe: true }, at, 'sandbox.chat'))).toEqual({
      event: 'messages.upsert',
      instance: { instanceName: 'Support', instanceId: 'i1' },
      data: { key: { remoteJid: '5511922222222@sandbox.chat', fromMe: true, id: 'm1' }, message: { conversation: 'Oi', messageTimestamp: '1777636800' }, messageType: 'conversation', pushName: 'Ana' },
    });
  });
});
