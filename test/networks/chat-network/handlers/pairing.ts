import { randomBytes, randomInt } from 'node:crypto';
import {
  aesDecryptCTR,
  aesDecryptGCM,
  aesEncryptCTR,
  Curve,
  derivePairingCodeKey,
  getBinaryNodeChild,
  getBinaryNodeChildBuffer,
  hkdf,
  hmacSign,
  proto,
  WA_ADV_ACCOUNT_SIG_PREFIX,
  WA_ADV_DEVICE_SIG_PREFIX,
  type BinaryNode,
} from 'baileys';
import { LinkedDevice } from '../state/accounts.js';
import type { ClientConnection } from '../state/client-connection.js';
import type { NetworkContext } from '../state/context.js';
import { badRequest, ChatNetworkError, notFound } from '../errors.js';
import { normalizePhone, parseUserJid, SERVER_JID, unixSeconds } from '../protocol/jids.js';
import type { PendingLink, QrRef, Registration } from '../state/registration.js';

/** How long the phone waits for the companion's side of a step before giving up. */
const STEP_TIMEOUT_MS = 30_000;
/** How long a typed code waits for the client's request to arrive. */
const REQUEST_GRACE_MS = 2_000;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ChatNetworkError(408, 'timeout', `timed out waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const child = (node: BinaryNode, tag: string) => {
  const value = getBinaryNodeChildBuffer(node, tag);
  return value ? Buffer.from(value) : undefined;
};

/**
 * Linking devices to phone accounts by QR code or by an 8-character code; either way ends with
 * `pair-success`, the device's countersignature and a 515 restart into a login
 * (test/networks/README.md, "How the chat network is built").
 */
export class Pairing {
  private readonly byRef = new Map<string, Registration>();
  private readonly codeRequests: Registration[] = [];

  constructor(private readonly ctx: NetworkContext) {}

  /** A registering client gets `qrRefs` refs; it shows one QR code per ref (60 s, then 20 s each). */
  register(connection: ClientConnection, payload: proto.ClientPayload): void {
    const pairing = payload.devicePairingData!;
    let platform = 'unknown';
    try {
      const props = proto.DeviceProps.decode(pairing.deviceProps ?? new Uint8Array());
      platform = [props.os, proto.DeviceProps.PlatformType[props.platformType ?? 0]].filter(Boolean).join(' / ');
    } catch {
      // Only shown in device listings; a client that sends none still pairs.
    }
    const registration: Registration = {
      connection,
      noiseKey: connection.clientStaticKey!,
      identityKey: Buffer.from(pairing.eIdent ?? []),
      platform,
      refs: this.issueRefs(),
      linked: false,
    };
    connection.registration = registration;
    for (const { ref } of registration.refs) this.byRef.set(ref, registration);
    connection.send({
      tag: 'iq',
      attrs: { from: SERVER_JID, type: 'set', id: this.stanzaId(), xmlns: 'md' },
      content: [
        {
          tag: 'pair-device',
          attrs: {},
          content: registration.refs.map(({ ref }) => ({ tag: 'ref', attrs: {}, content: Buffer.from(ref) })),
        },
      ],
    });
  }

  closed(connection: ClientConnection): void {
    const registration = connection.registration;
    if (!registration) return;
    for (const { ref } of registration.refs) this.byRef.delete(ref);
    const index = this.codeRequests.indexOf(registration);
    if (index >= 0) this.codeRequests.splice(index, 1);
    const gone = new Error('the companion disconnected before pairing completed');
    registration.link?.reject(gone);
    registration.codeRequest?.attempt?.reject(gone);
  }

  /** The phone scans `qrText` (what the client showed): links the client to `phoneInput`'s account. */
  async scan(qrText: string, phoneInput: string): Promise<void> {
    const phone = normalizePhone(phoneInput);
    const fields = /#(.+)$/.exec(qrText.trim())?.[1]?.split(',');
    if (!fields || fields.length < 4) throw badRequest('invalid_qr', 'not a linking QR code (expected "…#ref,noiseKey,identityKey,advSecret,…")');
    const [ref, noiseKey, identityKey, advSecret] = fields as [string, string, string, string];
    const registration = this.byRef.get(ref);
    if (!registration) throw notFound('unknown_qr', 'no client is showing this QR code');
    const now = Date.now();
    const issued = registration.refs.find((item) => item.ref === ref)!;
    if (registration.linked || registration.link || !registration.connection.isOpen || now < issued.from || now > issued.until) {
      throw badRequest('qr_expired', 'this QR code is no longer the one the client shows');
    }
    if (
      !Buffer.from(noiseKey, 'base64').equals(registration.noiseKey) ||
      !Buffer.from(identityKey, 'base64').equals(registration.identityKey)
    ) {
      throw badRequest('qr_mismatch', "the QR code's keys are not those of the client that registered its ref");
    }
    await this.link(registration, phone, Buffer.from(advSecret, 'base64'));
  }

  /** `link_code_companion_reg` stage `companion_hello`: the client asks to pair with a phone number by code. */
  companionHello(connection: ClientConnection, iq: BinaryNode, request: BinaryNode): BinaryNode {
    const registration = connection.registration;
    const phone = parseUserJid(request.attrs.jid)?.user;
    const wrapped = child(request, 'link_code_pairing_wrapped_companion_ephemeral_pub');
    const authKey = child(request, 'companion_server_auth_key_pub');
    if (!registration || !phone || wrapped?.length !== 80 || !authKey?.equals(registration.noiseKey)) {
      return this.iqError(iq, 400, 'bad-request');
    }
    const ref = Buffer.from(`2@${randomBytes(24).toString('base64')}`);
    registration.codeRequest = { phone, ref, wrappedCompanionEphemeral: wrapped };
    if (!this.codeRequests.includes(registration)) this.codeRequests.push(registration);
    this.ctx.journal.changed();
    return {
      tag: 'iq',
      attrs: { from: SERVER_JID, type: 'result', id: iq.attrs.id! },
      content: [{ tag: 'link_code_companion_reg', attrs: {}, content: [{ tag: 'link_code_pairing_ref', attrs: {}, content: ref }] }],
    };
  }

  /**
   * The phone user types the code the client displayed. The phone unwraps the client's ephemeral key
   * with it and answers with its own (`primary_hello`); only the right code lets the client's key
   * bundle (`companion_finish`) decrypt, so a wrong code never pairs.
   */
  async enterPairingCode(codeInput: string, phoneInput: string): Promise<void> {
    const phone = normalizePhone(phoneInput);
    const code = codeInput.replace(/[\s-]/g, '').toUpperCase();
    if (!/^[0-9A-Z]{8}$/.test(code)) throw badRequest('invalid_pairing_code', 'a pairing code is 8 letters and digits');
    // The client shows its code once it sent the request, which may still be on its way here.
    const registration = await this.ctx.journal
      .waitFor(
        () => this.codeRequests.findLast((item) => item.codeRequest?.phone === phone && item.connection.isOpen && !item.linked && !item.link),
        REQUEST_GRACE_MS,
        'a pairing-code request',
      )
      .catch(() => undefined);
    const request = registration?.codeRequest;
    if (!registration || !request) throw notFound('pairing_not_requested', `no client is waiting to pair with ${phone} by code`);
    if (request.attempt) throw badRequest('pairing_in_progress', 'a code for this client is being checked already');
    const account = this.ctx.accounts.get(phone);

    const wrapped = request.wrappedCompanionEphemeral;
    const companionKey = await derivePairingCodeKey(code, wrapped.subarray(0, 32));
    const companionEphemeral = aesDecryptCTR(wrapped.subarray(48, 80), companionKey, wrapped.subarray(32, 48));
    const primaryEphemeral = Curve.generateKeyPair();
    const salt = randomBytes(32);
    const iv = randomBytes(16);
    const primaryKey = await derivePairingCodeKey(code, salt);
    const wrappedPrimary = Buffer.concat([salt, iv, aesEncryptCTR(primaryEphemeral.public, primaryKey, iv)]);

    const advSecret = new Promise<Buffer>((resolve, reject) => {
      request.attempt = {
        companionSharedKey: Curve.sharedKey(primaryEphemeral.private, companionEphemeral),
        primaryIdentity: account.signal.identity,
        resolve,
        reject,
      };
    });
    registration.connection.send({
      tag: 'notification',
      attrs: { from: SERVER_JID, type: 'link_code_companion_reg', id: this.stanzaId(), t: unixSeconds() },
      content: [
        {
          tag: 'link_code_companion_reg',
          attrs: { stage: 'primary_hello' },
          content: [
            { tag: 'link_code_pairing_ref', attrs: {}, content: request.ref },
            { tag: 'primary_identity_pub', attrs: {}, content: account.signal.identity.public },
            { tag: 'link_code_pairing_wrapped_primary_ephemeral_pub', attrs: {}, content: wrappedPrimary },
          ],
        },
      ],
    });
    try {
      const secret = await withTimeout(advSecret, STEP_TIMEOUT_MS, "the client's companion_finish");
      await this.link(registration, phone, secret);
    } finally {
      request.attempt = undefined;
    }
  }

  /** `companion_finish`: the client's identity, wrapped with the key both sides derived from the code. */
  companionFinish(connection: ClientConnection, iq: BinaryNode, request: BinaryNode): BinaryNode {
    const attempt = connection.registration?.codeRequest?.attempt;
    const registration = connection.registration;
    const bundle = child(request, 'link_code_pairing_wrapped_key_bundle');
    const companionIdentity = child(request, 'companion_identity_public');
    if (!registration || !attempt || !bundle || bundle.length < 44 || !companionIdentity) return this.iqError(iq, 400, 'bad-request');
    try {
      const key = hkdf(attempt.companionSharedKey, 32, {
        salt: bundle.subarray(0, 32),
        info: 'link_code_pairing_key_bundle_encryption_key',
      });
      const payload = aesDecryptGCM(bundle.subarray(44), key, bundle.subarray(32, 44), Buffer.alloc(0));
      const [identity, primary, random] = [payload.subarray(0, 32), payload.subarray(32, 64), payload.subarray(64, 96)];
      if (!identity.equals(companionIdentity) || !identity.equals(registration.identityKey) || !primary.equals(attempt.primaryIdentity.public)) {
        throw new Error('key bundle names other keys');
      }
      const identityShared = Curve.sharedKey(attempt.primaryIdentity.private, identity);
      const advSecret = Buffer.from(hkdf(Buffer.concat([attempt.companionSharedKey, identityShared, random]), 32, { info: 'adv_secret' }));
      attempt.resolve(advSecret);
    } catch {
      attempt.reject(badRequest('pairing_code_mismatch', 'the code does not match the one the client displayed'));
    }
    return { tag: 'iq', attrs: { from: SERVER_JID, type: 'result', id: iq.attrs.id! } };
  }

  /** An `<iq type="result">` from a registering client; true when it was the answer to our pair-success. */
  iqResult(connection: ClientConnection, iq: BinaryNode): boolean {
    const link = connection.registration?.link;
    if (!link || iq.attrs.id !== link.iqId) return false;
    this.completeLink(connection.registration!, link, iq);
    return true;
  }

  private async link(registration: Registration, phone: string, advSecret: Buffer): Promise<void> {
    const account = this.ctx.accounts.get(phone);
    if (account.banned) throw badRequest('account_banned', `${phone} is banned and cannot link devices`);
    if (registration.link || registration.linked) throw badRequest('already_pairing', 'this client is being linked already');
    const { deviceId, keyIndex } = account.allocateDevice();
    const deviceDetails = proto.ADVDeviceIdentity.encode({
      rawId: randomInt(1, 2 ** 31),
      timestamp: Math.floor(Date.now() / 1000),
      keyIndex,
      accountType: proto.ADVEncryptionType.E2EE,
      deviceType: proto.ADVEncryptionType.E2EE,
    }).finish();
    const accountSignature = Curve.sign(
      account.signal.identity.private,
      Buffer.concat([WA_ADV_ACCOUNT_SIG_PREFIX, deviceDetails, registration.identityKey]),
    );
    const details = proto.ADVSignedDeviceIdentity.encode({
      details: deviceDetails,
      accountSignatureKey: account.signal.identity.public,
      accountSignature,
    }).finish();
    const identity = proto.ADVSignedDeviceIdentityHMAC.encode({ details, hmac: hmacSign(details, advSecret) }).finish();
    const iqId = this.stanzaId();
    const linked = new Promise<void>((resolve, reject) => {
      registration.link = { iqId, account, deviceId, keyIndex, deviceDetails, resolve, reject };
    });
    registration.connection.send({
      tag: 'iq',
      attrs: { from: SERVER_JID, type: 'set', id: iqId, t: unixSeconds() },
      content: [
        {
          tag: 'pair-success',
          attrs: {},
          content: [
            { tag: 'device-identity', attrs: {}, content: identity },
            { tag: 'platform', attrs: { name: 'android' } },
            { tag: 'device', attrs: { jid: account.jid('pn', deviceId), lid: account.jid('lid', deviceId) } },
          ],
        },
      ],
    });
    try {
      await withTimeout(linked, STEP_TIMEOUT_MS, "the client's pair-device-sign");
    } finally {
      registration.link = undefined;
    }
  }

  /** The client countersigned its identity: it is a linked device now, and must log in again (515). */
  private completeLink(registration: Registration, link: PendingLink, iq: BinaryNode) {
    const signed = getBinaryNodeChild(getBinaryNodeChild(iq, 'pair-device-sign'), 'device-identity');
    let device: proto.ADVSignedDeviceIdentity | undefined;
    try {
      device = proto.ADVSignedDeviceIdentity.decode(signed?.content as Uint8Array);
    } catch {
      device = undefined;
    }
    const accountKey = link.account.signal.identity.public;
    const valid =
      device?.deviceSignature &&
      Buffer.from(device.details ?? []).equals(Buffer.from(link.deviceDetails)) &&
      Curve.verify(
        registration.identityKey,
        Buffer.concat([WA_ADV_DEVICE_SIG_PREFIX, link.deviceDetails, registration.identityKey, accountKey]),
        device.deviceSignature,
      );
    if (!device || !valid) {
      link.reject(new ChatNetworkError(409, 'pairing_rejected', 'the client did not countersign its device identity'));
      registration.connection.endWith({ tag: 'failure', attrs: { reason: '401', location: 'chat-network' } });
      return;
    }
    const linked = new LinkedDevice(
      link.account,
      link.deviceId,
      {
        noiseKey: registration.noiseKey,
        identityKey: registration.identityKey,
        keyIndex: link.keyIndex,
        signedIdentity: proto.ADVSignedDeviceIdentity.encode({ ...device, accountSignatureKey: accountKey }).finish(),
        platform: registration.platform,
      },
      this.ctx.observer,
    );
    link.account.devices.set(link.deviceId, linked);
    registration.linked = true;
    for (const { ref } of registration.refs) this.byRef.delete(ref);
    this.ctx.deviceLinked(linked);
    registration.connection.endWith({ tag: 'stream:error', attrs: { code: '515' } });
    link.resolve();
  }

  private issueRefs(): QrRef[] {
    const { qrRefs, qrTimeoutMs } = this.ctx.options;
    const now = Date.now();
    const refs: QrRef[] = [];
    let from = now;
    for (let i = 0; i < qrRefs; i++) {
      // The client shows the first code for 60 s and each next one for 20 s (or all for its qrTimeout).
      const ttl = qrTimeoutMs ?? (i === 0 ? 60_000 : 20_000);
      // A little slack, since the client starts its clock after ours.
      refs.push({ ref: `2@${randomBytes(36).toString('base64')}`, from, until: from + ttl + Math.min(2_000, ttl / 4) });
      from += ttl;
    }
    return refs;
  }

  private iqError(iq: BinaryNode, code: number, text: string): BinaryNode {
    return {
      tag: 'iq',
      attrs: { from: SERVER_JID, type: 'error', id: iq.attrs.id! },
      content: [{ tag: 'error', attrs: { code: `${code}`, text } }],
    };
  }

  private stanzaId(): string {
    return `${randomInt(1, 2 ** 31)}.${randomInt(1, 2 ** 16)}-${randomInt(1, 1000)}`;
  }
}
