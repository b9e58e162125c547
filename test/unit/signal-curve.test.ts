import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

// The patched signal library's keys, secrets and signatures must be the ones it made before: checked against
// its own pure-JS curve, which shares no code with node's or noble's (scripts/patches/libsignal+6.0.0.patch;
// why the patch: docs/architecture.md, "Dependencies and why", patch-package).
const require = createRequire(import.meta.url);
const curve = require('libsignal/src/curve.js') as {
  generateKeyPair(): { pubKey: Buffer; privKey: Buffer };
  calculateAgreement(pubKey: Buffer, privKey: Buffer): Buffer;
  calculateSignature(privKey: Buffer, message: Buffer): Buffer;
  verifySignature(pubKey: Buffer, message: Buffer, signature: Buffer, isInit?: boolean): boolean;
};
const pureJs = require(require.resolve('curve25519-js', { paths: [require.resolve('libsignal')] })) as {
  generateKeyPair(seed: Uint8Array): { private: Uint8Array; public: Uint8Array };
  sharedKey(privateKey: Uint8Array, publicKey: Uint8Array): Uint8Array;
  sign(privateKey: Uint8Array, message: Uint8Array): Uint8Array;
  verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean;
};

const PAIRS = 40;
const pairs = Array.from({ length: PAIRS }, () => curve.generateKeyPair());
const raw = (pubKey: Buffer) => pubKey.subarray(1);

describe('the signal library’s X25519, as patched', () => {
  it('generates clamped private keys whose public keys are the curve’s', () => {
    for (const { pubKey, privKey } of pairs) {
      expect(pubKey).toHaveLength(33);
      expect(pubKey[0]).toBe(5);
      expect(privKey).toHaveLength(32);
      expect(privKey[0]! & 7).toBe(0);
      expect(privKey[31]! & 0xc0).toBe(0x40);
      expect(Buffer.from(pureJs.generateKeyPair(privKey).public)).toEqual(raw(pubKey));
    }
    expect(new Set(pairs.map(({ privKey }) => privKey.toString('hex'))).size).toBe(PAIRS);
  });

  it('agrees on the secret the curve defines, from either side', () => {
    for (let n = 0; n + 1 < PAIRS; n += 2) {
      const [a, b] = [pairs[n]!, pairs[n + 1]!];
      const secret = curve.calculateAgreement(b.pubKey, a.privKey);
      expect(secret).toHaveLength(32);
      expect(curve.calculateAgreement(a.pubKey, b.privKey)).toEqual(secret);
      expect(Buffer.from(pureJs.sharedKey(a.privKey, raw(b.pubKey)))).toEqual(secret);
    }
  });

  it('works with keys node generated itself (the library before the patch stored those)', () => {
    const der = generateKeyPairSync('x25519', { publicKeyEncoding: { format: 'der', type: 'spki' }, privateKeyEncoding: { format: 'der', type: 'pkcs8' } });
    const privKey = der.privateKey.subarray(16);
    const pubKey = Buffer.concat([Buffer.from([5]), der.publicKey.subarray(12)]);
    const other = pairs[0]!;
    expect(curve.calculateAgreement(pubKey, other.privKey)).toEqual(curve.calculateAgreement(other.pubKey, privKey));
    expect(Buffer.from(pureJs.sharedKey(privKey, raw(other.pubKey)))).toEqual(curve.calculateAgreement(pubKey, other.privKey));
  });

  it('refuses a public key of small order, as before', () => {
    // The all-zero point gives an all-zero secret, which X25519 implementations reject.
    expect(() => curve.calculateAgreement(Buffer.concat([Buffer.from([5]), Buffer.alloc(32)]), pairs[0]!.privKey)).toThrow();
  });

  it('signs byte for byte as the pure-JS curve does, and each side verifies the other’s signatures', () => {
    for (const [n, { pubKey, privKey }] of pairs.entries()) {
      const message = randomBytes(1 + n * 7);
      const signature = curve.calculateSignature(privKey, message);
      expect(signature).toHaveLength(64);
      expect(signature).toEqual(Buffer.from(pureJs.sign(privKey, message)));
      expect(pureJs.verify(raw(pubKey), message, signature)).toBe(true);
      expect(curve.verifySignature(pubKey, message, signature)).toBe(true);
    }
  });

  it('refuses a signature with any bit changed, or under another key or message', () => {
    const message = Buffer.from('signed pre-key');
    const { pubKey, privKey } = pairs[1]!;
    const signature = curve.calculateSignature(privKey, message);
    for (let bit = 0; bit < 512; bit += 5) {
      const changed = Buffer.from(signature);
      changed[bit >> 3]! ^= 1 << (bit & 7);
      expect(curve.verifySignature(pubKey, message, changed), `bit ${bit}`).toBe(false);
    }
    expect(curve.verifySignature(pairs[2]!.pubKey, message, signature)).toBe(false);
    expect(curve.verifySignature(pubKey, Buffer.from('signed pre-kez'), signature)).toBe(false);
  });

  it('refuses a signature whose scalar is not reduced (S + L), which the pure-JS curve accepted', () => {
    const message = Buffer.from('group message');
    const { pubKey, privKey } = pairs[3]!;
    const signature = curve.calculateSignature(privKey, message);
    const L = 2n ** 252n + 27742317777372353535851937790883648493n;
    const sign = signature[63]! & 128;
    const s = BigInt(`0x${Buffer.from(signature.subarray(32)).reverse().toString('hex')}`) & ((1n << 255n) - 1n);
    const unreduced = Buffer.from((s + L).toString(16).padStart(64, '0'), 'hex').reverse();
    const malleated = Buffer.concat([signature.subarray(0, 32), unreduced]);
    malleated[63]! |= sign;
    expect(pureJs.verify(raw(pubKey), message, malleated)).toBe(true);
    expect(curve.verifySignature(pubKey, message, malleated)).toBe(false);
  });

  it('finds the curve arithmetic its signatures use from the library\'s own folder (else it would fall back to the slow curve unseen)', () => {
    const from = { paths: [dirname(require.resolve('libsignal/src/curve.js'))] };
    const { ed25519 } = require(require.resolve('@noble/curves/ed25519', from)) as { ed25519: { Point: { BASE: { multiply(n: bigint): { toRawBytes(): Uint8Array } } } } };
    require(require.resolve('@noble/curves/abstract/utils', from));
    // The base point times 1 is the base point: its encoding is y = 4/5 with x even.
    expect(Buffer.from(ed25519.Point.BASE.multiply(1n).toRawBytes()).toString('hex')).toBe('5866666666666666666666666666666666666666666666666666666666666666');
  });

  it('answers true without checking only where the library asks it to (isInit), as before', () => {
    expect(curve.verifySignature(pairs[0]!.pubKey, Buffer.from('x'), Buffer.alloc(64), true)).toBe(true);
    expect(curve.verifySignature(pairs[0]!.pubKey, Buffer.from('x'), Buffer.alloc(64))).toBe(false);
  });
});
