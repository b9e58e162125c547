import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../kit/browser.js';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { MODES } from '../../kit/modes.js';

/** The first account's setup page, in a real browser against a gateway with no user. */
describe('the dashboard setup page', () => {
  let gw: TestGateway;
  let browser: Browser;
  let link: string;

  beforeAll(async () => {
    [gw, browser] = await Promise.all([startTestGateway(MODES[0]!), launchBrowser()]);
    link = gw.logs.text().match(/create the first account at (\S+)/)![1]!;
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  async function newPage(width = 375): Promise<Page> {
    const page = await (await browser.newContext({ viewport: { width, height: 800 } })).newPage();
    onTestFailed(async () => {
      mkdirSync('test-results', { recursive: true });
      await page.screenshot({ path: `test-results/dashboard-setup-failed-${Date.now()}.png`, fullPage: true });
    });
    return page;
  }

  it('says on the sign-in page how to get a first account', async () => {
    const page = await newPage(1000);
    await page.goto(`${gw.url}/`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await expect.poll(() => page.locator('.hint').textContent()).toMatch(/prints a setup link in its log at start.*user:create --tenant <tenantId> --email <email> --password-stdin.*tenant:create --name <name> --email <email> --password-stdin.*GATEWAY_ADMIN_EMAIL/s);
  });

  it('refuses a link that is not valid, in words', async () => {
    const page = await newPage();
    await page.goto(`${gw.url}/#/setup/not-a-real-token`);
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('This setup link is not valid');
    expect(await page.getByRole('button', { name: 'Create account and sign in' }).count()).toBe(0);
    mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/dashboard-setup-refused.png', fullPage: true });
  });

  it('creates the tenant and its owner from the printed link and signs in; the link then refuses', async () => {
    const page = await newPage();
    await page.goto(link);
    await page.getByLabel('Email').waitFor();
    mkdirSync('test-results', { recursive: true });
    await page.getByLabel('Organisation (tenant) name').fill('Acme');
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Password (at least 8 characters)').fill('short');
    await page.getByRole('button', { name: 'Create account and sign in' }).click();
    // The browser's own check (minlength) stops a short password before the gateway sees it.
    expect(await gw.gateway.infra.db.prisma.user.count()).toBe(0);
    await page.getByLabel('Password (at least 8 characters)').fill('owner-password');
    await page.screenshot({ path: 'test-results/dashboard-setup.png', fullPage: true });
    await page.getByRole('button', { name: 'Create account and sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await expect.poll(() => page.getByText('No instances yet').count()).toBe(1);
    expect(page.url()).not.toContain('/setup/');
    const user = await gw.gateway.infra.db.prisma.user.findUnique({ where: { email: 'owner@example.com' }, include: { tenant: true } });
    expect(user?.tenant.name).toBe('Acme');

    const again = await newPage();
    await again.goto(link);
    await expect.poll(() => again.getByRole('alert').textContent()).toContain('Setup is finished');
    await again.getByRole('link', { name: 'Go to sign in' }).click();
    await again.getByRole('button', { name: 'Sign in' }).waitFor();
    await again.screenshot({ path: 'test-results/dashboard-setup-used.png', fullPage: true });
  });
});
