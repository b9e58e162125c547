import { randomBytes } from 'node:crypto';
import type { BinaryNode, proto } from 'baileys';
import type { Connection } from '../protocol/connection.js';
import { badRequest } from '../errors.js';
import { lidForPhone, parseUserJid, SERVER_JID, unixSeconds, userJid, type Addressing } from '../protocol/jids.js';
import { PhoneSignal, ProtocolAddress, type PreKeyBundle } from '../protocol/signal.js';
import { PRE_KEY_LOW_WATER, PreKeyPool, type UploadedKeys } from './pre-keys.js';

/** A message a phone sent, kept so the phone can revoke it, quote it or send it again on a retry. */
export interface SentMessage {
  id: string;
  /** The recipient's phone number, or the group's jid. */
  to: string;
  message: proto.IMessage;
  at: number;
  options: DeliveryOptions;
  /** For a group: the message encrypted once with the phone's sender key, and that key for members lacking it. */
  group?: { jid: string; ciphertext: Uint8Array; distribution: Uint8Array };
}

/** How many sent messages a phone remembers (revokes and retries concern recent ones). */
const SENT_MEMORY = 2_000;

/**
 * Device ids a companion can get: the binary jid encoding carries the device in one byte, and 99 is
 * reserved for hosted devices.
 */
const MAX_DEVICE_ID = 255;
const HOSTED_DEVICE_ID = 99;

/** A phone number on the network: its phone (device 0, played by the network) and its linked devices. */
export class Account {
  readonly lid: string;
  private phoneSignal?: PhoneSignal;
  /** The device list's signed key-index list, kept until the list changes (signing costs a few ms). */
  keyIndexList?: { indexes: string; node: Uint8Array };
  readonly devices = new Map<number, LinkedDevice>();
  pushName: string;
  status = '';
  banned = false;
  /** Whether the number is on the network: number checks (usync `contact`) answer `in` only if so. */
  registered = true;
  /** Its privacy settings by the network's category names (last, online, profile, status, groupadd, readreceipts…). */
  readonly privacy: Record<string, string> = { last: 'all', online: 'all', profile: 'all', status: 'all', groupadd: 'all', readreceipts: 'all', calladd: 'all', messages: 'all' };
  /** Whether others may add the number to groups (its privacy setting); if not, an add answers 403. */
  acceptsGroupAdds = true;
  /** The key the phone encrypts its app state (settings such as its push name) with, once it shared one. */
  appStateKey?: { id: Buffer; data: Buffer };
  /** The phones this account blocked (its blocklist, as its devices changed it). */
  readonly blocked = new Set<string>();
  /** Messages sent to this account while it had no linked device, for the first one that links. */
  readonly heldForNewDevices: { sender: Account; sent: SentMessage }[] = [];
  private readonly sent = new Map<string, SentMessage>();
  private nextDeviceId = 1;
  private nextKeyIndex = 1;

  constructor(readonly phone: string) {
    this.lid = lidForPhone(phone);
    this.pushName = `User ${phone.slice(-4)}`;
  }

  /**
   * The phone's Signal identity, made on first use: every number anyone looks up is an account, but
   * only those that exchange messages need keys.
   */
  get signal(): PhoneSignal {
    this.phoneSignal ??= new PhoneSignal();
    return this.phoneSignal;
  }

  jid(addressing: Addressing = 'pn', device = 0): string {
    return userJid(addressing === 'lid' ? this.lid : this.phone, addressing, device);
  }

  /** Linked devices that can still log in. */
  linkedDevices(): LinkedDevice[] {
    return [...this.devices.values()].filter((device) => !device.loggedOut);
  }

  allocateDevice(): { deviceId: number; keyIndex: number } {
    let deviceId = this.nextDeviceId;
    if (deviceId === HOSTED_DEVICE_ID) deviceId++;
    if (deviceId > MAX_DEVICE_ID) throw badRequest('too_many_devices', `${this.phone} has linked ${MAX_DEVICE_ID} devices already`);
    this.nextDeviceId = deviceId + 1;
    return { deviceId, keyIndex: this.nextKeyIndex++ };
  }

  rememberSent(sent: SentMessage): void {
    this.sent.set(sent.id, sent);
    if (this.sent.size > SENT_MEMORY) this.sent.delete(this.sent.keys().next().value!);
  }

  sentMessage(id: string): SentMessage | undefined {
    return this.sent.get(id);
  }
}

export interface DeliveryOptions {
  pushName: string;
  /** `pn`: from the phone number with `sender_lid`; `lid`: from the LID with `sender_pn`; `lid-only`: from the LID alone. */
  addressing: Addressing | 'lid-only';
  /** Extra attributes of the stanza (`edit` for revokes). */
  attrs?: Record<string, string>;
}

export interface ResolvedJid {
  account: Account;
  device: number;
  addressing: Addressing;
}

/** Every phone number is an account; accounts are made the first time anything names them. */
export class Accounts {
  private readonly byPhone = new Map<string, Account>();
  private readonly byLid = new Map<string, Account>();

  get(phone: string): Account {
    let account = this.byPhone.get(phone);
    if (!account) {
      account = new Account(phone);
      this.byPhone.set(phone, account);
      this.byLid.set(account.lid, account);
    }
    return account;
  }

  find(phone: string): Account | undefined {
    return this.byPhone.get(phone);
  }

  findByLid(lid: string): Account | undefined {
    return this.byLid.get(lid);
  }

  /** A phone-number jid always names an account; a LID only one the network already gave out. */
  resolve(jid: string | undefined): ResolvedJid | undefined {
    const parsed = parseUserJid(jid);
    if (!parsed || (parsed.addressing === 'pn' && !/^\d{1,20}$/.test(parsed.user))) return undefined;
    const account = parsed.addressing === 'lid' ? this.byLid.get(parsed.user) : this.get(parsed.user);
    return account && { account, device: parsed.device, addressing: parsed.addressing };
  }

  all(): Account[] {
    return [...this.byPhone.values()];
  }
}

/** A stanza on its way to a device, held until the device settles it (receipt or ack) or it is sent, if transient. */
export interface Outgoing {
  /** What settles it: `m:<sender phone>:<id>`, `r:<phone>:<id>:<type>`, `n:<id>`. */
  key: string;
  node?: BinaryNode;
  /** Builds the stanza once the device's keys are known; undefined means "not yet". */
  build?: () => Promise<BinaryNode | undefined>;
  /** Presence and the like: sent if the device is connected, never held for a later login. */
  transient?: boolean;
  settled?: (how: 'receipt' | 'ack') => void;
  sentOn?: number;
  offlineFor?: number;
}

export interface DeliveryObserver {
  delivered(device: LinkedDevice, connection: Connection, node: BinaryNode, offline: boolean): void;
  failed(device: LinkedDevice, item: Outgoing | undefined, error: unknown): void;
}

export interface DeviceIdentity {
  /** The Noise static key the device registered with; its logins must present the same one. */
  noiseKey: Buffer;
  /** The device's Signal identity public key. */
  identityKey: Buffer;
  keyIndex: number;
  /** ADVSignedDeviceIdentity as the device countersigned it, with the account's signature key. */
  signedIdentity: Uint8Array;
  platform: string;
}

/**
 * A companion device linked to a phone account: its keys, its live connection (at most one) and the
 * stanzas waiting for it, which survive its disconnections until it acknowledges them.
 */
export class LinkedDevice {
  connection?: Connection;
  loggedOut = false;
  keys?: UploadedKeys;
  readonly preKeys = new PreKeyPool();
  readonly linkedAt = Date.now();
  readonly address: ProtocolAddress;
  private readonly outbox: Outgoing[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private offlineBatch?: { connectionId: number; count: number };
  private askedForPreKeys = false;

  constructor(
    readonly account: Account,
    readonly id: number,
    readonly identity: DeviceIdentity,
    private readonly observer: DeliveryObserver,
  ) {
    // The phones' sessions with a device are keyed by account and device, whichever jid named it.
    this.address = new ProtocolAddress(account.phone, id);
  }

  get phone(): string {
    return this.account.phone;
  }

  get connected(): boolean {
    return !!this.connection?.isOpen;
  }

  jid(addressing: Addressing = 'pn'): string {
    return this.account.jid(addressing, this.id);
  }

  get pendingCount(): number {
    return this.outbox.filter((item) => !item.transient).length;
  }

  uploadKeys(keys: UploadedKeys, preKeys: { keyId: number; publicKey: Buffer }[]): void {
    this.keys = keys;
    this.preKeys.add(preKeys);
    if (this.preKeys.size >= PRE_KEY_LOW_WATER) this.askedForPreKeys = false;
    void this.flush();
  }

  /** A bundle for a sender to start a session with; uses up one of the device's one-time pre-keys. */
  bundle(): PreKeyBundle | undefined {
    if (!this.keys) return undefined;
    const preKey = this.preKeys.take();
    if (this.preKeys.size < PRE_KEY_LOW_WATER && !this.askedForPreKeys) {
      this.askedForPreKeys = true;
      const id = randomBytes(4).readUInt32BE(0).toString();
      this.hold({
        key: `n:${id}`,
        node: {
          tag: 'notification',
          attrs: { from: SERVER_JID, type: 'encrypt', id, t: unixSeconds() },
          content: [{ tag: 'count', attrs: { value: `${this.preKeys.size}` } }],
        },
      });
    }
    return { ...this.keys, preKey };
  }

  hold(item: Outgoing): void {
    if (item.transient && !this.connected) return;
    this.outbox.push(item);
    void this.flush();
  }

  /** Drops what a receipt or ack settles; returns whether anything was waiting under that key. */
  settle(key: string, how: 'receipt' | 'ack'): boolean {
    const index = this.outbox.findIndex((item) => item.key === key);
    if (index < 0) return false;
    const [item] = this.outbox.splice(index, 1);
    item!.settled?.(how);
    return true;
  }

  /** Replaces what waits under a key (a message sent again after a retry receipt). */
  replace(item: Outgoing): void {
    const index = this.outbox.findIndex((existing) => existing.key === item.key);
    if (index >= 0) this.outbox.splice(index, 1, item);
    else this.outbox.push(item);
    void this.flush();
  }

  /**
   * The device logged in on `connection`: everything still waiting goes out again, marked offline,
   * followed by the `<ib><offline count/>` that tells the client the backlog is done.
   */
  attach(connection: Connection): void {
    this.connection = connection;
    const backlog = this.outbox.filter((item) => !item.transient);
    for (const item of backlog) item.offlineFor = connection.id;
    this.offlineBatch = { connectionId: connection.id, count: backlog.length };
    void this.flush();
  }

  detach(connection: Connection): void {
    if (this.connection !== connection) return;
    this.connection = undefined;
    for (let i = this.outbox.length - 1; i >= 0; i--) if (this.outbox[i]!.transient) this.outbox.splice(i, 1);
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.flushNow()).catch((error: unknown) => this.observer.failed(this, undefined, error));
    return this.flushing;
  }

  private async flushNow(): Promise<void> {
    const connection = this.connection;
    if (!connection?.isOpen) return;
    for (const item of [...this.outbox]) {
      if (item.sentOn === connection.id || !this.outbox.includes(item)) continue;
      if (!item.node) {
        try {
          item.node = await item.build?.();
        } catch (error) {
          this.outbox.splice(this.outbox.indexOf(item), 1);
          this.observer.failed(this, item, error);
          continue;
        }
        // Not buildable yet (the device has not uploaded its keys): later stanzas wait behind it.
        if (!item.node) break;
        if (!this.outbox.includes(item)) continue;
      }
      if (this.connection !== connection || !connection.isOpen) return;
      const offline = item.offlineFor === connection.id;
      const node = offline ? { ...item.node, attrs: { ...item.node.attrs, offline: '1' } } : item.node;
      connection.send(node);
      item.sentOn = connection.id;
      this.observer.delivered(this, connection, node, offline);
      if (item.transient) this.outbox.splice(this.outbox.indexOf(item), 1);
    }
    const batch = this.offlineBatch;
    if (batch?.connectionId === connection.id && !this.outbox.some((i) => i.offlineFor === connection.id && i.sentOn !== connection.id)) {
      this.offlineBatch = undefined;
      connection.send({
        tag: 'ib',
        attrs: { from: SERVER_JID },
        content: [{ tag: 'offline', attrs: { count: `${batch.count}` } }],
      });
    }
  }
}
