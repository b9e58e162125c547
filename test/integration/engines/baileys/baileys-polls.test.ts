import { randomBytes } from 'node:crypto';
import { verify as verifyHubSignature } from '@octokit/webhooks-methods';
import { beforeAll, describe, expect, it } from 'vitest';
import { baileysEnv, newNetworkPhone, pairedV1, sentPoll } from '../../../factories/chat-network.js';
import { eventually } from '../../../factories/sandbox.js';
import { startTestGateway } from '../../../kit/gateway.js';
import { MessageGroupAndPoll } from '../../../graphql/operations.js';
import { client } from '../../../helpers/http.js';
import { MODES } from '../../../kit/modes.js';
import { baileysWorld } from '../../../kit/worlds/baileys.js';

describe.each(MODES)('CHAT-BAILEYS: polls, their votes opened by the engine and counted by the gateway — $name', (mode) => {
  // The engine state's key stays the same across the restart below (the linked device resumes).
  const stateKey = { ENGINE_STATE_KEY: randomBytes(32).toString('base64') };
  const world = baileysWorld(mode, { env: stateKey });
  let instance: { id: string; phone: string; secret: string };
  let key: string;

  beforeAll(async () => {
    key = world.tenant.liveKey;
    instance = await pairedV1(world.api, key, world.network, `polls ${Date.now()}`);
    const hooked = await world.api.post(`/v1/chat/instances/${instance.id}/webhook`, { key, body: { url: `${world.receiver.url}/polls` } });
    expect(hooked.status, hooked.text).toBe(200);
  }, 60_000);

  const updatesOf = (messageId: string) =>
    world.receiver
      .of('messages.update')
      .filter((call) => JSON.parse(call.body).instanceId === instance.id && JSON.parse(call.body).data.messageId === messageId && JSON.parse(call.body).data.poll);
  const tally = (votes: Record<string, string[]>) => ({
    name: 'Lunch?',
    options: ['Pizza', 'Sushi', 'Salad'].map((name) => ({ name, votes: votes[name]?.length ?? 0, voters: votes[name] ?? [] })),
  });
  /** Waits for the nth vote update of a poll; checks it is signed and carries exactly `expected`. */
  const expectUpdate = async (messageId: string, n: number, expected: unknown) => {
    const calls = await eventually(async () => updatesOf(messageId), (list) => list.length >= n, 20_000);
    expect(calls).toHaveLength(n);
    const call = calls[n - 1]!;
    expect(JSON.parse(call.body).data).toEqual({ messageId, poll: expected });
    expect(await verifyHubSignature(instance.secret, call.body, String(call.headers['x-hub-signature-256']))).toBe(true);
  };
  /** The tally on the record, as REST shows it; GraphQL's `message { poll }` must show the same. */
  const recordPoll = async (messageId: string) => {
    const rest = (await world.api.get(`/v1/messages/status/${messageId}`, { key })).body.data.poll;
    const graphql = await world.api.operation(MessageGroupAndPoll, { id: messageId }, { key });
    expect(graphql.body.data!.message!.poll).toEqual(rest);
    return rest;
  };

  it('a poll reaches the phone with its secret; votes, a changed vote and a restart keep an exact tally (REST and GraphQL)', async () => {
    const ana = newNetworkPhone().slice(1);
    const sent = await world.api.post(`/v1/chat/instances/${instance.id}/messages`, {
      key,
      body: { to: ana, poll: { name: 'Lunch?', options: ['Pizza', 'Sushi', 'Salad'], selectableCount: 2 } },
    });
    expect(sent.status, sent.text).toBe(200);
    const messageId = sent.body.data.id as string;
    const status = await eventually(() => world.api.get(`/v1/messages/status/${messageId}`, { key }), (r) => Boolean(r.body.data?.networkMessageId), 20_000);
    const pollId = status.body.data.networkMessageId as string;
    const onPhone = await world.network.waitFor(() => world.network.inbox(ana).find((m) => m.id === pollId), 20_000, 'the poll on the phone');
    expect(onPhone.type).toBe('poll');
    expect(onPhone.poll).toMatchObject({ name: 'Lunch?', options: ['Pizza', 'Sushi', 'Salad'], selectableCount: 2 });
    expect(Buffer.from(onPhone.poll!.secret!, 'base64')).toHaveLength(32);
    // The secret is the gateway's to keep: no answer shows it.
    expect(JSON.stringify(status.body)).not.toContain(onPhone.poll!.secret!);

    await world.network.vote(ana, pollId, instance.phone, ['Pizza', 'Salad']);
    await expectUpdate(messageId, 1, tally({ Pizza: [ana], Salad: [ana] }));
    // The same voter changes the vote, this time bound to LIDs: it replaces the first.
    await world.network.vote(ana, pollId, instance.phone, ['Sushi'], { addressing: 'lid' });
    await expectUpdate(messageId, 2, tally({ Sushi: [ana] }));
    expect(await recordPoll(messageId)).toEqual({ ...tally({ Sushi: [ana] }), selectableCount: 2 });

    // Across a restart the tally is the database's, and a vote after it is counted on top.
    const first = world.gw;
    await first.gateway.close();
    world.gw = await startTestGateway(mode, { env: { ...baileysEnv(world.network, mode, { WEBHOOK_ALLOW_INSECURE: 'true' }), ...stateKey }, reuse: first });
    world.api = client(world.gw.url);
    expect(await recordPoll(messageId)).toEqual({ ...tally({ Sushi: [ana] }), selectableCount: 2 });
    await eventually(() => world.api.get(`/v1/chat/instances/${instance.id}`, { key }), (r) => r.body.data.status === 'connected', 20_000);
    await world.network.vote(ana, pollId, instance.phone, ['Sushi', 'Pizza']);
    await expectUpdate(messageId, 3, tally({ Pizza: [ana], Sushi: [ana] }));
    await world.network.vote(ana, pollId, instance.phone, []);
    await expectUpdate(messageId, 4, tally({}));
    expect(await recordPoll(messageId)).toEqual({ ...tally({}), selectableCount: 2 });
  }, 120_000);

  it('in a group, each member’s vote (bound to LIDs) counts under its phone', async () => {
    const owner = newNetworkPhone().slice(1);
    const bea = newNetworkPhone().slice(1);
    const group = world.network.groupCreate(owner, 'Lunch crew', [bea, instance.phone]);
    const { messageId, pollId } = await sentPoll(world.api, key, world.network, instance.id, group, { name: 'Lunch?', options: ['Pizza', 'Sushi', 'Salad'] }, [owner, bea]);
    await world.network.vote(owner, pollId, group, ['Salad']);
    await expectUpdate(messageId, 1, tally({ Salad: [owner] }));
    await world.network.vote(bea, pollId, group, ['Salad']);
    await expectUpdate(messageId, 2, tally({ Salad: [owner, bea] }));
    await world.network.vote(owner, pollId, group, ['Pizza']);
    await expectUpdate(messageId, 3, tally({ Pizza: [owner], Salad: [bea] }));
  }, 120_000);

  it('refuses 13 options, 1 option and a poll with no name, storing nothing', async () => {
    const to = newNetworkPhone().slice(1);
    const options = Array.from({ length: 13 }, (_, n) => `option ${n + 1}`);
    for (const poll of [{ name: 'Too many', options }, { name: 'Too few', options: ['only'] }, { name: '', options: ['a', 'b'] }]) {
      const refused = await world.api.post(`/v1/chat/instances/${instance.id}/messages`, { key, body: { to, poll } });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'invalid_request' });
      expect(refused.body.error.message).toMatch(/^poll\./);
    }
    const listed = await world.api.get(`/v1/chat/instances/${instance.id}`, { key });
    expect(listed.status).toBe(200);
    expect(world.network.inbox(to)).toEqual([]);
  });
});
