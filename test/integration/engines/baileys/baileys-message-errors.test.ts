import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNetworkPhone, pairedSession } from '../../../factories/chat-network.js';
import { eventually } from '../../../factories/sandbox.js';
import { MODES } from '../../../kit/modes.js';
import { baileysWorld } from '../../../kit/worlds/baileys.js';
import { PNG_1PX as PNG } from '../../../kit/files.js';

/** A file host that serves a picture once (the check when the message is accepted), then has taken it down. */
async function startVanishingPicture() {
  const served = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const count = (served.get(req.url ?? '') ?? 0) + 1;
    served.set(req.url ?? '', count);
    if (count === 1) res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(MODES)('CHAT-BAILEYS: a failed message says why, as {code, message} — $name', (mode) => {
  const world = baileysWorld(mode);
  let host: Awaited<ReturnType<typeof startVanishingPicture>>;

  beforeAll(async () => {
    host = await startVanishingPicture();
  }, 60_000);
  afterAll(() => host?.close());

  it('media taken down between the send and its hand-over: media_unavailable, in the record, messages.update and GraphQL', async () => {
    const { id } = await pairedSession(world.api, world.tenant.cookie, world.network, `errors ${Date.now()}`, undefined, { webhookUrl: world.receiver.url });
    // The gateway fetches the file when it accepts the message and again when it hands it over: gone by then.
    const sent = await world.api.post(`/chat/instances/${id}/send-media`, {
      cookie: world.tenant.cookie,
      body: { to: newNetworkPhone().slice(1), mediaUrl: `${host.url}/picture-${Date.now()}.png`, mediaType: 'image' },
    });
    expect(sent.status, sent.text).toBe(200);
    const messageId = sent.body.data.id as string;
    const expected = { code: 'media_unavailable', message: 'the media URL answered HTTP 404' };

    const failed = await eventually(() => world.api.get(`/v1/messages/status/${messageId}`, { key: world.tenant.liveKey }), (r) => r.body.data.status === 'failed', 20_000);
    expect(failed.body.data.error).toEqual(expected);
    const [update] = await eventually(
      async () => world.receiver.of('messages.update').map((call) => JSON.parse(call.body).data).filter((data) => data.key?.id === messageId && data.status === 'failed'),
      (list) => list.length === 1,
    );
    expect(update.error).toEqual(expected);
    const byGraphql = await world.api.graphql('query ($id: ID!) { node(id: $id) { ... on Message { error { code message } } } }', { id: messageId }, { cookie: world.tenant.cookie });
    expect(byGraphql.body.data.node.error).toEqual(expected);
  });
});
