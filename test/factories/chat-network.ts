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
  await network.scan(decodeQr(created.body.data.qrCode), phone);
  await eventually(() => api.get(`/v1/chat/instances/${id}`, { key }), (r) => r.body.data.status === 'connected', 20_000);
  return { id, phone, secret: created.body.data.webhookSecret as string };
}

/** Creates a session instance, scans the code its detail shows, waits until connected. */
export async function pairedSession(api: Client, cookie: string, network: ChatNetwork, name: string, phone = newNetworkPhone(), body: Record<string, unknown> = {}) {
  const created = await api.post('/chat/instances', { cookie, body: { name, ...body } });
  if (created.status !== 201) throw new Error(`create failed: ${created.text.slice(0, 300)}`);
  const id = created.body.data.instanceId as string;
  const detail = await eventually(() => api.get(`/chat/instances/${id}`, { cookie }), (r) => Boolean(r.body.data?.qrCode), 15_000);
  await network.scan(decodeQr(detail.body.data.qrCode.base64), phone);
  await eventually(() => api.get(`/chat/instances/${id}`, { cookie }), (r) => r.body.data.status === 'connected', 20_000);
  return { id, phone, secret: created.body.data.webhookSecret as string };
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
