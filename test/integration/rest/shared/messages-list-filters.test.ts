import { beforeAll, describe, expect, it } from 'vitest';
import { eventually, newPhone } from '../../../factories/sandbox.js';
import { digitsOf, instanceSends, phoneWrites } from '../../../factories/conversations.js';
import { MODES } from '../../../kit/modes.js';
import { connectedInstance, sandboxWorld } from '../../../kit/worlds/sandbox.js';

/** GET /v1/messages/list narrowed by instance, chat, direction, status and time; its answer keeps the spec's shape. */
describe.each(MODES)('The message list filters — $name', (mode) => {
  // A tenant of its own for the list: nothing else of the suite shows in it.
  const world = sandboxWorld(mode, { tenants: ['enterprise', 'enterprise'] });
  let a: { id: string; phone: string };
  let b: { id: string; phone: string };
  const peer = newPhone();
  const other = newPhone();
  const ids = { aIn: [] as string[], aOut: [] as string[], bIn: [] as string[], otherIn: [] as string[] };
  let middle: string;

  const list = (query: string) => world.api.get(`/v1/messages/list?${query}`, { key: world.tenant.liveKey });
  const idsOf = async (query: string) => {
    const answer = await list(query);
    expect(answer.status, answer.text).toBe(200);
    return (answer.body.data as Array<{ id: string }>).map((message) => message.id);
  };

  beforeAll(async () => {
    a = await connectedInstance(world, `list-a-${Date.now()}`);
    b = await connectedInstance(world, `list-b-${Date.now()}`);
    ids.aIn.push(await phoneWrites(world, a, peer, 'a in 1'));
    ids.aOut.push(await instanceSends(world, a, peer, 'a out 1'));
    // The phone's delivery receipt comes by itself: the status stays put from then on.
    await eventually(() => world.api.get(`/v1/messages/status/${ids.aOut[0]}`, { key: world.tenant.liveKey }), (r) => r.body.data.status === 'delivered');
    middle = new Date().toISOString();
    ids.aIn.push(await phoneWrites(world, a, peer, 'a in 2'));
    ids.bIn.push(await phoneWrites(world, b, peer, 'b in 1'));
    ids.otherIn.push(await phoneWrites(world, a, other, 'other in 1'));
  }, 60_000);

  it('narrows by instance, chat, direction, status and time, every filter given matching, newest first', async () => {
    expect(await idsOf(`instanceId=${b.id}`)).toEqual(ids.bIn);
    expect(await idsOf(`instanceId=${a.id}&chatId=${digitsOf(peer)}`)).toEqual([ids.aIn[1], ids.aOut[0], ids.aIn[0]]);
    expect(await idsOf(`chatId=${encodeURIComponent(peer)}`)).toEqual([ids.bIn[0], ids.aIn[1], ids.aOut[0], ids.aIn[0]]);
    expect(await idsOf(`instanceId=${a.id}&direction=out`)).toEqual(ids.aOut);
    expect(await idsOf(`instanceId=${a.id}&direction=in`)).toEqual([ids.otherIn[0], ids.aIn[1], ids.aIn[0]]);
    expect(await idsOf(`instanceId=${a.id}&status=delivered&direction=out`)).toEqual(ids.aOut);
    expect(await idsOf(`instanceId=${a.id}&status=sent&direction=out`)).toEqual([]);
    expect(await idsOf(`instanceId=${a.id}&status=failed`)).toEqual([]);
    expect(await idsOf(`instanceId=${a.id}&chatId=${digitsOf(peer)}&since=${encodeURIComponent(middle)}`)).toEqual([ids.aIn[1]]);
    expect(await idsOf(`instanceId=${a.id}&until=${encodeURIComponent(middle)}`)).toEqual([ids.aOut[0], ids.aIn[0]]);
    expect(await idsOf(`since=${encodeURIComponent(middle)}&until=${encodeURIComponent(middle)}`)).toEqual([]);
  });

  it('keeps the answer of the spec: the messages, and the page counted over what the filters leave', async () => {
    const answer = await list(`instanceId=${a.id}&limit=2&page=2`);
    expect(answer.status, answer.text).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['data', 'pagination', 'success']);
    expect(answer.body.pagination).toEqual({ page: 2, limit: 2, total: 4, pages: 2 });
    expect(answer.body.data).toHaveLength(2);
    const shown = await world.api.get(`/v1/messages/status/${answer.body.data[0].id}`, { key: world.tenant.liveKey });
    expect(answer.body.data[0]).toEqual(shown.body.data);
    expect(answer.body.data[0]).not.toHaveProperty('chatId');
  });

  it("shows nothing of another tenant's instance", async () => {
    const theirs = await connectedInstance({ ...world, tenant: world.tenants[1]! }, `list-theirs-${Date.now()}`);
    await phoneWrites(world, theirs, peer, 'not yours');
    expect(await idsOf(`instanceId=${theirs.id}`)).toEqual([]);
    expect((await idsOf(`chatId=${digitsOf(peer)}&limit=100`)).length).toBe(4);
  });

  it.each([
    ['colour=red', 'colour: is not one this request takes'],
    ['chat=5511999990001', 'chat: is not one this request takes'],
    ['instanceId=abc', 'instanceId: must be an instance id'],
    ['chatId=abc', 'chatId: must be a chat id: phone digits, <lid>@lid or a group id'],
    ['direction=sideways', 'direction: must be one of in, out'],
    ['status=lost', 'status: must be one of queued, sent, delivered, read, failed'],
    ['since=yesterday', 'since: must be an ISO 8601 time, e.g. 2026-01-31T12:00:00Z'],
    ['until=2026-13-01T00:00:00Z', 'until: must be an ISO 8601 time, e.g. 2026-01-31T12:00:00Z'],
    ['direction=in&direction=out', 'direction: must be one of in, out'],
    ['limit=0&status=', 'limit: must be at least 1; status: must be one of queued, sent, delivered, read, failed'],
  ])('refuses ?%s with 400 and the field named', async (query, message) => {
    const answer = await list(query);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ success: false, error: { code: 'invalid_request', message } });
  });
});
