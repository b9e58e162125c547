import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baileysEnv, newNetworkPhone, pairedV1 } from '../../../factories/chat-network.js';
import { eventually } from '../../../factories/sandbox.js';
import { type ConnectProxy, startConnectProxy } from '../../../helpers/connect-proxy.js';
import { startExitAddressServer } from '../../../helpers/exit-address.js';
import { client } from '../../../helpers/http.js';
import { type Socks5Proxy, startSocks5Proxy } from '../../../helpers/socks5-proxy.js';
import { PNG_1PX } from '../../../kit/files.js';
import { startTestGateway } from '../../../kit/gateway.js';
import { MODES } from '../../../kit/modes.js';
import { baileysWorld } from '../../../kit/worlds/baileys.js';
import { decodeQr } from '../../../../src/infra/qr-decode.js';

const sha256 = (bytes: Uint8Array | null) => (bytes ? createHash('sha256').update(bytes).digest('hex') : null);
const HTTP_PASSWORD = `http-pw-${randomBytes(6).toString('hex')}`;
const SOCKS_PASSWORD = `socks-pw-${randomBytes(6).toString('hex')}`;
/** Each proxy connects out from a loopback address of its own: the network tells by the address what came through which. */
const HTTP_EXIT = '127.0.0.2';
const SOCKS_EXIT = '127.0.0.3';

/** A port nothing listens on (a proxy that refuses every connection). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.each(MODES)('CHAT-BAILEYS through a proxy per instance: the socket, media up and media down, nothing around it — $name', (mode) => {
  // At debug level the library's own warnings and errors are in the logs too, for the password check at the end.
  const env: Record<string, string> = { MEDIA_STORE: 'folder', ENGINE_STATE_KEY: randomBytes(32).toString('base64'), LOG_LEVEL: 'debug' };
  let checker: Awaited<ReturnType<typeof startExitAddressServer>>;
  let httpProxy: ConnectProxy;
  let socksProxy: Socks5Proxy;
  // Started before the world, which reads PROXY_CHECK_URL from `env` as it starts the gateway.
  beforeAll(async () => {
    checker = await startExitAddressServer();
    env.PROXY_CHECK_URL = checker.url;
    httpProxy = await startConnectProxy({ username: 'ana', password: HTTP_PASSWORD, outboundAddress: HTTP_EXIT });
    socksProxy = await startSocks5Proxy({ username: 'bea', password: SOCKS_PASSWORD, outboundAddress: SOCKS_EXIT });
  });
  afterAll(async () => {
    await httpProxy?.close();
    await socksProxy?.close();
    await checker?.close();
  });
  const world = baileysWorld(mode, { env, files: { '/picture.png': { type: 'image/png', body: PNG_1PX } } });
  let instance: { id: string; phone: string };
  let key: string;
  const gatewayLogs: string[][] = [];

  beforeAll(async () => {
    key = world.tenant.liveKey;
    instance = await pairedV1(world.api, key, world.network, `proxied ${Date.now()}`);
    const hooked = await world.api.post(`/v1/chat/instances/${instance.id}/webhook`, { key, body: { url: `${world.receiver.url}/proxy` } });
    expect(hooked.status, hooked.text).toBe(200);
  }, 90_000);

  const settings = (body: Record<string, unknown>) => world.api.put(`/v1/chat/instances/${instance.id}/settings`, { key, body });
  const mediaTunnels = (proxy: { carried: () => Array<{ target: string }> }) => proxy.carried().filter((tunnel) => tunnel.target === world.network.mediaHost).length;
  const socketTarget = () => new URL(world.network.url).host;
  const messageStatus = (messageId: string) => world.api.get(`/v1/messages/status/${messageId}`, { key });

  /** An image the instance sends: the phone decodes it, its upload having gone to the media host. */
  async function sendImage(to: string) {
    const sent = await world.api.post(`/v1/chat/instances/${instance.id}/messages`, { key, body: { to, media: { url: `${world.files.url}/picture.png` }, mediaType: 'image' } });
    expect(sent.status, sent.text).toBe(200);
    const status = await eventually(() => messageStatus(sent.body.data.id), (r) => Boolean(r.body.data?.networkMessageId), 30_000);
    const networkId = status.body.data.networkMessageId as string;
    const onPhone = await world.network.waitFor(() => world.network.inbox(to).find((entry) => entry.id === networkId), 20_000, 'the image on the phone');
    expect(onPhone).toMatchObject({ type: 'image', mimetype: 'image/png', mediaError: null });
    expect(sha256(onPhone.bytes)).toBe(sha256(PNG_1PX));
  }

  /** An image a phone sends the instance: the gateway's id of it, once its webhook came. */
  async function receiveImage(from: string, bytes: Buffer): Promise<string> {
    await world.network.send(from, instance.phone, { image: { mimetype: 'image/jpeg', bytes } });
    const [hook] = await eventually(
      async () => world.receiver.of('messages.upsert').map((call) => JSON.parse(call.body)).filter((body) => body.instanceId === instance.id && body.data.from === from),
      (list) => list.length === 1,
      20_000,
    );
    return hook.data.messageId as string;
  }

  async function downloaded(messageId: string) {
    const answer = await fetch(`${world.gw.url}/v1/messages/${messageId}/media`, { headers: { authorization: `Bearer ${key}` } });
    expect(answer.status).toBe(200);
    return new Uint8Array(await answer.arrayBuffer());
  }

  /**
   * With the proxy set: the socket connects again through it, an image goes up and two come down (one
   * fetched by GET …/media from the network, one kept by the keeper), each in a tunnel of its own.
   */
  async function everythingThrough(proxy: ConnectProxy | Socks5Proxy, exit: string, since: Date) {
    await world.network.waitFor(() => world.network.peers().some((peer) => peer.service === 'socket' && peer.address === exit && peer.at >= since), 20_000, `the socket through ${exit}`);
    expect(proxy.carried().map((tunnel) => tunnel.target)).toContain(socketTarget());
    const contact = newNetworkPhone().slice(1);

    let tunnels = mediaTunnels(proxy);
    await sendImage(contact);
    expect(mediaTunnels(proxy)).toBeGreaterThan(tunnels);

    // Not kept: the download is the network's copy, fetched for this request.
    expect((await settings({ media: { keep: 'none' } })).status).toBe(200);
    const fetchedBytes = randomBytes(20_003);
    const fetched = await receiveImage(contact, fetchedBytes);
    tunnels = mediaTunnels(proxy);
    expect(sha256(await downloaded(fetched))).toBe(sha256(fetchedBytes));
    expect(mediaTunnels(proxy)).toBeGreaterThan(tunnels);

    // Kept (the default): the keeper fetches it from the network, then the download is the kept copy.
    expect((await settings({ media: null })).status).toBe(200);
    const keptBytes = randomBytes(30_007);
    tunnels = mediaTunnels(proxy);
    const kept = await receiveImage(newNetworkPhone().slice(1), keptBytes);
    await eventually(() => messageStatus(kept), (r) => r.body.data?.media?.stored === true, 20_000);
    expect(mediaTunnels(proxy)).toBeGreaterThan(tunnels);
    expect(sha256(await downloaded(kept))).toBe(sha256(keptBytes));

    // Nothing reached the network from the gateway's own address since the proxy was set.
    const around = world.network.peers().filter((peer) => peer.at >= since && peer.address !== exit);
    expect(around).toEqual([]);
  }

  it('an HTTP proxy, then a SOCKS5 one: each checked (its exit address reported), then carrying everything; kept across a restart', async () => {
    const httpSince = new Date();
    const viaHttp = await settings({ proxy: { url: httpProxy.url } });
    expect(viaHttp.status, viaHttp.text).toBe(200);
    expect(viaHttp.body.data.proxy).toEqual({ url: `http://ana:***@127.0.0.1:${httpProxy.port}`, exitAddress: HTTP_EXIT, checkedAt: expect.any(String) });
    await everythingThrough(httpProxy, HTTP_EXIT, httpSince);

    const socksSince = new Date();
    const viaSocks = await settings({ proxy: { url: socksProxy.url } });
    expect(viaSocks.status, viaSocks.text).toBe(200);
    expect(viaSocks.body.data.proxy).toEqual({ url: `socks5://bea:***@127.0.0.1:${socksProxy.port}`, exitAddress: SOCKS_EXIT, checkedAt: expect.any(String) });
    const httpTunnels = httpProxy.carried().length;
    await everythingThrough(socksProxy, SOCKS_EXIT, socksSince);
    // The HTTP proxy was let go: nothing went through it any more.
    expect(httpProxy.carried().length).toBe(httpTunnels);

    // A restart reads the proxy back from where it is kept: the session connects through it at once.
    const first = world.gw;
    gatewayLogs.push(first.logs.lines);
    await first.gateway.close();
    const restartedAt = new Date();
    world.gw = await startTestGateway(mode, { env: { ...baileysEnv(world.network, mode, { WEBHOOK_ALLOW_INSECURE: 'true' }), ...env }, reuse: first });
    world.api = client(world.gw.url);
    await world.network.waitFor(() => world.network.peers().some((peer) => peer.service === 'socket' && peer.address === SOCKS_EXIT && peer.at >= restartedAt), 20_000, 'the socket through the SOCKS proxy after the restart');
    const shown = await world.api.get(`/v1/chat/instances/${instance.id}/settings`, { key });
    expect(shown.body.data.proxy).toEqual(viaSocks.body.data.proxy);
    const tunnels = mediaTunnels(socksProxy);
    const bytes = randomBytes(10_001);
    expect((await settings({ media: { keep: 'none' } })).status).toBe(200);
    const received = await receiveImage(newNetworkPhone().slice(1), bytes);
    expect(sha256(await downloaded(received))).toBe(sha256(bytes));
    expect(mediaTunnels(socksProxy)).toBeGreaterThan(tunnels);
    expect(world.network.peers().filter((peer) => peer.at >= restartedAt && peer.address !== SOCKS_EXIT)).toEqual([]);

    // Without a proxy the instance connects directly again.
    const directSince = new Date();
    const direct = await settings({ proxy: null, media: null });
    expect(direct.body.data.proxy).toBeNull();
    await world.network.waitFor(() => world.network.peers().some((peer) => peer.service === 'socket' && peer.address === '127.0.0.1' && peer.at >= directSince), 20_000, 'the socket without a proxy');
  }, 180_000);

  it('a proxy set while pairing: the pairing starts again through it, and the phone links the instance through it', async () => {
    const created = await world.api.post('/v1/chat/instances', { key, body: { name: `pairing through a proxy ${Date.now()}` } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as string;
    // Asked for once, as a person would: the instance shows its codes from now on.
    const first = await world.api.get(`/v1/chat/instances/${id}/qr`, { key });
    expect(first.status, first.text).toBe(200);
    const firstQr = decodeQr(first.body.data.qrCode);
    const since = new Date();
    const set = await world.api.put(`/v1/chat/instances/${id}/settings`, { key, body: { proxy: { url: socksProxy.url } } });
    expect(set.status, set.text).toBe(200);
    // The codes shown before came from a socket without the proxy: a new one shows its own.
    const shown = await eventually(
      () => world.api.get(`/v1/chat/instances/${id}/qr`, { key }),
      (r) => r.status === 200 && decodeQr(r.body.data.qrCode) !== firstQr,
      20_000,
    );
    const phone = newNetworkPhone();
    await world.network.scan(decodeQr(shown.body.data.qrCode), phone);
    await eventually(() => world.api.get(`/v1/chat/instances/${id}`, { key }), (r) => r.body.data.status === 'connected', 30_000);
    const linked = world.network.peers().filter((peer) => peer.at >= since);
    expect(linked.filter((peer) => peer.service === 'socket').length).toBeGreaterThanOrEqual(2);
    expect(linked.filter((peer) => peer.address !== SOCKS_EXIT)).toEqual([]);
    expect((await world.api.delete(`/v1/chat/instances/${id}`, { key })).status).toBe(200);
  }, 90_000);

  it('a proxy that refuses, or refuses the credentials, is 422 proxy_unreachable naming it without its password; a bad URL is 400 on proxy.url; nothing changes', async () => {
    const before = (await world.api.get(`/v1/chat/instances/${instance.id}/settings`, { key })).body.data;
    const port = await closedPort();
    const refused = await settings({ proxy: { url: `http://ana:${HTTP_PASSWORD}@127.0.0.1:${port}` } });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.error.code).toBe('proxy_unreachable');
    expect(refused.body.error.message).toContain(`http://ana:***@127.0.0.1:${port}`);
    expect(refused.body.error.message).toContain('ECONNREFUSED');

    const wrongPassword = await settings({ proxy: { url: httpProxy.url.replace(HTTP_PASSWORD, 'not-it') } });
    expect(wrongPassword.status, wrongPassword.text).toBe(422);
    expect(wrongPassword.body.error).toMatchObject({ code: 'proxy_unreachable', message: expect.stringContaining('407') });
    const socksRefused = await settings({ proxy: { url: socksProxy.url.replace(SOCKS_PASSWORD, 'not-it') } });
    expect(socksRefused.status, socksRefused.text).toBe(422);
    expect(socksRefused.body.error.message).toContain(`socks5://bea:***@127.0.0.1:${socksProxy.port}`);
    expect(socksProxy.refusedLogins()).toBeGreaterThan(0);

    for (const url of ['socks5://bea:pw@127.0.0.1', 'ftp://127.0.0.1:21', 'http://127.0.0.1:8080/path']) {
      const bad = await settings({ proxy: { url } });
      expect(bad.status, bad.text).toBe(400);
      expect(bad.body.error.message).toMatch(/^proxy\.url/);
    }
    for (const answer of [refused, wrongPassword, socksRefused]) expect(answer.text).not.toMatch(new RegExp(`${HTTP_PASSWORD}|${SOCKS_PASSWORD}`));
    expect((await world.api.get(`/v1/chat/instances/${instance.id}/settings`, { key })).body.data).toEqual(before);
  });

  it('the logs never carry a proxy password', () => {
    for (const lines of [...gatewayLogs, world.gw.logs.lines]) {
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.filter((line) => line.includes(HTTP_PASSWORD) || line.includes(SOCKS_PASSWORD))).toEqual([]);
    }
  });
});
