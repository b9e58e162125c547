// Throughput: arrival times recorded per send, the optional mps limit (130429) and pair limit (131056).
import { afterEach, describe, expect, it } from 'vitest';
import { peakPerSecond, type CloudApi, type CloudApiOptions } from './index.js';
import { NUMBER, USER, eventually, graph, sendText, setup } from './test-helpers.js';

let api: CloudApi;
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function start(options: CloudApiOptions = {}) {
  ({ api, close } = await setup(options));
  api.statusScript(NUMBER.phoneNumberId, []);
  api.openWindow(NUMBER.phoneNumberId, USER);
}

describe('throughput', () => {
  it('counts the most arrivals inside any one second', () => {
    expect(peakPerSecond([])).toBe(0);
    expect(peakPerSecond([0, 1000, 2000])).toBe(1);
    expect(peakPerSecond([0, 100, 999, 1000, 1500, 3000])).toBe(3);
    expect(peakPerSecond([500, 0, 400, 300])).toBe(4);
  });

  it('records each accepted send with its arrival time, in ms', async () => {
    await start();
    for (let i = 0; i < 5; i++) expect((await sendText(api, `m${i}`)).status).toBe(200);
    const sent = api.sent(NUMBER.phoneNumberId);
    expect(sent.map((s) => s.body.text)).toEqual([0, 1, 2, 3, 4].map((i) => ({ body: `m${i}` })));
    expect(sent.every((s, i) => i === 0 || s.at >= (sent[i - 1] as { at: number }).at)).toBe(true);
    const posts = await api.waitForRequests(5, (r) => r.method === 'POST');
    expect(posts.map((r) => r.at)).toEqual(sent.map((s) => s.at));
    expect(api.peakPerSecond(NUMBER.phoneNumberId)).toBe(peakPerSecond(sent.map((s) => s.at)));
  });

  it('answers 130429 over mpsLimit and never accepts more than N in a second', async () => {
    await start({ mpsLimit: 2 });
    const startedAt = Date.now();
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await sendText(api, `m${i}`));
    const elapsed = Date.now() - startedAt;
    const refused = answers.filter((a) => a.status !== 200);
    for (const answer of refused) {
      expect(answer.status).toBe(400);
      expect(answer.json.error).toMatchObject({ code: 130429, message: '(#130429) Rate limit hit' });
    }
    expect(api.peakPerSecond(NUMBER.phoneNumberId)).toBeLessThanOrEqual(2);
    expect(api.sent()).toHaveLength(answers.length - refused.length);
    // Six sends inside one second must have met the limit.
    if (elapsed < 1000) expect(refused.length).toBeGreaterThanOrEqual(4);
    // The limit is per second: sends go through again once it has passed.
    await eventually(() => sendText(api, 'later'), (r) => r.status === 200);
  });

  it('does not count refused sends', async () => {
    await start({ mpsLimit: 1 });
    expect((await sendText(api, 'outside', '16505550000')).json.error.code).toBe(131047);
    expect((await sendText(api, 'inside')).status).toBe(200);
  });

  it('counts inbound messages towards the limit', async () => {
    await start({ mpsLimit: 1 });
    const before = Date.now();
    await api.customerMessage(NUMBER.phoneNumberId, USER, 'hi');
    const res = await sendText(api);
    if (Date.now() - before < 1000) expect(res.json.error.code).toBe(130429);
    expect(api.peakPerSecond()).toBeLessThanOrEqual(1);
  });

  it('takes a per-number limit over the server’s', async () => {
    await start({ mpsLimit: 100 });
    api.addNumber({ ...NUMBER, phoneNumberId: '200000000000001', displayPhoneNumber: '15550000001', mpsLimit: 1 });
    api.openWindow('200000000000001', USER);
    const body = { messaging_product: 'whatsapp', to: USER, text: { body: 'x' } };
    const before = Date.now();
    const first = await graph(api, 'POST', '/v23.0/200000000000001/messages', body);
    const second = await graph(api, 'POST', '/v23.0/200000000000001/messages', body);
    expect(first.status).toBe(200);
    if (Date.now() - before < 1000) expect(second.json.error.code).toBe(130429);
    expect(api.peakPerSecond('200000000000001')).toBe(1);
  });

  it('answers 131056 over the pair limit, for that user only', async () => {
    await start({ pairLimit: { burst: 2, perMs: 60_000 } });
    api.openWindow(NUMBER.phoneNumberId, '16505550000');
    expect((await sendText(api, 'a')).status).toBe(200);
    expect((await sendText(api, 'b')).status).toBe(200);
    const third = await sendText(api, 'c');
    expect(third.status).toBe(400);
    expect(third.json.error).toMatchObject({ code: 131056, message: '(#131056) (Business Account, Consumer Account) pair rate limit hit' });
    expect((await sendText(api, 'd', '16505550000')).status).toBe(200);
  });
});
