import { Curve, makeNoiseHandler, NOISE_WA_HEADER, proto, WA_CERT_DETAILS } from 'baileys';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { issueNoiseCertificate, type NoiseCertificate, testRootKeyPair } from '../networks/chat-network/protocol/certificates.js';
import { NoiseHandshake } from '../networks/chat-network/protocol/noise.js';

// scripts/patches/baileys+*.patch: a certificate chain that verified once is not verified again (the
// server shows every connection the same chain; each check is ~20 ms of pure-JS curve arithmetic).

const verify = Curve.verify;
const trustedRoot = WA_CERT_DETAILS.PUBLIC_KEY;
afterEach(() => {
  Curve.verify = verify;
  WA_CERT_DETAILS.PUBLIC_KEY = trustedRoot;
});

/** Runs the client's side of the handshake against a server holding `certificate`: throws as the client refuses. */
function handshake(certificate: NoiseCertificate) {
  const server = new NoiseHandshake(certificate);
  // The client's hello carries the key pair its handler was made with.
  const clientEphemeral = Curve.generateKeyPair();
  const handler = makeNoiseHandler({ keyPair: clientEphemeral, NOISE_HEADER: NOISE_WA_HEADER, logger: pino({ level: 'silent' }) as never });
  const serverHello = proto.HandshakeMessage.decode(server.answerHello(proto.HandshakeMessage.encode({ clientHello: { ephemeral: clientEphemeral.public } }).finish())).serverHello!;
  return handler.processHandshake({ serverHello } as never, Curve.generateKeyPair());
}

function countVerifications() {
  const counted = { calls: 0 };
  Curve.verify = (...args: Parameters<typeof verify>) => {
    counted.calls += 1;
    return verify(...args);
  };
  return counted;
}

describe('baileys noise handshake certificates (patched)', () => {
  it('verifies a chain once and trusts it afterwards', () => {
    WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(testRootKeyPair().public);
    const certificate = issueNoiseCertificate();
    const counted = countVerifications();
    expect(handshake(certificate)).toBeInstanceOf(Uint8Array);
    expect(counted.calls).toBe(2);
    expect(handshake(certificate)).toBeInstanceOf(Uint8Array);
    expect(counted.calls).toBe(2);
    // Another chain is verified on its own.
    handshake(issueNoiseCertificate());
    expect(counted.calls).toBe(4);
  });

  it('still refuses a chain with a bad signature, also after a good one', () => {
    WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(testRootKeyPair().public);
    const good = issueNoiseCertificate();
    handshake(good);
    const chain = proto.CertChain.decode(good.chain);
    const forged = proto.CertChain.encode({ ...chain, leaf: { ...chain.leaf, signature: Curve.sign(Curve.generateKeyPair().private, chain.leaf!.details!) } }).finish();
    expect(() => handshake({ staticKeyPair: good.staticKeyPair, chain: forged })).toThrow(/noise certificate signature invalid/);
  });

  it('checks a chain again when the trusted root changes', () => {
    WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(testRootKeyPair().public);
    const certificate = issueNoiseCertificate();
    handshake(certificate);
    WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(Curve.generateKeyPair().public);
    expect(() => handshake(certificate)).toThrow(/intermediate certificate signature invalid/);
  });

  it('refuses a signed chain whose leaf names another key than the server proved itself with, also once the chain is cached', () => {
    WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(testRootKeyPair().public);
    const flawed = issueNoiseCertificate('leaf-names-another-key');
    expect(() => handshake(flawed)).toThrow(/leaf certificate does not name the server static key/);
    // The same chain from a server that holds the leaf's key would pass; a server without it never does.
    expect(() => handshake(flawed)).toThrow(/leaf certificate does not name the server static key/);
  });

  it('refuses a chain whose leaf names another issuer serial than its intermediate', () => {
    WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(testRootKeyPair().public);
    expect(() => handshake(issueNoiseCertificate('leaf-wrong-issuer-serial'))).toThrow(/leaf certificate was not issued by its intermediate/);
  });

  it('checks the binding on every connection: a good chain shown by a server with another static key is refused after it was cached', () => {
    WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(testRootKeyPair().public);
    const good = issueNoiseCertificate();
    expect(handshake(good)).toBeInstanceOf(Uint8Array);
    const impostor = { staticKeyPair: Curve.generateKeyPair(), chain: good.chain };
    expect(() => handshake(impostor)).toThrow(/leaf certificate does not name the server static key/);
  });
});
