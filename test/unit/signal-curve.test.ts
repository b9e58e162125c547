import { generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// The signal library's X25519 keys cross into node's crypto as JWK rather than DER, and a new pair's
// public key is computed as the agreement with the base point (scripts/patches/libsignal+6.0.0.patch:
// OpenSSL 3's DER decoders made every agreement ~0.6 ms). The keys and secrets must be the ones the
// curve defines: checked here against the library's own pure-JS curve, which shares no code with node's.
const require = createRequire(import.meta.url);
const curve = require('libsignal/src/curve.js') as {
  generateKeyPair(): { pubKey: Buffer; privKey: Buffer };
  calculateAgreement(pubKey: Buffer, privKey: Buffer): Buffer;
  calculateSignature(privKey: Buffer, message: Buffer): Buffer;
  verifySignature(pubKey: Buffer, message: Buffer, signature: Buffer): boolean;
};
const pureJs = require(require.resolve('curve25519-js', { paths: [require.resolve('libsignal')] })) as {
  generateKeyPair(seed: Uint8Array): { private: Uint8Array; public: Uint8Array };
  sharedKey(privateKey: Uint8Array, publicKey: Uint8Array): Uint8Array;
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

  it('signs with the generated keys (XEdDSA), and the signature verifies', () => {
    const message = Buffer.from('signed pre-key');
    const { pubKey, privKey } = pairs[1]!;
    const signature = curve.calculateSignature(privKey, message);
    expect(curve.verifySignature(pubKey, message, signature)).toBe(true);
    expect(curve.verifySignature(pairs[2]!.pubKey, message, signature)).toBe(false);
  });
});
