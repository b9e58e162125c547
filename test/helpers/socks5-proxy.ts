import { connect, createServer, isIPv6, type Socket } from 'node:net';
import type { Carried } from './connect-proxy.js';

/** Reads exact byte counts from a socket as they arrive (a SOCKS handshake comes in pieces of any size). */
class Reader {
  private buffered = Buffer.alloc(0);
  private waiting: { size: number; resolve: (bytes: Buffer) => void } | undefined;

  constructor(private readonly socket: Socket) {
    socket.on('data', this.onData);
  }

  private readonly onData = (chunk: Buffer) => {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    this.settle();
  };

  private settle() {
    if (!this.waiting || this.buffered.length < this.waiting.size) return;
    const { size, resolve } = this.waiting;
    this.waiting = undefined;
    const bytes = this.buffered.subarray(0, size);
    this.buffered = this.buffered.subarray(size);
    resolve(bytes);
  }

  read(size: number): Promise<Buffer> {
    return new Promise((resolve) => {
      this.waiting = { size, resolve };
      this.settle();
    });
  }

  /** The handshake is over: what came after it, and the socket for piping. */
  release(): Buffer {
    this.socket.off('data', this.onData);
    return this.buffered;
  }
}

/**
 * A SOCKS5 proxy for tests (RFC 1928, CONNECT only, with username and password, RFC 1929): it carries
 * each connection from `outboundAddress` (another loopback address such as 127.0.0.3) and counts them.
 */
export async function startSocks5Proxy(options: { username: string; password: string; outboundAddress: string }) {
  const carried: Carried[] = [];
  let refusedLogins = 0;
  const open = new Set<Socket>();

  async function handshake(client: Socket) {
    const reader = new Reader(client);
    const [version, methodCount] = await reader.read(2);
    const methods = await reader.read(methodCount!);
    if (version !== 5 || !methods.includes(0x02)) return void client.end(Buffer.from([5, 0xff]));
    client.write(Buffer.from([5, 0x02]));
    const [, userLength] = await reader.read(2);
    const user = (await reader.read(userLength!)).toString();
    const [passwordLength] = await reader.read(1);
    const password = (await reader.read(passwordLength!)).toString();
    if (user !== options.username || password !== options.password) {
      refusedLogins++;
      return void client.end(Buffer.from([1, 1]));
    }
    client.write(Buffer.from([1, 0]));
    const [, command, , addressType] = await reader.read(4);
    let host: string;
    if (addressType === 1) host = [...(await reader.read(4))].join('.');
    else if (addressType === 3) host = (await reader.read((await reader.read(1))[0]!)).toString();
    else host = ((await reader.read(16)).toString('hex').match(/.{4}/g) ?? []).join(':');
    const port = (await reader.read(2)).readUInt16BE(0);
    const reply = (code: number) => Buffer.from([5, code, 0, 1, 0, 0, 0, 0, 0, 0]);
    if (command !== 1) return void client.end(reply(7));
    const upstream = connect({ host, port, localAddress: isIPv6(host) ? undefined : options.outboundAddress });
    open.add(upstream);
    let established = false;
    upstream.once('connect', () => {
      established = true;
      carried.push({ target: `${isIPv6(host) ? `[${host}]` : host}:${port}`, at: new Date() });
      client.write(reply(0));
      const early = reader.release();
      if (early.length) upstream.write(early);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    const end = () => {
      open.delete(upstream);
      upstream.destroy();
      client.destroy();
    };
    upstream.once('error', () => {
      if (!established && !client.destroyed) client.end(reply(5));
      end();
    });
    upstream.once('close', end);
    client.once('close', end);
  }

  const server = createServer((client) => {
    open.add(client);
    client.on('error', () => client.destroy());
    client.once('close', () => open.delete(client));
    handshake(client).catch(() => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };

  return {
    port,
    url: `socks5://${encodeURIComponent(options.username)}:${encodeURIComponent(options.password)}@127.0.0.1:${port}`,
    /** Connections it opened, in order. */
    carried: () => [...carried],
    /** Logins refused for wrong credentials. */
    refusedLogins: () => refusedLogins,
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Socks5Proxy = Awaited<ReturnType<typeof startSocks5Proxy>>;
