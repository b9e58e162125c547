import type { proto } from 'baileys';
import type { LinkedDevice } from './devices.js';
import { badRequest } from '../errors.js';
import { lidForPhone, parseUserJid, userJid, type Addressing } from '../protocol/jids.js';
import { PhoneSignal } from '../protocol/signal.js';

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
  /** Whether others may add the number to groups (its privacy setting); if not, an add answers 403. */
  acceptsGroupAdds = true;
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
