import { describe, expect, it } from 'vitest';
import type { ChatNetwork } from '../index.js';
import type { TestClient } from '../control/test-client.js';
import { phoneNumbers, withLinkedDevice } from './linked-device.js';

// The network's reach-out limits as the real client meets them: 463 beyond the cap, the timelock and
// cap answered to its queries, a timelock announced and lifted.

let network: ChatNetwork;
let client: TestClient;
let phone: string;
const newPhone = phoneNumbers('1557');
const jid = (number: string) => `${number}@s.whatsapp.net`;

withLinkedDevice(newPhone, (linked) => ({ network, client, phone } = linked));

/** Sends a text under `id` and answers the error of the network's ack (none when it took the message). */
async function ackError(to: string, text: string): Promise<string | undefined> {
  const id = `REACH${Date.now()}`;
  const ack = new Promise<string | undefined>((resolve) => {
    client.sock.ws.on('CB:ack,class:message', (node: { attrs: Record<string, string> }) => {
      if (node.attrs.id === id) resolve(node.attrs.error);
    });
  });
  await client.sock.sendMessage(jid(to), { text }, { messageId: id });
  return ack;
}

describe('reach-out limits', () => {
  it('beyond the cap a first message to a stranger is 463 and timelocks the account; known contacts still get messages', async () => {
    network.setReachOutCap({ count: 1, windowMs: 60_000 });
    try {
      const [known, first, second] = [newPhone(), newPhone(), newPhone()];
      await network.send(known, phone, { text: 'hi' });
      await client.sock.sendMessage(jid(first), { text: 'first stranger' });
      await network.waitForInbox(first, 1);
      expect(await ackError(second, 'second stranger')).toBe('463');
      expect(network.inbox(second)).toHaveLength(0);
      expect(network.timelockOf(phone)!.until.getTime()).toBeGreaterThan(Date.now());
      await client.sock.sendMessage(jid(known), { text: 'a reply' });
      await network.waitForInbox(known, 1);

      const lock = await client.sock.fetchAccountReachoutTimelock();
      expect(lock.isActive).toBe(true);
      expect(lock.timeEnforcementEnds!.getTime()).toBeGreaterThanOrEqual(network.timelockOf(phone)!.until.getTime());
      const cap = await client.sock.fetchNewChatMessageCap();
      expect(cap).toMatchObject({ total_quota: 1, used_quota: 1, capping_status: 'CAPPED' });
    } finally {
      network.setReachOutCap(null);
      network.setTimelock(phone, null);
    }
  });

  it('a timelock set and lifted is announced to the device', async () => {
    const until = new Date(Date.now() + 60_000);
    const since = client.events.length;
    network.setTimelock(phone, until);
    const set = await client.waitFor('connection.update', (update) => update.reachoutTimeLock?.isActive === true, undefined, since);
    expect(set.reachoutTimeLock!.timeEnforcementEnds!.getTime()).toBe(Math.ceil(until.getTime() / 1000) * 1000);
    network.setTimelock(phone, null);
    await client.waitFor('connection.update', (update) => update.reachoutTimeLock?.isActive === false, undefined, since);
    expect((await client.sock.fetchAccountReachoutTimelock()).isActive).toBe(false);
  });
});
