import { createServer } from 'node:http';
import { connect, type Socket } from 'node:net';

/** A connection a test proxy carried: where the client asked to go, and when. */
export interface Carried {
  target: string;
  at: Date;
}

/**
 * An HTTP CONNECT proxy for tests, with Basic credentials: it carries each tunnel from `outboundAddress`
 * (another loopback address such as 127.0.0.2, so a server can tell what came through it) and counts them.
 */
export async function startConnectProxy(options: { username: string; password: string; outboundAddress: string }) {
  const carried: Carried[] = [];
  const refused: string[] = [];
  const open = new Set<Socket>();
  const expected = `Basic ${Buffer.from(`${options.username}:${options.password}`).toString('base64')}`;

  const server = createServer((_req, res) => {
    res.writeHead(405).end();
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    if (req.headers['proxy-authorization'] !== expected) {
      refused.push(target);
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const [host, port] = [target.slice(0, target.lastIndexOf(':')).replace(/^\[|\]$/g, ''), Number(target.slice(target.lastIndexOf(':') + 1))];
    const upstream = connect({ host, port, localAddress: options.outboundAddress });
    open.add(client).add(upstream);
    let established = false;
    upstream.once('connect', () => {
      established = true;
      carried.push({ target, at: new Date() });
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    const end = () => {
      open.delete(client);
      open.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    upstream.once('error', () => {
      if (!established && !client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
      end();
    });
    upstream.once('close', end);
    client.once('error', end).once('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };

  return {
    port,
    url: `http://${encodeURIComponent(options.username)}:${encodeURIComponent(options.password)}@127.0.0.1:${port}`,
    /** Tunnels it opened, in order. */
    carried: () => [...carried],
    /** Targets asked for with wrong or no credentials. */
    refused: () => [...refused],
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type ConnectProxy = Awaited<ReturnType<typeof startConnectProxy>>;
