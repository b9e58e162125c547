import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../kit/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNetworkPhone, pairedV1, sentPoll } from '../../factories/chat-network.js';
import { eventually } from '../../factories/sandbox.js';
import { MODES } from '../../kit/modes.js';
import { baileysWorld } from '../../kit/worlds/baileys.js';

/**
 * The dashboard's message list in a real browser, with what CHAT-BAILEYS carried through the local chat
 * network: a group message with its group and sender, a poll with its tally as the phones voted.
 */
describe('the dashboard shows group messages and poll tallies', () => {
  const world = baileysWorld(MODES[0]!);
  let browser: Browser;
  let page: Page;
  let instance: { id: string; phone: string };

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1100, height: 900 } })).newPage();
    instance = await pairedV1(world.api, world.tenant.liveKey, world.network, `dashboard groups ${Date.now()}`);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('a group message names its group and its sender; a poll lists each option with its votes and voters', async () => {
    const key = world.tenant.liveKey;
    const me = instance.phone.slice(1);
    const owner = newNetworkPhone().slice(1);
    const bea = newNetworkPhone().slice(1);
    const group = world.network.groupCreate(owner, 'Lunch crew', [bea, me]);

    // A member writes in the group; the gateway records it with the group and the member.
    await world.network.send(bea, group, { text: 'Where do we eat?' });
    const received = await eventually(
      () => world.api.get('/v1/messages/list', { key }),
      (r) => r.body.data?.some((m: { text?: string }) => m.text === 'Where do we eat?'),
      20_000,
    );
    const groupMessage = received.body.data.find((m: { text?: string }) => m.text === 'Where do we eat?');

    // A poll to the group, and the members' votes on it (one of them changes its vote).
    const { messageId: pollMessage, pollId } = await sentPoll(world.api, key, world.network, instance.id, group, { name: 'Lunch?', options: ['Pizza', 'Sushi', 'Salad'] }, [owner, bea]);
    await world.network.vote(owner, pollId, group, ['Sushi']);
    await world.network.vote(bea, pollId, group, ['Sushi']);
    await world.network.vote(owner, pollId, group, ['Pizza']);
    await eventually(
      () => world.api.get(`/v1/messages/status/${pollMessage}`, { key }),
      (r) => JSON.stringify(r.body.data.poll?.options.map((o: { voters: string[] }) => o.voters)) === JSON.stringify([[owner], [bea], []]),
      20_000,
    );

    await page.goto(`${world.gw.url}/`);
    await page.getByLabel('Email').fill(world.tenant.email);
    await page.getByLabel('Password').fill(world.tenant.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'New instance' }).waitFor();
    await page.getByRole('link', { name: 'Messages' }).click();

    const groupRow = page.locator(`tr[data-message-id="${groupMessage.id}"]`);
    await groupRow.waitFor();
    const cells = groupRow.locator('td');
    expect(await cells.nth(0).textContent()).toBe(`from ${bea}`);
    expect(await cells.nth(1).textContent()).toBe('in Lunch crew · Where do we eat?');

    const pollRow = page.locator(`tr[data-message-id="${pollMessage}"]`);
    await pollRow.waitFor();
    // Sent to the group: named by its subject, its id on hover.
    expect(await pollRow.locator('td').nth(0).textContent()).toBe('group Lunch crew');
    expect(await pollRow.locator('td').nth(0).locator('span').getAttribute('title')).toBe(group);
    expect(await pollRow.locator('.poll figcaption').textContent()).toBe('📊 Lunch?');
    expect(await pollRow.locator('.poll li').allTextContents()).toEqual([`Pizza: 1 vote (${owner})`, `Sushi: 1 vote (${bea})`, 'Salad: 0 votes']);

    mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/dashboard-groups-polls.png', fullPage: true });
  }, 120_000);
});
