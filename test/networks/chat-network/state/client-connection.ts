import { Connection } from '../protocol/connection.js';
import type { LinkedDevice } from './accounts.js';
import type { Registration } from './registration.js';

/** A client's connection as the network knows it: the wire below, and who the client turned out to be. */
export class ClientConnection extends Connection {
  /** Set once the client logged in as a linked device. */
  device?: LinkedDevice;
  /** Set while the client registers (shows QR codes or asks for a pairing code). */
  registration?: Registration;
}
