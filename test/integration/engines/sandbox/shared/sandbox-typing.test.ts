import { describe, expect, it } from 'vitest';
import { connectedV1Instance, eventually, newPhone } from '../../../../factories/sandbox.js';
import { MODES } from '../../../../kit/modes.js';
import { sandboxWorld } from '../../../../kit/worlds/sandbox.js';

// Typing before a text (docs/settings.md, "Sending") as the sandbox's phone sees it.
describe.each(MODES)('Sandbox: typing shown before a text — $name', (mode) => {
  const world = sandboxWorld(mode);

  it('the phone is told the instance types, then gets the text; the request answers queued at once', async () => {
    const key = world.tenant.liveKey;
    const instance = await connectedV1Instance(world.api, key, `typing ${Math.random()}`);
    const set = await world.api.put(`/v1/chat/instances/${instance.id}/settings`, { key, body: { sending: { typing: true } } });
    expect(set.status, set.text).toBe(200);
    const to = newPhone().slice(1);
    const sent = await world.api.post(`/v1/chat/instances/${instance.id}/messages`, { key, body: { to, text: 'typed first' } });
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body.data.status).toBe('queued');

    const received = await eventually(() => world.api.get(`/sandbox/phones/${to}/messages`), (r) => r.body.data?.length === 1, 20_000);
    expect(received.body.data[0].text).toBe('typed first');
    const presence = await world.api.get(`/sandbox/phones/${to}/presence`);
    expect(presence.body.data.map((entry: { from: string; state: string }) => [entry.from, entry.state])).toEqual([[instance.phone.slice(1), 'composing']]);
  });
});
