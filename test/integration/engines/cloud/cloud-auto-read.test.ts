import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventually } from '../../../factories/sandbox.js';
import { putSettings } from '../../../factories/settings.js';
import { MODES } from '../../../kit/modes.js';
import { cloudWorld } from '../../../kit/worlds/cloud.js';

let sequence = 0;

describe.each(MODES)('CHAT-CLOUD: autoRead marks what arrives read at the business API — $name', (mode) => {
  const world = cloudWorld(mode);

  async function connected() {
    sequence++;
    const cloud = { phoneNumberId: `21${Date.now() % 1_000_000_000}${sequence}`, accessToken: `EAAG-token-${randomBytes(12).toString('hex')}`, appSecret: `app-secret-${randomBytes(12).toString('hex')}` };
    world.cloud.addNumber({ ...cloud, displayPhoneNumber: `1557${String(1_000_000 + ((Date.now() + sequence) % 9_000_000)).slice(0, 7)}` });
    const created = await world.api.post('/v1/chat/instances', { key: world.tenant.liveKey, body: { name: `autoread ${sequence} ${Date.now()}`, integration: 'CHAT-CLOUD', cloud } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as string;
    await eventually(() => world.api.get(`/v1/chat/instances/${id}`, { key: world.tenant.liveKey }), (r) => r.body.data.status === 'connected', 10_000);
    return { id, pnid: cloud.phoneNumberId };
  }
  const stored = async (wamid: string) =>
    eventually(async () => (await world.api.get('/v1/messages/list?limit=100', { key: world.tenant.liveKey })).body.data as Array<{ networkMessageId: string | null }>, (list) => list.some((m) => m.networkMessageId === wamid));
  const marks = (pnid: string) => world.cloud.readMarks().filter((mark) => mark.phoneNumberId === pnid);

  it('off, nothing is marked; on, each received message is marked read as it is stored', async () => {
    const { id, pnid } = await connected();
    const user = `4422${String(Date.now() % 10_000_000).padStart(7, '0')}`;
    const before = await world.cloud.customerMessage(pnid, user, { type: 'text', text: 'not read by itself' });
    await stored(before);
    await putSettings(world, id, { autoRead: true });
    const after = await world.cloud.customerMessage(pnid, user, { type: 'text', text: 'read at once' });
    await stored(after);
    await eventually(async () => marks(pnid), (list) => list.length > 0);
    // Only the one received with autoRead on: the first stays unread.
    expect(marks(pnid)).toEqual([expect.objectContaining({ messageId: after, typingIndicator: false })]);
  });
});
