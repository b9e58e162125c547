import { EventEmitter } from 'node:events';

/** A `<message>` stanza a linked device sent to the network. */
export interface ReceivedStanza {
  connectionId: number;
  /** The sending device's account (phone digits). */
  phone: string;
  deviceId: number;
  id: string;
  /** The stanza's `to`: the chat as the device addressed it. */
  to: string;
  /** The devices it carried ciphertext for (`<to jid>` of its participants, or its `to`). */
  recipients: string[];
  at: Date;
}

/** A `<message>` stanza the network sent to a linked device. */
export interface DeliveredStanza {
  connectionId: number;
  /** The receiving device's account and id. */
  phone: string;
  deviceId: number;
  id: string;
  from: string;
  /** The ciphertext types it carried: `pkmsg`, `msg`, and for groups e.g. `pkmsg+skmsg`. */
  encType: string | null;
  offline: boolean;
  at: Date;
}

/** A receipt that reached a phone for a message the phone sent. */
export interface PhoneReceipt {
  messageId: string;
  /** The account whose device acknowledged, and which device. */
  from: string;
  deviceId: number;
  type: 'delivered' | 'read' | 'played';
  at: Date;
}

/** A trusted-contact token a linked device issued to a contact (`<iq xmlns="privacy" type="set"><tokens>`). */
export interface IssuedToken {
  /** The issuing device's account (phone digits). */
  phone: string;
  /** The contact it was issued to, as the device named it (a phone or LID jid). */
  to: string;
  /** The token's timestamp (seconds), as the device set it. */
  t: number;
  at: Date;
}

/** Logs are for tests; a network that runs for hours keeps only the most recent entries. */
const LOG_LIMIT = 50_000;

function append<T>(log: T[], entry: T) {
  log.push(entry);
  if (log.length > LOG_LIMIT) log.splice(0, log.length - LOG_LIMIT);
}

/**
 * What happened on the network, for tests to read and to wait on. Every change emits `change`, so
 * waiters re-check their condition instead of sleeping.
 */
export class Journal extends EventEmitter {
  readonly received: ReceivedStanza[] = [];
  readonly delivered: DeliveredStanza[] = [];
  readonly phoneReceipts = new Map<string, PhoneReceipt[]>();
  readonly loginAttempts = new Map<string, number[]>();
  readonly tokensIssued: IssuedToken[] = [];
  logins = 0;
  /** Noise handshakes clients began (a hello), and those they finished (their static key and payload sent). */
  hellos = 0;
  handshakesFinished = 0;
  handshakesInFlight = 0;
  maxHandshakesInFlight = 0;

  constructor() {
    super();
    this.setMaxListeners(0);
  }

  changed(): void {
    this.emit('change');
  }

  recordReceived(entry: ReceivedStanza) {
    append(this.received, entry);
    this.changed();
  }

  recordDelivered(entry: DeliveredStanza) {
    append(this.delivered, entry);
    this.changed();
  }

  recordPhoneReceipt(phone: string, receipt: PhoneReceipt) {
    let list = this.phoneReceipts.get(phone);
    if (!list) this.phoneReceipts.set(phone, (list = []));
    append(list, receipt);
    this.changed();
  }

  recordTokenIssued(entry: IssuedToken) {
    append(this.tokensIssued, entry);
    this.changed();
  }

  recordLoginAttempt(phone: string) {
    let list = this.loginAttempts.get(phone);
    if (!list) this.loginAttempts.set(phone, (list = []));
    append(list, Date.now());
    this.changed();
  }

  /**
   * Resolves with the probe's first truthy value, checked now and after every change; rejects with
   * `what` in the message when the time runs out.
   */
  waitFor<T>(probe: () => T | undefined | null | false, timeoutMs: number, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        let value: T | undefined | null | false;
        try {
          value = probe();
        } catch (error) {
          cleanup();
          reject(error);
          return;
        }
        if (value) {
          cleanup();
          resolve(value);
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.off('change', check);
      };
      this.on('change', check);
      check();
    });
  }
}
