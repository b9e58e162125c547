import { afterAll, beforeAll } from 'vitest';
import { startChatNetwork, type ChatNetwork } from '../index.js';
import { pairByQr, trustNetwork, type TestClient } from '../control/test-client.js';

export interface LinkedDevice {
  network: ChatNetwork;
  /** The real client, linked to `phone` by its QR code. */
  client: TestClient;
  phone: string;
}

/**
 * Phone numbers of a file's own: `prefix` keeps files apart, the pid keeps runs apart, the counter
 * the numbers of one file.
 */
export function phoneNumbers(prefix: string): () => string {
  let next = 0;
  return () => `${prefix}${process.pid % 1000}${String(next++).padStart(4, '0')}`;
}

/**
 * Hooks for a file of network tests: before them a local network with one real client linked to a new
 * phone (handed to `started`), after them the client ended and the network closed.
 */
export function withLinkedDevice(newPhone: () => string, started: (linked: LinkedDevice) => void): void {
  let linked: Partial<LinkedDevice> = {};
  beforeAll(async () => {
    const network = await startChatNetwork();
    linked = { network };
    trustNetwork(network);
    const phone = newPhone();
    linked = { network, phone, client: await pairByQr(network, phone) };
    started(linked as LinkedDevice);
  });
  afterAll(async () => {
    await linked.client?.end();
    await linked.network?.close();
  });
}
