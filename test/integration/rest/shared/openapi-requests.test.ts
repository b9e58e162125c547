import { beforeAll, describe, expect, it } from 'vitest';
import { connectedSessionInstance, eventually } from '../../../factories/sandbox.js';
import { MODES } from '../../../kit/modes.js';
import { openApiDocument } from '../../../helpers/openapi-check.js';
import { documentedBodies } from '../../../helpers/openapi-requests.js';
import { PNG_1PX } from '../../../kit/files.js';
import { sandboxWorld } from '../../../kit/worlds/sandbox.js';

const SAMPLES = 6;

/** The fields a 400 names, from its `field: rule; field: rule` message. */
const fieldsNamed = (message: string) => [...message.matchAll(/(?:^|; )([A-Za-z][\w.]*): /g)].map((match) => match[1]!.split('.')[0]!);

/**
 * Every request body generated from an operation's schema is accepted. Only refusals about state the
 * document cannot know pass (an unknown QR code, an engine not offered, what a media URL serves).
 */
describe.each(MODES)('requests generated from the OpenAPI document are accepted — $name', (mode) => {
  const world = sandboxWorld(mode, { files: { '/file': { type: 'image/png', body: PNG_1PX } } });
  let v1Id: string;
  let sessionId: string;
  let messageId: string;

  beforeAll(async () => {
    v1Id = (await world.api.post('/v1/chat/instances', { key: world.tenant.liveKey, body: { name: 'documented v1' } })).body.data.id;
    const session = await connectedSessionInstance(world.api, world.tenant.cookie, 'documented session');
    sessionId = session.id;
    await eventually(() => world.api.get(`/chat/instances/${sessionId}`, { cookie: world.tenant.cookie }), (r) => r.body.data.status === 'connected');
    messageId = (await world.api.post('/v1/messages/send', { key: world.tenant.liveKey, body: { to: '5511988880000', text: 'to delete' } })).body.data.id;
    // A chat for the chat operations' bodies.
    expect((await world.api.post('/sandbox/messages', { body: { from: '5511977770001', to: session.phone, text: 'a chat' } })).status).toBe(200);
  }, 60_000);

  type Auth = 'key' | 'cookie' | 'none';
  const operations: Array<{ method: 'post' | 'put'; template: string; path: () => string; auth: Auth; state?: string[] }> = [
    { method: 'post', template: '/auth/sessions', path: () => '/auth/sessions', auth: 'none' },
    { method: 'post', template: '/api-keys', path: () => '/api-keys', auth: 'cookie' },
    { method: 'post', template: '/v1/messages/send', path: () => '/v1/messages/send', auth: 'key' },
    // The engines a deployment offers, and the credentials only CHAT-CLOUD takes, are the deployment's.
    { method: 'post', template: '/v1/chat/instances', path: () => '/v1/chat/instances', auth: 'key', state: ['integration', 'cloud'] },
    { method: 'put', template: '/v1/chat/instances/{instanceId}', path: () => `/v1/chat/instances/${v1Id}`, auth: 'key', state: ['cloud'] },
    { method: 'post', template: '/v1/chat/instances/{instanceId}/pairing-code', path: () => `/v1/chat/instances/${v1Id}/pairing-code`, auth: 'key' },
    { method: 'post', template: '/v1/chat/instances/{instanceId}/webhook', path: () => `/v1/chat/instances/${v1Id}/webhook`, auth: 'key' },
    { method: 'post', template: '/chat/instances', path: () => '/chat/instances', auth: 'cookie', state: ['integration', 'cloud'] },
    { method: 'put', template: '/chat/instances/{instanceId}', path: () => `/chat/instances/${sessionId}`, auth: 'cookie', state: ['cloud'] },
    { method: 'post', template: '/chat/instances/{instanceId}/pairing-code', path: () => `/chat/instances/${v1Id}/pairing-code`, auth: 'cookie' },
    // Templates go through CHAT-CLOUD instances only.
    { method: 'post', template: '/chat/instances/{instanceId}/send-text', path: () => `/chat/instances/${sessionId}/send-text`, auth: 'cookie', state: ['template'] },
    // What the URL serves (a picture here) must be the media type asked for.
    { method: 'post', template: '/chat/instances/{instanceId}/send-media', path: () => `/chat/instances/${sessionId}/send-media`, auth: 'cookie', state: ['mediaUrl'] },
    // A generated time may be past, which a mute refuses.
    { method: 'post', template: '/chat/instances/{instanceId}/chats/{chatId}/mute', path: () => `/chat/instances/${sessionId}/chats/5511977770001/mute`, auth: 'cookie', state: ['until'] },
    { method: 'post', template: '/v1/chat/instances/{instanceId}/chats/{chatId}/history', path: () => `/v1/chat/instances/${sessionId}/chats/5511977770001/history`, auth: 'key' },
    // The codes are the network's: a generated one is unknown.
    { method: 'post', template: '/sandbox/scan', path: () => '/sandbox/scan', auth: 'none', state: ['code'] },
    { method: 'post', template: '/sandbox/pair', path: () => '/sandbox/pair', auth: 'none', state: ['code'] },
    // A generated group id or poll is well formed but not on the network: refused for what the network holds.
    { method: 'post', template: '/sandbox/messages', path: () => '/sandbox/messages', auth: 'none', state: ['group', 'pollVote'] },
    // A generated past may not hold together (a reply to no message of it, a time to come, an id twice).
    { method: 'post', template: '/sandbox/phones/{number}/past', path: () => '/sandbox/phones/5511977770009/past', auth: 'none', state: ['messages', 'chats'] },
    { method: 'post', template: '/sandbox/messages/{messageId}/delete', path: () => `/sandbox/messages/${messageId}/delete`, auth: 'none' },
    { method: 'post', template: '/sandbox/instances/{instanceId}/groups', path: () => `/sandbox/instances/${sessionId}/groups`, auth: 'none' },
    { method: 'post', template: '/sandbox/instances/{instanceId}/groups/{groupId}', path: () => `/sandbox/instances/${sessionId}/groups/120363012345678901@g.us`, auth: 'none' },
    { method: 'post', template: '/sandbox/instances/{instanceId}/contacts', path: () => `/sandbox/instances/${sessionId}/contacts`, auth: 'none' },
    { method: 'post', template: '/sandbox/instances/{instanceId}/presence', path: () => `/sandbox/instances/${sessionId}/presence`, auth: 'none' },
  ];

  it("GET /v1/messages/{messageId}/media answers in one of the types the document declares: the media's own", async () => {
    const phone = (await world.api.get(`/chat/instances/${sessionId}`, { cookie: world.tenant.cookie })).body.data.phone as string;
    const inbound = await world.api.post('/sandbox/messages', { body: { from: '5511977770000', to: phone, type: 'image', media: { data: PNG_1PX.toString('base64'), mimetype: 'image/png' } } });
    expect(inbound.status, inbound.text).toBe(200);
    const media = await fetch(`${world.gw.url}/v1/messages/${inbound.body.data.messageId}/media`, { headers: { authorization: `Bearer ${world.tenant.liveKey}` } });
    expect(media.status).toBe(200);
    const type = media.headers.get('content-type')!;
    expect(type).toBe('image/png');
    const declared = Object.keys(openApiDocument().paths['/v1/messages/{messageId}/media'].get.responses['200'].content);
    expect(declared.some((range) => range === type || (range.endsWith('/*') && type.startsWith(range.slice(0, -1))))).toBe(true);
  });

  it.each(operations.map((op) => [`${op.method.toUpperCase()} ${op.template}`, op] as const))('%s', async (_name, op) => {
    const bodies = documentedBodies(op.template, op.method, SAMPLES, { uri: op.template.endsWith('send-media') ? `${world.files.url}/file` : world.receiver.url });
    for (const body of bodies) {
      const credentials = op.auth === 'key' ? { key: world.tenant.liveKey } : op.auth === 'cookie' ? { cookie: world.tenant.cookie } : {};
      const answer = await world.api[op.method](op.path(), { ...credentials, body });
      expect(answer.status, `${answer.text}\n${JSON.stringify(body)}`).toBeLessThan(500);
      if (answer.status === 400) {
        const outside = fieldsNamed(answer.body.error.message).filter((field) => !op.state?.includes(field));
        expect(outside, `refused what the document allows: ${answer.text}\n${JSON.stringify(body)}`).toEqual([]);
      }
    }
  });
});
