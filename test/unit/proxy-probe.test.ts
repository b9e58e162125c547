import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxyCheckFailed } from '../../src/domain/settings/settings.ports.js';
import { createProxyProbe } from '../../src/infra/proxy/proxy-probe.js';
import { type ConnectProxy, startConnectProxy } from '../helpers/connect-proxy.js';
import { startExitAddressServer } from '../helpers/exit-address.js';
import { type Socks5Proxy, startSocks5Proxy } from '../helpers/socks5-proxy.js';

const PASSWORD = 'pr0xy-pa55word';

describe('the proxy probe: the exit address through HTTP CONNECT or SOCKS5, or a failure that names no password', () => {
  let checker: Awaited<ReturnType<typeof startExitAddressServer>>;
  let http: ConnectProxy;
  let socks: Socks5Proxy;
  let silent: { port: number; close: () => Promise<void> };

  beforeAll(async () => {
    checker = await startExitAddressServer();
    http = await startConnectProxy({ username: 'ana', password: PASSWORD, outboundAddress: '127.0.0.2' });
    socks = await startSocks5Proxy({ username: 'ana', password: PASSWORD, outboundAddress: '127.0.0.3' });
    // Takes connections and never says a word: a proxy that hangs.
    const held = new Set<Socket>();
    const server = createServer((socket) => void held.add(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    silent = {
      port: (server.address() as { port: number }).port,
      close: () => {
        for (const socket of held) socket.destroy();
        return new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  });
  afterAll(async () => {
    await Promise.all([checker?.close(), http?.close(), socks?.close(), silent?.close()]);
  });

  const probe = (timeoutMs = 2_000, allowInsecure = true) => createProxyProbe({ checkUrl: checker.url, timeoutMs, allowInsecure });
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.unreachable('the check passed'),
      (error: unknown) => {
        expect(error).toBeInstanceOf(ProxyCheckFailed);
        expect((error as Error).message).not.toContain(PASSWORD);
        return (error as Error).message;
      },
    );

  it('answers the address the check URL saw through each kind of proxy', async () => {
    expect(await probe().exitAddress(http.url)).toBe('127.0.0.2');
    expect(await probe().exitAddress(socks.url)).toBe('127.0.0.3');
    expect(await probe().exitAddress(socks.url.replace('socks5:', 'socks5h:'))).toBe('127.0.0.3');
  });

  it('refused credentials, a closed port and a proxy that never answers fail, the last within the timeout', async () => {
    expect(await failure(probe().exitAddress(http.url.replace(PASSWORD, 'wrong')))).toContain('407');
    expect(await failure(probe().exitAddress(socks.url.replace(PASSWORD, 'wrong')))).toContain('Authentication failed');
    const started = Date.now();
    expect(await failure(probe(300).exitAddress(`http://ana:${PASSWORD}@127.0.0.1:${silent.port}`))).toContain('300 ms');
    expect(await failure(probe(300).exitAddress(`socks5://ana:${PASSWORD}@127.0.0.1:${silent.port}`))).toContain('300 ms');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('a proxy on a loopback or private address is refused without connecting, unless insecure URLs are allowed', async () => {
    const before = http.carried().length + http.refused().length;
    expect(await failure(probe(2_000, false).exitAddress(http.url))).toContain('non-public address 127.0.0.1');
    expect(await failure(probe(2_000, false).exitAddress(`socks5://ana:${PASSWORD}@10.0.0.1:1080`))).toContain('non-public address 10.0.0.1');
    expect(http.carried().length + http.refused().length).toBe(before);
  });
});
