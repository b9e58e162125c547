import { connect, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a server (PostgreSQL in the fault tests) that can be told to stall
 * (connections stay open, nothing is forwarded either way) or to cut (every connection is reset,
 * new ones are refused at once), and then to behave again.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  let mode: 'open' | 'stalled' | 'cut' = 'open';
  const pairs = new Set<{ client: Socket; upstream: Socket }>();

  const server = createServer((client) => {
    if (mode === 'cut') {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    const pair = { client, upstream };
    pairs.add(pair);
    if (mode === 'stalled') {
      client.pause();
      upstream.pause();
    } else {
      client.pipe(upstream);
      upstream.pipe(client);
    }
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };

  return {
    port,
    /**
     * Connections stay open but nothing gets through: bytes wait unread, as with a paused server or
     * a congested route, and flow again on `restore`.
     */
    stall() {
      mode = 'stalled';
      for (const { client, upstream } of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    /** Every open connection is reset; new ones are refused until `restore`. */
    cut() {
      mode = 'cut';
      for (const { client, upstream } of pairs) {
        client.resetAndDestroy();
        upstream.destroy();
      }
      pairs.clear();
    },
    /** Traffic flows again; what waited during a stall is delivered. */
    restore() {
      if (mode === 'stalled') {
        for (const { client, upstream } of pairs) {
          client.pipe(upstream);
          upstream.pipe(client);
        }
      }
      mode = 'open';
    },
    async close() {
      this.cut();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type TcpProxy = Awaited<ReturnType<typeof startTcpProxy>>;
