import { randomBytes } from 'node:crypto';
import type { BinaryNode } from 'baileys';
import type { Account } from './accounts.js';
import type { Connection } from '../protocol/connection.js';
import { SERVER_JID, unixSeconds, type Addressing } from '../protocol/jids.js';
import { ProtocolAddress, type PreKeyBundle } from '../protocol/signal.js';

/** What a linked device uploaded about its Signal identity (`<iq xmlns="encrypt" type="set">`). */
export interface UploadedKeys {
  registrationId: number;
  identityKey: Buffer;
  signedPreKey: { keyId: number; publicKey: Buffer; signature: Buffer };
}

/** Below this many one-time pre-keys the network asks the device for more, as the real one does. */
const PRE_KEY_LOW_WATER = 5;

/**
 * A device's uploaded one-time pre-keys. Clients upload hundreds at a time with consecutive ids, so
 * they are kept as runs of 32-byte keys in one buffer each rather than an object per key: a thousand
 * linked devices would otherwise hold close to a million small objects.
 */
export class PreKeyPool {
  private readonly runs: { firstId: number; keys: Buffer; next: number }[] = [];

  add(keys: { keyId: number; publicKey: Uint8Array }[]): void {
    let start = 0;
    for (let i = 1; i <= keys.length; i++) {
      if (i < keys.length && keys[i]!.keyId === keys[i - 1]!.keyId + 1) continue;
      const run = keys.slice(start, i);
      if (run.length) {
        this.runs.push({ firstId: run[0]!.keyId, keys: Buffer.concat(run.map((key) => key.publicKey)), next: 0 });
      }
      start = i;
    }
  }

  take(): { keyId: number; publicKey: Buffer } | undefined {
    while (this.runs.length) {
      const run = this.runs[0]!;
      const count = run.keys.length / 32;
      if (run.next < count) {
        const index = run.next++;
        return { keyId: run.firstId + index, publicKey: Buffer.from(run.keys.subarray(index * 32, index * 32 + 32)) };
      }
      this.runs.shift();
    }
    return undefined;
  }

  get size(): number {
    return this.runs.reduce((sum, run) => sum + run.keys.length / 32 - run.next, 0);
  }

  ids(): number[] {
    return this.runs.flatMap((run) => Array.from({ length: run.keys.length / 32 - run.next }, (_, i) => run.firstId + run.next + i));
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
