import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshotOnFailure as failureScreenshot } from '../../kit/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedV1Instance, eventually, newPhone } from '../../factories/sandbox.js';
import { createTenant, type TestTenant } from '../../factories/tenants.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { type Client, client } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';
import { startReceiver } from '../../helpers/receiver.js';

/**
 * Every cell of the page's tables, every control in them and the header's items that is not wholly
 * inside the viewport's width and inside each ancestor that clips it (overflow other than visible);
 * and whether the page itself scrolls sideways.
 */
function outOfReach(page: Page, width: number) {
  return page.evaluate((width) => {
    const problems: string[] = [];
    const scrollWidth = document.scrollingElement!.scrollWidth;
    if (scrollWidth > width) problems.push(`the page is ${scrollWidth} px wide`);
    for (const element of document.querySelectorAll<HTMLElement>('main td, main td button, main td a, header.top > *')) {
      const box = element.getBoundingClientRect();
      let left = 0;
      let right = width;
      for (let up = element.parentElement; up; up = up.parentElement) {
        if (getComputedStyle(up).overflowX === 'visible') continue;
        const clip = up.getBoundingClientRect();
        left = Math.max(left, clip.left);
        right = Math.min(right, clip.right);
      }
      if (box.left < left - 1 || box.right > right + 1) problems.push(`“${element.textContent?.trim().slice(0, 40)}” spans ${Math.round(box.left)}..${Math.round(box.right)}, visible ${Math.round(left)}..${Math.round(right)}`);
    }
    return problems;
  }, width);
}

describe('the dashboard at 375 and 1280 px: every column in reach, and what a first trial missed', () => {
  let gw: TestGateway;
  let api: Client;
  let tenant: TestTenant;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let desk: { id: string; phone: string };
  let group: { id: string; subject: string };
  let deletedId: string;

  beforeAll(async () => {
    [gw, receiver, browser] = await Promise.all([
      startTestGateway(MODES[0]!, { env: { WEBHOOK_ALLOW_INSECURE: 'true' } }),
      startReceiver(),
      launchBrowser(),
    ]);
    api = client(gw.url);
    tenant = await createTenant(gw.gateway, api);
    await gw.gateway.infra.db.prisma.tenant.update({ where: { id: tenant.tenantId }, data: { name: 'Acme Deliveries' } });
    const key = tenant.liveKey;
    desk = await connectedV1Instance(api, key, 'Front desk');
    await eventually(() => api.get(`/v1/chat/instances/${desk.id}`, { key }), (r) => r.body.data.status === 'connected');
    expect((await api.post(`/v1/chat/instances/${desk.id}/webhook`, { key, body: { url: `${receiver.url}/layout` } })).status).toBe(200);

    // A group the instance made, a text to it; a text deleted for everyone; a text a phone sent.
    const member = newPhone().slice(1);
    const made = await api.post(`/v1/chat/instances/${desk.id}/groups`, { key, body: { subject: 'Suppliers', participants: [member] } });
    expect(made.status, made.text).toBe(201);
    group = { id: made.body.data.id, subject: 'Suppliers' };
    const sent = async (body: Record<string, unknown>) => {
      const answer = await api.post(`/v1/chat/instances/${desk.id}/messages`, { key, body });
      expect(answer.status, answer.text).toBe(200);
      await eventually(() => api.get(`/v1/messages/status/${answer.body.data.id}`, { key }), (r) => ['delivered', 'read'].includes(r.body.data?.status));
      return answer.body.data.id as string;
    };
    await sent({ to: group.id, text: 'Deliveries move to Friday' });
    deletedId = await sent({ to: '5511988887777', text: 'Sent by mistake' });
    const deleted = await api.delete(`/v1/chat/instances/${desk.id}/messages/${deletedId}`, { key });
    expect(deleted.status, deleted.text).toBe(200);
    expect((await api.post('/sandbox/messages', { body: { from: '5511977771234', to: desk.phone.slice(1), text: 'Is my order on its way?' } })).status).toBe(200);
    await eventually(async () => receiver.received.length, (n) => n > 0, 15_000);

    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
    page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${gw.url}/`);
    await page.getByLabel('Email').fill(tenant.email);
    await page.getByLabel('Password').fill(tenant.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    // An API key listed with its Revoke button.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Key name').fill('order system');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('button', { name: 'Revoke order system' }).waitFor();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await gw?.close();
  });

  const screenshotOnFailure = (name: string) => failureScreenshot(() => page, `dashboard-layout-${name}`);

  it("names the tenant in the header, the user and the plan beside it", async () => {
    screenshotOnFailure('header');
    await page.goto(`${gw.url}/#/instances`);
    expect(await page.locator('header .who .tenant').textContent()).toBe('Acme Deliveries');
    expect(await page.locator('header .who').textContent()).toBe(`Acme Deliveries ${tenant.email} · pro plan`);
  });

  it('says an unknown address is not found, with a link back to the instances', async () => {
    screenshotOnFailure('not-found');
    for (const hash of ['#/nowhere', '#/messages/extra', '#/instances/some-id/more']) {
      await page.goto(`${gw.url}/${hash}`);
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      expect(await page.getByRole('row', { name: /Front desk/ }).count()).toBe(0);
    }
    await page.getByRole('link', { name: 'Back to the instances' }).click();
    await page.getByRole('row', { name: /Front desk/ }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/instances');
    // The addresses the pages use still lead to them.
    for (const [hash, heading] of [['', 'Instances'], ['#/', 'Instances'], ['#/messages', 'Messages'], ['#/keys', 'API keys']]) {
      await page.goto(`${gw.url}/${hash}`);
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
    }
  });

  it("copies a new instance's webhook secret to the clipboard; without the Clipboard API it selects it", async () => {
    screenshotOnFailure('copy');
    const createThenCopy = async (on: Page, name: string) => {
      await on.goto(`${gw.url}/#/instances`);
      await on.getByRole('button', { name: 'New instance' }).click();
      await on.getByLabel('Name').fill(name);
      await on.getByRole('button', { name: 'Create' }).click();
      const secret = on.locator('.warning .key code');
      await secret.waitFor();
      await on.getByRole('button', { name: 'Copy the webhook signing secret' }).click();
      return (await secret.textContent())!;
    };
    const secret = await createThenCopy(page, 'Copy desk');
    expect(secret).toMatch(/^whsec_/);
    await page.getByText('Copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

    // A page without the Clipboard API (plain http on another host): the secret is selected instead.
    const bare = await context.newPage();
    try {
      await bare.addInitScript(() => Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined }));
      const other = await createThenCopy(bare, 'Select desk');
      await bare.getByText('Selected: press Ctrl+C').waitFor();
      expect(await bare.evaluate(() => getSelection()?.toString())).toBe(other);
    } finally {
      await bare.close();
    }
  });

  it("names a sent group message's group by its subject, and marks a message deleted for everyone", async () => {
    screenshotOnFailure('messages');
    await page.goto(`${gw.url}/#/messages`);
    const toGroup = page.getByRole('row', { name: /Deliveries move to Friday/ });
    await expect.poll(() => toGroup.locator('td').first().textContent()).toBe('group Suppliers');
    expect(await toGroup.locator('td').first().locator('span').getAttribute('title')).toBe(group.id);

    const deleted = page.locator(`tr[data-message-id="${deletedId}"]`);
    expect(await deleted.locator('.status-deleted').textContent()).toBe('deleted');
    expect(await deleted.locator('.deleted-body').evaluate((body) => getComputedStyle(body).textDecorationLine)).toBe('line-through');
    const kept = page.getByRole('row', { name: /Deliveries move to Friday/ });
    expect(await kept.locator('.status-deleted').count()).toBe(0);
  });

  for (const width of [375, 1280]) {
    it(`keeps every column and every row's button in view at ${width} px, without sideways scrolling`, async () => {
      screenshotOnFailure(`layout-${width}`);
      await page.setViewportSize({ width, height: 900 });
      mkdirSync('test-results', { recursive: true });
      const pages: Array<[string, string, () => Promise<unknown>]> = [
        ['instances', '#/instances', () => page.getByRole('row', { name: /Front desk/ }).waitFor()],
        ['instance', `#/instances/${desk.id}`, () => page.getByRole('button', { name: 'Redeliver' }).first().waitFor()],
        ['messages', '#/messages', () => page.getByRole('row', { name: /Is my order on its way/ }).waitFor()],
        ['keys', '#/keys', () => page.getByRole('button', { name: 'Revoke order system' }).waitFor()],
      ];
      for (const [name, hash, shown] of pages) {
        await page.goto(`${gw.url}/${hash}`);
        await shown();
        expect(await outOfReach(page, width), name).toEqual([]);
        await page.screenshot({ path: `test-results/dashboard-layout-${name}-${width}.png`, fullPage: true });
      }
      // The cells the first trial could not reach, each in view.
      await page.goto(`${gw.url}/#/instances`);
      const phone = page.locator('td', { hasText: desk.phone });
      await phone.scrollIntoViewIfNeeded();
      const box = (await phone.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
    });
  }
});
