/**
 * The engine's library alone, in a process of its own as the gateway is, sending on the same local chat network;
 * `engine.ts` drives it over IPC (docs/benchmarks.md, "Each benchmark in detail").
 */
import { connectClient, memoryAuth, trustNetwork, type TestClient } from '../networks/chat-network/control/test-client.js';
import type { ChatNetwork } from '../networks/chat-network/index.js';

export type ToLibrary =
  | { kind: 'pair'; network: Pick<ChatNetwork, 'url' | 'rootKey' | 'caPem' | 'controlUrl'>; phones: string[] }
  /** Message n goes from client senders[n] to recipients[n % recipients.length], `concurrency` at a time. */
  | { kind: 'send'; count: number; concurrency: number; recipients: string[]; prefix: string; senders: number[] }
  | { kind: 'close' };

export type FromLibrary = { kind: 'paired' } | { kind: 'sent'; sentAt: Array<[string, number]> } | { kind: 'failed'; message: string };

const clients: TestClient[] = [];
const tell = (message: FromLibrary) => process.send!(message);

async function pair(network: Extract<ToLibrary, { kind: 'pair' }>['network'], phone: string): Promise<TestClient> {
  const scan = async (qr: string) => {
    const answer = await fetch(`${network.controlUrl}/control/scan`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ qr, phone }) });
    if (!answer.ok) throw new Error(`scan answered ${answer.status}: ${await answer.text()}`);
  };
  const target = network as unknown as ChatNetwork;
  const auth = memoryAuth();
  const registering = connectClient(target, auth);
  const { qr } = await registering.waitFor('connection.update', (update) => !!update.qr, 120_000);
  await scan(qr!);
  const code = await registering.closed;
  if (code !== 515) throw new Error(`expected a restart (515) after pairing, got ${code}`);
  const client = connectClient(target, auth);
  await client.waitFor('connection.update', (update) => update.connection === 'open', 120_000);
  return client;
}

async function handle(message: ToLibrary) {
  if (message.kind === 'pair') {
    trustNetwork(message.network);
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < message.phones.length) {
          const n = next++;
          clients[n] = await pair(message.network, message.phones[n]!);
        }
      }),
    );
    tell({ kind: 'paired' });
  } else if (message.kind === 'send') {
    const sentAt: Array<[string, number]> = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: message.concurrency }, async () => {
        while (next < message.count) {
          const n = next++;
          const text = `${message.prefix} ${n}`;
          sentAt.push([text, Date.now()]);
          await clients[message.senders[n]!]!.sock.sendMessage(`${message.recipients[n % message.recipients.length]}@s.whatsapp.net`, { text });
        }
      }),
    );
    tell({ kind: 'sent', sentAt });
  } else {
    await Promise.all(clients.map((client) => client.end().catch(() => {})));
    process.exit(0);
  }
}

process.on('message', (message: ToLibrary) => {
  handle(message).catch((error: unknown) => {
    tell({ kind: 'failed', message: String((error as Error)?.stack ?? error) });
  });
});
