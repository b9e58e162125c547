import { beforeAll, describe, expect, it } from 'vitest';
import { connectedV1Instance, eventually, newPhone } from '../../../factories/sandbox.js';
import { MODES } from '../../../kit/modes.js';
import { sandboxWorld } from '../../../kit/worlds/sandbox.js';

/** A failed message's error is {code, message}, the same in the record, in messages.update and in GraphQL. */
describe.each(MODES)('Failed messages on the sandbox: an error a program can act on — $name', (mode) => {
  const world = sandboxWorld(mode);
  let instance: { id: string };

  beforeAll(async () => {
    instance = await connectedV1Instance(world.api, world.tenant.liveKey, 'errors line');
    await eventually(() => world.api.get(`/v1/chat/instances/${instance.id}`, { key: world.tenant.liveKey }), (r) => r.body.data.status === 'connected');
    expect((await world.api.post(`/v1/chat/instances/${instance.id}/webhook`, { key: world.tenant.liveKey, body: { url: world.receiver.url } })).status).toBe(200);
  }, 60_000);

  const failedUpdate = (messageId: string) =>
    eventually(
      async () => world.receiver.of('messages.update').map((call) => JSON.parse(call.body).data).filter((data) => data.messageId === messageId && data.status === 'failed'),
      (list) => list.length === 1,
    ).then((list) => list[0]);
  const graphqlError = async (messageId: string) => {
    const answer = await world.api.graphql('query ($id: ID!) { node(id: $id) { ... on Message { status error { code message } } } }', { id: messageId }, { key: world.tenant.liveKey });
    expect(answer.body.errors, answer.text).toBeUndefined();
    return answer.body.data.node;
  };

  it('a template routed to a sandbox instance: template_unsupported', async () => {
    const sent = await world.api.post('/v1/messages/send', { key: world.tenant.liveKey, body: { to: newPhone().slice(1), template: { name: 'welcome', language: 'en' } } });
    expect(sent.status, sent.text).toBe(200);
    const id = sent.body.data.id as string;
    const expected = { code: 'template_unsupported', message: 'Only CHAT-CLOUD instances send template messages.' };
    const record = await eventually(() => world.api.get(`/v1/messages/status/${id}`, { key: world.tenant.liveKey }), (r) => r.body.data.status === 'failed');
    expect(record.body.data.error).toEqual(expected);
    expect((await failedUpdate(id)).error).toEqual(expected);
    expect(await graphqlError(id)).toEqual({ status: 'failed', error: expected });
    // The list shows the same object.
    const listed = await world.api.get('/v1/messages/list?limit=100', { key: world.tenant.liveKey });
    expect(listed.body.data.find((m: { id: string }) => m.id === id).error).toEqual(expected);
  });

  it('a message nobody carried within 24 hours: expired', { timeout: 60_000 }, async () => {
    // An instance never paired: nothing can carry the message, only the 24-hour rule moves it.
    const unpaired = await world.api.post('/v1/chat/instances', { key: world.tenant.liveKey, body: { name: 'never paired', webhookUrl: world.receiver.url } });
    expect(unpaired.status, unpaired.text).toBe(201);
    const stale = await world.gw.gateway.infra.db.prisma.message.create({
      data: {
        tenantId: world.tenant.tenantId,
        instanceId: unpaired.body.data.id,
        direction: 'out',
        to: newPhone().slice(1),
        text: 'too late',
        mode: 'production',
        queuedAt: new Date(Date.now() - 25 * 3600_000),
        createdAt: new Date(Date.now() - 25 * 3600_000),
      },
    });
    const expected = { code: 'expired', message: 'No connected instance carried the message within 24 hours.' };
    // The sweep that fails stale messages backs off to 30 s while nothing is pending, and an accepted
    // send wakes it. This row was written to the database, not sent, so the test wakes it as a send
    // would (otherwise the wait is whatever is left of the backoff, up to 30 s).
    world.gw.gateway.infra.maintenance.wake();
    const record = await eventually(() => world.api.get(`/v1/messages/status/${stale.id}`, { key: world.tenant.liveKey }), (r) => r.body.data.status === 'failed', 40_000);
    expect(record.body.data.error).toEqual(expected);
    expect((await failedUpdate(stale.id)).error).toEqual(expected);
    expect(await graphqlError(stale.id)).toEqual({ status: 'failed', error: expected });
  });

  it('a message that did not fail has error null, and its messages.update carries no error', async () => {
    const sent = await world.api.post('/v1/messages/send', { key: world.tenant.liveKey, body: { to: newPhone().slice(1), text: 'fine' } });
    const id = sent.body.data.id as string;
    const record = await eventually(() => world.api.get(`/v1/messages/status/${id}`, { key: world.tenant.liveKey }), (r) => r.body.data.status === 'delivered');
    expect(record.body.data.error).toBeNull();
    const updates = await eventually(
      async () => world.receiver.of('messages.update').map((call) => JSON.parse(call.body).data).filter((data) => data.messageId === id),
      (list) => list.some((data) => data.status === 'delivered'),
    );
    for (const data of updates) expect(data).not.toHaveProperty('error');
    expect(await graphqlError(id)).toEqual({ status: 'delivered', error: null });
  });
});
