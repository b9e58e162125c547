// Helpers for the Cloud API server's own tests: a webhook receiver that keeps the raw bytes, and Graph calls.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startCloudApi, type AddNumber, type CloudApi, type CloudApiOptions } from './index.js';

export interface Hit {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  text: string;
  at: number;
}

/**
 * A `node:http` receiver standing in for the gateway: GET verifies like the gateway must; POSTs are answered
 * with the status `answer` picks from the POST's number (1-based).
 */
export async function startReceiver(answer: (call: number, hit: Hit) => number = () => 200, verifyToken = 'verify-me') {
  const hits: Hit[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const hit: Hit = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, raw, text: raw.toString('utf8'), at: Date.now() };
      hits.push(hit);
      if (hit.method === 'GET') {
        // Verification, answered as the gateway must: the challenge as text, or 403.
        const query = new URL(hit.url, 'http://x').searchParams;
        const ok = query.get('hub.mode') === 'subscribe' && query.get('hub.verify_token') === verifyToken;
        res.writeHead(ok ? 200 : 403, { 'content-type': 'text/plain' }).end(ok ? (query.get('hub.challenge') ?? '') : 'Forbidden');
      } else {
        const status = answer(hits.filter((h) => h.method === 'POST').length, hit);
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'EVENT_RECEIVED' : 'no');
      }
      for (const waiter of [...waiters]) waiter();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/cloud`;
  return {
    url,
    hits,
    /** Parsed bodies of the POSTs. */
    bodies: () => hits.filter((h) => h.method === 'POST').map((h) => JSON.parse(h.text) as Envelope),
    /** Resolves once `count` POSTs arrived. */
    waitFor(count: number, timeoutMs = 10_000): Promise<Hit[]> {
      const posts = () => hits.filter((h) => h.method === 'POST');
      if (posts().length >= count) return Promise.resolve(posts());
      return new Promise((resolve, reject) => {
        const check = () => {
          if (posts().length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(posts());
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver got ${posts().length} POSTs, expected ${count}`));
        }, timeoutMs);
        waiters.add(check);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** What a receiver does (PYWA `webhook_updates_validator`): HMAC over the raw bytes, constant-time compare. */
export function signatureValid(appSecret: string, raw: Buffer, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const expected = Buffer.from(createHmac('sha256', appSecret).update(raw).digest('hex'));
  const given = Buffer.from(header.slice('sha256='.length));
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export interface Envelope {
  object: string;
  entry: Array<{ id: string; changes: Array<{ field: string; value: Record<string, any> }> }>;
}

export const NUMBER: AddNumber = {
  phoneNumberId: '106540352242922',
  displayPhoneNumber: '15550783881',
  accessToken: 'EAAG-token-one',
  appSecret: 'app-secret-one',
  businessAccountId: '102290129340398',
  verifiedName: 'Sheena Shop',
};

export const USER = '16505551234';

/** A server with one number and a receiver as its webhook; fast retries for tests. */
export async function setup(options: CloudApiOptions = {}, answer?: (call: number, hit: Hit) => number) {
  const api = await startCloudApi({ webhookRetryDelaysMs: [50, 100, 200], statusDelayMs: 10, ...options });
  api.addNumber(NUMBER);
  const receiver = await startReceiver(answer);
  api.setWebhook(receiver.url, 'verify-me');
  const close = async () => {
    await api.close();
    await receiver.close();
  };
  return { api, receiver, close };
}

/** A Graph call with the number's token unless another (or none: null) is given. */
export async function graph(api: CloudApi, method: string, path: string, body?: unknown, token: string | null = NUMBER.accessToken) {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: { ...(token !== null ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export const sendText = (api: CloudApi, body = 'hello', to = USER, token?: string | null) =>
  graph(api, 'POST', `/v23.0/${NUMBER.phoneNumberId}/messages`, { messaging_product: 'whatsapp', recipient_type: 'individual', to, type: 'text', text: { body } }, token);

export async function control(api: CloudApi, method: string, path: string, body?: unknown) {
  const response = await fetch(`${api.url}/control${path}`, {
    method,
    ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, json: JSON.parse(text) as { success: boolean; data?: any; error?: { code: string; message: string } } };
}

/** The statuses of all POSTs so far, in arrival order. */
export function statusesOf(receiver: Receiver, wamid?: string): Array<Record<string, any>> {
  return receiver
    .bodies()
    .flatMap((b) => b.entry.flatMap((e) => e.changes.flatMap((c) => (c.value.statuses ?? []) as Array<Record<string, any>>)))
    .filter((s) => wamid === undefined || s.id === wamid);
}

/** The inbound messages of all POSTs so far. */
export function messagesOf(receiver: Receiver): Array<Record<string, any>> {
  return receiver.bodies().flatMap((b) => b.entry.flatMap((e) => e.changes.flatMap((c) => (c.value.messages ?? []) as Array<Record<string, any>>)));
}

/** Polls `read` until `accept` holds (for conditions with no event to wait on, like a URL's expiry). */
export async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms; last: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
