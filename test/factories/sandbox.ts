import type { Client } from '../helpers/http.js';
import { decodeQr } from '../../src/infra/qr-decode.js';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T;
  do {
    last = await read();
    if (accept(last)) return last;
    await sleep(50);
  } while (Date.now() < deadline);
  throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(last)}`);
}

let nextPhone = 5511900000000 + Math.floor(Math.random() * 1_000_000) * 10;
export const newPhone = () => `+${nextPhone++}`;

/** Creates a v1 instance, scans its QR code through the sandbox and waits until it is connected. */
export async function connectedV1Instance(api: Client, key: string, name: string, phone = newPhone()) {
  const created = await api.post('/v1/chat/instances', { key, body: { name } });
  if (created.status !== 201) throw new Error(`create failed: ${created.text}`);
  const qr = await api.get(`/v1/chat/instances/${created.body.data.id}/qr`, { key });
  const scan = await api.post('/sandbox/scan', { body: { code: decodeQr(qr.body.data.qrCode), phone } });
  if (scan.status !== 200) throw new Error(`scan failed: ${scan.text}`);
  return { id: created.body.data.id as string, phone, secret: created.body.data.webhookSecret as string };
}

/** Creates a session instance, waits for its automatic QR code, scans it and waits until connected. */
export async function connectedSessionInstance(api: Client, cookie: string, name: string, phone = newPhone()) {
  const created = await api.post('/chat/instances', { cookie, body: { name } });
  if (created.status !== 201) throw new Error(`create failed: ${created.text}`);
  const id = created.body.data.instanceId as string;
  const detail = await eventually(() => api.get(`/chat/instances/${id}`, { cookie }), (r) => Boolean(r.body.data?.qrCode));
  await api.post('/sandbox/scan', { body: { code: decodeQr(detail.body.data.qrCode.base64), phone } });
  return { id, phone };
}

export function phoneInbox(api: Client, phone: string) {
  return api.get(`/sandbox/phones/${phone.replace('+', '')}/messages`);
}
