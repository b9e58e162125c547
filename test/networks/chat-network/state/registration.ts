import type { KeyPair } from 'baileys';
import type { Connection } from '../protocol/connection.js';
import type { Account } from './accounts.js';

/** A QR ref the network handed out, and when a phone may scan it. */
export interface QrRef {
  ref: string;
  from: number;
  until: number;
}

/** A pairing-code request (`companion_hello`) and, once the phone entered a code, the attempt in progress. */
export interface CodeRequest {
  phone: string;
  ref: Buffer;
  wrappedCompanionEphemeral: Buffer;
  attempt?: {
    companionSharedKey: Buffer;
    primaryIdentity: KeyPair;
    resolve(advSecret: Buffer): void;
    reject(error: Error): void;
  };
}

/** A pair-success sent and waiting for the companion's countersignature (`pair-device-sign`). */
export interface PendingLink {
  iqId: string;
  account: Account;
  deviceId: number;
  keyIndex: number;
  deviceDetails: Uint8Array;
  resolve(): void;
  reject(error: Error): void;
}

/** A client connected without credentials, asking to become a linked device. */
export interface Registration {
  connection: Connection;
  noiseKey: Buffer;
  identityKey: Buffer;
  platform: string;
  refs: QrRef[];
  codeRequest?: CodeRequest;
  link?: PendingLink;
  linked: boolean;
}
