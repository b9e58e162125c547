import {
  aesDecryptGCM,
  aesEncryptGCM,
  Curve,
  hkdf,
  NOISE_MODE,
  NOISE_WA_HEADER,
  proto,
  sha256,
  type KeyPair,
} from 'baileys';
import type { NoiseCertificate } from './certificates.js';

const EMPTY = Buffer.alloc(0);

function nonce(counter: number): Buffer {
  const iv = Buffer.alloc(12);
  iv.writeUInt32BE(counter, 8);
  return iv;
}

/** The two keys the handshake ends with; one frame costs one AES-GCM operation each way. */
export class NoiseTransport {
  private readCounter = 0;
  private writeCounter = 0;

  constructor(
    private readonly readKey: Uint8Array,
    private readonly writeKey: Uint8Array,
  ) {}

  encrypt(plaintext: Uint8Array): Buffer {
    return aesEncryptGCM(plaintext, this.writeKey, nonce(this.writeCounter++), EMPTY);
  }

  decrypt(ciphertext: Uint8Array): Buffer {
    return aesDecryptGCM(ciphertext, this.readKey, nonce(this.readCounter++), EMPTY);
  }
}

export interface HandshakeResult {
  clientStaticKey: Buffer;
  payload: proto.ClientPayload;
  transport: NoiseTransport;
}

/**
 * The responder's side of Noise XX as the clients run it (`Noise_XX_25519_AESGCM_SHA256`, the WA
 * prologue header mixed into the hash): ClientHello → ServerHello (our ephemeral, our static key and
 * certificate chain, both encrypted) → ClientFinish (their static key and their login payload).
 */
export class NoiseHandshake {
  private hash: Buffer;
  private salt: Buffer;
  private key: Buffer;
  private counter = 0;
  private readonly ephemeral: KeyPair = Curve.generateKeyPair();

  constructor(private readonly certificate: NoiseCertificate) {
    const mode = Buffer.from(NOISE_MODE);
    this.hash = mode.length === 32 ? mode : sha256(mode);
    this.salt = this.hash;
    this.key = this.hash;
    this.authenticate(NOISE_WA_HEADER);
  }

  /** Reads the ClientHello and returns the ServerHello to send back. */
  answerHello(frame: Uint8Array): Uint8Array {
    const clientEphemeral = proto.HandshakeMessage.decode(frame).clientHello?.ephemeral;
    if (!clientEphemeral || clientEphemeral.length !== 32) throw new Error('ClientHello without a 32-byte ephemeral key');
    this.authenticate(clientEphemeral);
    this.authenticate(this.ephemeral.public);
    this.mixIntoKey(Curve.sharedKey(this.ephemeral.private, clientEphemeral));
    const encryptedStatic = this.encrypt(this.certificate.staticKeyPair.public);
    this.mixIntoKey(Curve.sharedKey(this.certificate.staticKeyPair.private, clientEphemeral));
    const encryptedChain = this.encrypt(this.certificate.chain);
    return proto.HandshakeMessage.encode({
      serverHello: { ephemeral: this.ephemeral.public, static: encryptedStatic, payload: encryptedChain },
    }).finish();
  }

  /** Reads the ClientFinish: who the client is (its static key) and what it asks for (its payload). */
  finish(frame: Uint8Array): HandshakeResult {
    const finish = proto.HandshakeMessage.decode(frame).clientFinish;
    if (!finish?.static || !finish.payload) throw new Error('ClientFinish without static key or payload');
    const clientStaticKey = this.decrypt(finish.static);
    this.mixIntoKey(Curve.sharedKey(this.ephemeral.private, clientStaticKey));
    const payload = proto.ClientPayload.decode(this.decrypt(finish.payload));
    const keys = Buffer.from(hkdf(EMPTY, 64, { salt: this.salt, info: '' }));
    // The initiator writes with the first half; so that is what we read with.
    return { clientStaticKey, payload, transport: new NoiseTransport(keys.subarray(0, 32), keys.subarray(32)) };
  }

  private authenticate(data: Uint8Array) {
    this.hash = sha256(Buffer.concat([this.hash, data]));
  }

  private mixIntoKey(data: Uint8Array) {
    const keys = Buffer.from(hkdf(data, 64, { salt: this.salt, info: '' }));
    this.salt = keys.subarray(0, 32);
    this.key = keys.subarray(32);
    this.counter = 0;
  }

  private encrypt(plaintext: Uint8Array): Buffer {
    const result = aesEncryptGCM(plaintext, this.key, nonce(this.counter++), this.hash);
    this.authenticate(result);
    return result;
  }

  private decrypt(ciphertext: Uint8Array): Buffer {
    const result = aesDecryptGCM(ciphertext, this.key, nonce(this.counter++), this.hash);
    this.authenticate(ciphertext);
    return result;
  }
}
