import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** A webhook receiver on loopback; `answer` decides each reply from the number of calls so far. */
export async function startReceiver(answer: (call: number, received: Received) => { status: number; delayMs?: number; headers?: Record<string, string> } = () => ({ status: 200 })) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const entry = { headers: req.headers, body, at: Date.now() };
      received.push(entry);
      const { status, delayMs = 0, headers = {} } = answer(received.length, entry);
      setTimeout(() => {
        if (!res.destroyed) res.writeHead(status, headers).end('ok');
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    /** Deliveries of one event name, parsed. */
    of: (event: string) => received.filter((r) => r.headers['x-webhook-event'] === event),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
