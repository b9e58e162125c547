import { randomBytes } from 'node:crypto';
import type { ChatNetwork } from '../networks/chat-network/index.js';
import { decodeQr } from '../../src/infra/qr-decode.js';
import type { Client } from '../helpers/http.js';
import type { Mode } from '../kit/modes.js';
import { eventually } from './sandbox.js';

let nextNumber = 15550000000 + Math.floor(Math.random() * 1_000_000) * 10;
/** A phone number of the local chat network nobody used yet (+digits). */
export const newNetworkPhone = () => `+${nextNumber++}`;

/**
 * The environment a gateway runs CHAT-BAILEYS with against a local network. With PostgreSQL the state
 * key must be given (every node shares it); embedded, the gateway makes one in its data folder.
 */
export function baileysEnv(network: ChatNetwork, mode: Pick<Mode, 'database'>, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ENGINES: 'baileys,sandbox',
    CHAT_NETWORK_URL: network.url,
    CHAT_NETWORK_ROOT_KEY: network.rootKey,
    CHAT_NETWORK_CA_FILE: network.caFile,
    ...(mode.database === 'postgres' ? { ENGINE_STATE_KEY: randomBytes(32).toString('base64') } : {}),
    ...extra,
  };
}

/** Creates a v1 instance, scans the QR code of the create answer with `phone` on the network, waits until connected. */
export async function pairedV1(api: Client, key: string, network: ChatNetwork, name: string, phone = newNetworkPhone()) {
  const created = await api.post('/v1/chat/instances', { key, body: { name } });
  if (created.status !== 201 || !created.body.data.qrCode) throw new Error(`create failed or no QR: ${created.text.slice(0, 300)}`);
  const id = created.body.data.id as string;
  await scanUntilConnected(network, phone, created.body.data.qrCode, async () => {
    const detail = await api.get(`/v1/chat/instances/${id}`, { key });
    if (detail.body.data.status !== 'qr') return { status: detail.body.data.status, qr: null };
    const qr = await api.get(`/v1/chat/instances/${id}/qr`, { key });
    return { status: detail.body.data.status, qr: qr.status === 200 ? (qr.body.data.qrCode as string) : null };
  });
  return { id, phone, secret: created.body.data.webhookSecret as string };
}

/** Creates a session instance, scans the code its detail shows, waits until connected. */
export async function pairedSession(api: Client, cookie: string, network: ChatNetwork, name: string, phone = newNetworkPhone(), body: Record<string, unknown> = {}) {
  const created = await api.post('/chat/instances', { cookie, body: { name, ...body } });
  if (created.status !== 201) throw new Error(`create failed: ${created.text.slice(0, 300)}`);
  const id = created.body.data.instanceId as string;
  const detail = await eventually(() => api.get(`/chat/instances/${id}`, { cookie }), (r) => Boolean(r.body.data?.qrCode), 15_000);
  await scanUntilConnected(network, phone, detail.body.data.qrCode.base64, async () => {
    const now = await api.get(`/chat/instances/${id}`, { cookie });
    return { status: now.body.data.status, qr: (now.body.data.qrCode?.base64 as string | undefined) ?? null };
  });
  return { id, phone, secret: created.body.data.webhookSecret as string };
}

/**
 * Scans the code shown and waits until the instance is connected. When the gateway let go of the
 * pairing socket after the scan (a lease that lapsed on a loaded machine opens a new one), it shows
 * a new code and is still pairing: the phone scans that one, as a person would, and says so.
 */
async function scanUntilConnected(network: ChatNetwork, phone: string, firstQr: string, look: () => Promise<{ status: string; qr: string | null }>) {
  let scanned = decodeQr(firstQr);
  await network.scan(scanned, phone);
  for (let attempt = 1; ; attempt++) {
    try {
      await eventually(look, (now) => now.status === 'connected', 20_000);
      return;
    } catch (error) {
      const now = await look();
      const shown = now.qr ? decodeQr(now.qr) : null;
      if (attempt >= 3 || !shown || shown === scanned) throw error;
      console.warn(`pairing of ${phone} did not take after a scan (status ${now.status}); scanning the code shown now`);
      scanned = shown;
      await network.scan(scanned, phone);
    }
  }
}

/**
 * Sends a poll through an instance to `to` (phone digits or a group id) and waits until each of
 * `phones` holds it; answers the gateway's id of the message and the network's id the votes name.
 */
export async function sentPoll(
  api: Client,
  key: string,
  network: ChatNetwork,
  instanceId: string,
  to: string,
  poll: { name: string; options: string[]; selectableCount?: number },
  phones: string[],
) {
  const sent = await api.post(`/v1/chat/instances/${instanceId}/messages`, { key, body: { to, poll } });
  if (sent.status !== 200) throw new Error(`poll refused: ${sent.text.slice(0, 300)}`);
  const messageId = sent.body.data.id as string;
  const status = await eventually(() => api.get(`/v1/messages/status/${messageId}`, { key }), (r) => Boolean(r.body.data?.networkMessageId), 20_000);
  const pollId = status.body.data.networkMessageId as string;
  for (const phone of phones) await network.waitFor(() => network.inbox(phone).find((m) => m.id === pollId), 20_000, `the poll on ${phone}`);
  return { messageId, pollId };
}
