import type { Logger } from 'pino';
import type { Accounts, DeliveryObserver, LinkedDevice } from './accounts.js';
import type { CertificateFlaw } from '../protocol/certificates.js';
import type { Inboxes } from './inbox.js';
import type { Journal } from './journal.js';
import type { MediaHost } from './media-host.js';
import type { ReachOut } from './reach-out.js';

export interface NetworkOptions {
  /** Refs in each `pair-device` (one QR code per ref), 6 like the real network. */
  qrRefs: number;
  /**
   * How long each QR ref stays scannable. Unset: 60 s for the first and 20 s for each next one, as
   * clients show them by default; set it to the client's `qrTimeout` when the client sets one.
   */
  qrTimeoutMs?: number;
  /** Phones acknowledge delivery of what linked devices send them without being told to. */
  autoDeliveryReceipts: boolean;
  /** The server's certificate chain, flawed on purpose to test what clients refuse. */
  certificateFlaw?: CertificateFlaw;
}

/** What the network's parts share: its state and the few calls one part makes into another. */
export interface NetworkContext {
  readonly options: NetworkOptions;
  readonly logger: Logger;
  readonly accounts: Accounts;
  readonly journal: Journal;
  readonly inboxes: Inboxes;
  readonly media: MediaHost;
  /** Who knows whom, and each account's cap and timelock on writing to new contacts. */
  readonly reachOut: ReachOut;
  readonly observer: DeliveryObserver;
  /** A device finished pairing: other devices of the account hear of it, held messages go to it. */
  deviceLinked(device: LinkedDevice): void;
  /** A linked device logged in (its history sync continues). */
  deviceLoggedIn(device: LinkedDevice): void;
}
