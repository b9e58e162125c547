import { randomInt } from 'node:crypto';
import { Curve, generateSignalPubKey, signedKeyPair, type KeyPair } from 'baileys';
import {
  GroupCipher,
  GroupSessionBuilder,
  SenderKeyDistributionMessage,
  SenderKeyName,
  SenderKeyRecord,
} from 'baileys/lib/Signal/Group/index.js';
import { ProtocolAddress, SessionBuilder, SessionCipher, SessionRecord, type SignalStorage } from 'libsignal';

/** A pre-key bundle as the network hands it out: 32-byte keys, as on the wire. */
export interface PreKeyBundle {
  registrationId: number;
  identityKey: Uint8Array;
  signedPreKey: { keyId: number; publicKey: Uint8Array; signature: Uint8Array };
  preKey?: { keyId: number; publicKey: Uint8Array };
}

export type EncType = 'pkmsg' | 'msg';

/** One-time pre-keys a phone keeps for bundles it handed out and that nobody used yet. */
const MAX_OUTSTANDING_PRE_KEYS = 256;

const signalKey = (key: Uint8Array) => Buffer.from(generateSignalPubKey(key));
const signalPair = (pair: KeyPair) => ({ pubKey: signalKey(pair.public), privKey: Buffer.from(pair.private) });

/** The part of libsignal's session record that the typings leave out. */
interface OpenSessionView {
  getOpenSession(): { pendingPreKey?: unknown } | undefined;
}

/**
 * A phone's (device 0's) Signal identity and sessions. The phone is played by the network, so its
 * one-time pre-keys are made when someone asks for a bundle rather than uploaded in advance.
 */
export class PhoneSignal {
  readonly registrationId = randomInt(1, 16_380);
  readonly identity: KeyPair = Curve.generateKeyPair();
  readonly signedPreKey = signedKeyPair(this.identity, 1);
  private readonly preKeys = new Map<number, KeyPair>();
  private nextPreKeyId = 1;
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly storage: SignalStorage;
  /** Sender keys for groups: the phone's own (to send) and other members' (to read theirs). */
  private readonly senderKeys = new Map<string, SenderKeyRecord>();
  private readonly senderKeyStore = {
    loadSenderKey: async (name: SenderKeyName) => this.senderKeys.get(name.toString()) ?? new SenderKeyRecord(),
    storeSenderKey: async (name: SenderKeyName, record: SenderKeyRecord) => void this.senderKeys.set(name.toString(), record),
  };

  constructor() {
    const identity = signalPair(this.identity);
    const signed = signalPair(this.signedPreKey.keyPair);
    this.storage = {
      loadSession: async (id) => this.sessions.get(id),
      storeSession: async (id, record) => void this.sessions.set(id, record),
      isTrustedIdentity: () => true,
      loadPreKey: async (id) => {
        const pair = this.preKeys.get(Number(id));
        return pair && signalPair(pair);
      },
      removePreKey: (id) => void this.preKeys.delete(Number(id)),
      loadSignedPreKey: () => signed,
      getOurRegistrationId: () => this.registrationId,
      getOurIdentity: () => identity,
    };
  }

  /** A bundle with a fresh one-time pre-key, for a key fetch or a retry receipt. */
  bundle(): Required<PreKeyBundle> {
    const keyId = this.nextPreKeyId;
    this.nextPreKeyId = this.nextPreKeyId >= 0xffffff ? 1 : this.nextPreKeyId + 1;
    const pair = Curve.generateKeyPair();
    this.preKeys.set(keyId, pair);
    if (this.preKeys.size > MAX_OUTSTANDING_PRE_KEYS) {
      this.preKeys.delete(this.preKeys.keys().next().value!);
    }
    return {
      registrationId: this.registrationId,
      identityKey: this.identity.public,
      signedPreKey: {
        keyId: this.signedPreKey.keyId,
        publicKey: this.signedPreKey.keyPair.public,
        signature: this.signedPreKey.signature,
      },
      preKey: { keyId, publicKey: pair.public },
    };
  }

  async decrypt(remote: ProtocolAddress, type: EncType, ciphertext: Uint8Array): Promise<Buffer> {
    const cipher = new SessionCipher(this.storage, remote);
    return type === 'pkmsg' ? cipher.decryptPreKeyWhisperMessage(ciphertext) : cipher.decryptWhisperMessage(ciphertext);
  }

  hasSession(remote: ProtocolAddress): boolean {
    return this.sessions.get(remote.toString())?.haveOpenSession() ?? false;
  }

  async startSession(remote: ProtocolAddress, bundle: PreKeyBundle): Promise<void> {
    await new SessionBuilder(this.storage, remote).initOutgoing({
      registrationId: bundle.registrationId,
      identityKey: signalKey(bundle.identityKey),
      signedPreKey: {
        keyId: bundle.signedPreKey.keyId,
        publicKey: signalKey(bundle.signedPreKey.publicKey),
        signature: bundle.signedPreKey.signature,
      },
      // libsignal accepts a bundle without a one-time pre-key (the device ran out); its typings do not.
      preKey: (bundle.preKey && { keyId: bundle.preKey.keyId, publicKey: signalKey(bundle.preKey.publicKey) })!,
    });
  }

  async encrypt(remote: ProtocolAddress, plaintext: Uint8Array): Promise<{ type: EncType; ciphertext: Buffer }> {
    const { type, body } = await new SessionCipher(this.storage, remote).encrypt(plaintext);
    return { type: type === 3 ? 'pkmsg' : 'msg', ciphertext: Buffer.from(body, 'binary') };
  }

  /**
   * The remote device acknowledged a message of this session, so it holds the session: later
   * messages need not carry the pre-key header any more (libsignal alone would keep sending pre-key
   * messages until the remote writes back).
   */
  confirmSession(remote: ProtocolAddress): void {
    const open = (this.sessions.get(remote.toString()) as unknown as OpenSessionView | undefined)?.getOpenSession();
    if (open?.pendingPreKey) delete open.pendingPreKey;
  }

  dropSession(remote: ProtocolAddress): void {
    this.sessions.delete(remote.toString());
  }

  /** Loses every one-to-one session, as a phone reinstalled without its backup does. */
  forgetSessions(): void {
    this.sessions.clear();
  }

  /** The phone's own address, under which its sender keys are kept. */
  self(phone: string): ProtocolAddress {
    return new ProtocolAddress(phone, 0);
  }

  /** Takes a group member's sender key (from a sender-key distribution message it sent us). */
  async acceptSenderKey(group: string, sender: ProtocolAddress, distribution: Uint8Array): Promise<void> {
    const message = new SenderKeyDistributionMessage(null, null, null, null, distribution);
    await new GroupSessionBuilder(this.senderKeyStore).process(new SenderKeyName(group, sender), message);
  }

  /** Reads a group message (`skmsg`) a member encrypted with its sender key. */
  async decryptGroup(group: string, sender: ProtocolAddress, ciphertext: Uint8Array): Promise<Uint8Array> {
    return new GroupCipher(this.senderKeyStore, new SenderKeyName(group, sender)).decrypt(ciphertext);
  }

  /**
   * Encrypts for a group with the phone's own sender key; returns the ciphertext and the distribution
   * message members need to read it (made first, so it opens this very message).
   */
  async encryptGroup(group: string, self: ProtocolAddress, plaintext: Uint8Array): Promise<{ ciphertext: Uint8Array; distribution: Uint8Array }> {
    const name = new SenderKeyName(group, self);
    const distribution = await new GroupSessionBuilder(this.senderKeyStore).create(name);
    const ciphertext = await new GroupCipher(this.senderKeyStore, name).encrypt(plaintext);
    return { ciphertext, distribution: distribution.serialize() };
  }
}

export { ProtocolAddress };
