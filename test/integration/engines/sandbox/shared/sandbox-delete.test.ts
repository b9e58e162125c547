import { verify as verifyHubSignature } from '@octokit/webhooks-methods';
import { describe, expect, it } from 'vitest';
import { connectedSessionInstance, connectedV1Instance, eventually, newPhone } from '../../../../factories/sandbox.js';
import { MODES } from '../../../../kit/modes.js';
import { sandboxWorld } from '../../../../kit/worlds/sandbox.js';

describe.each(MODES)('Sandbox: a phone deletes a message, named by the gateway id — $name', (mode) => {
  const world = sandboxWorld(mode);


  const deliveriesTo = (instanceId: string, event: string) => world.receiver.of(event).filter((call) => JSON.parse(call.body).instanceId === instanceId || JSON.parse(call.body).instance?.instanceId === instanceId);

  it('a received message: the receiver gets a signed messages.delete naming it (v1)', async () => {
    const instance = await connectedV1Instance(world.api, world.tenant.liveKey, 'deletes v1');
    await eventually(() => world.api.get(`/v1/chat/instances/${instance.id}`, { key: world.tenant.liveKey }), (r) => r.body.data.status === 'connected');
    expect((await world.api.post(`/v1/chat/instances/${instance.id}/webhook`, { key: world.tenant.liveKey, body: { url: `${world.receiver.url}/${instance.id}` } })).status).toBe(200);
    const contact = newPhone().slice(1);
    const inbound = await world.api.post('/sandbox/messages', { body: { from: contact, to: instance.phone.slice(1), text: 'oops, wrong chat' } });
    expect(inbound.status, inbound.text).toBe(200);
    const messageId = inbound.body.data.messageId as string;

    const deleted = await world.api.post(`/sandbox/messages/${messageId}/delete`, { body: { forEveryone: true } });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body.data).toEqual({ messageId, forEveryone: true });

    const [delivery] = await eventually(async () => deliveriesTo(instance.id, 'messages.delete'), (list) => list.length === 1);
    expect(await verifyHubSignature(instance.secret, delivery!.body, String(delivery!.headers['x-hub-signature-256']))).toBe(true);
    const body = JSON.parse(delivery!.body);
    expect(body).toMatchObject({ event: 'messages.delete', instanceId: instance.id });
    // The sender deletes it by default.
    expect(body.data).toEqual({ messageId, deletedBy: contact, forEveryone: true });
  });

  it('a received message of a session instance: messages.delete in the session envelope', async () => {
    const instance = await connectedSessionInstance(world.api, world.tenant.cookie, 'deletes session');
    await eventually(() => world.api.get(`/chat/instances/${instance.id}`, { cookie: world.tenant.cookie }), (r) => r.body.data.status === 'connected');
    expect((await world.api.post(`/v1/chat/instances/${instance.id}/webhook`, { key: world.tenant.liveKey, body: { url: `${world.receiver.url}/${instance.id}` } })).status).toBe(200);
    const contact = newPhone().slice(1);
    const inbound = await world.api.post('/sandbox/messages', { body: { from: contact, to: instance.phone.slice(1), text: 'never mind' } });
    const messageId = inbound.body.data.messageId as string;
    const deleted = await world.api.post(`/sandbox/messages/${messageId}/delete`, { body: { forEveryone: false, deletedBy: contact } });
    expect(deleted.status, deleted.text).toBe(200);
    const [delivery] = await eventually(async () => deliveriesTo(instance.id, 'messages.delete'), (list) => list.length === 1);
    expect(JSON.parse(delivery!.body).data).toMatchObject({ key: { id: messageId }, deletedBy: contact, forEveryone: false });
  });

  it('the phone that received a sent message cannot delete it for everyone (only its author can), only for itself; an unknown id is a 404', async () => {
    const to = newPhone().slice(1);
    // Routed: whichever of the tenant's connected instances (each has the receiver as its webhook) carries it.
    const sent = await world.api.post(`/v1/messages/send`, { key: world.tenant.liveKey, body: { to, text: 'hello' } });
    expect(sent.status, sent.text).toBe(200);
    const messageId = sent.body.data.id as string;
    await eventually(() => world.api.get(`/v1/messages/status/${messageId}`, { key: world.tenant.liveKey }), (r) => r.body.data.status !== 'queued');
    // The network reports each delete before it answers: the first is decided (ignored) before the second is made.
    expect((await world.api.post(`/sandbox/messages/${messageId}/delete`, { body: { deletedBy: to } })).status).toBe(200);
    expect((await world.api.post(`/sandbox/messages/${messageId}/delete`, { body: { deletedBy: to, forEveryone: false } })).status).toBe(200);
    const naming = () => world.receiver.of('messages.delete').map((call) => JSON.parse(call.body).data).filter((data) => (data.messageId ?? data.key?.id) === messageId);
    const told = await eventually(async () => naming(), (list) => list.length >= 1);
    expect(told).toEqual([expect.objectContaining({ deletedBy: to, forEveryone: false })]);
    expect(await world.gw.gateway.infra.db.prisma.message.findUnique({ where: { id: messageId }, select: { deletedAt: true } })).toEqual({ deletedAt: null });

    const unknown = await world.api.post('/sandbox/messages/00000000-0000-4000-8000-000000000000/delete', { body: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    expect((await world.api.post('/sandbox/messages/not-an-id/delete', { body: {} })).status).toBe(404);
  });
});
