import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../kit/browser.js';
import { createTenant, type TestTenant } from '../../factories/tenants.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { client, type Client } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';

/** An instance's settings in a real browser (docs/settings.md): what is saved there is what REST answers. */
describe('the dashboard changes an instance’s settings', () => {
  let gw: TestGateway;
  let api: Client;
  let tenant: TestTenant;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    gw = await startTestGateway(MODES[0]!);
    api = client(gw.url);
    tenant = await createTenant(gw.gateway, api);
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1100, height: 1400 } })).newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('saves pacing and ignored chats as REST then answers them, and offers no proxy on the sandbox', async () => {
    const created = await api.post('/v1/chat/instances', { key: tenant.liveKey, body: { name: 'Dashboard settings' } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as string;

    await page.goto(`${gw.url}/`);
    await page.getByLabel('Email').fill(tenant.email);
    await page.getByLabel('Password').fill(tenant.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'New instance' }).waitFor();
    await page.goto(`${gw.url}/#/instances/${id}`);
    const section = page.locator('section[aria-labelledby="settings-heading"]');
    await section.getByRole('button', { name: 'Save settings' }).waitFor();
    expect(await section.getByLabel(/New proxy URL/).isDisabled()).toBe(true);

    await section.getByLabel('Groups').check();
    await section.getByLabel('At least (ms) between messages').fill('1200');
    await section.getByLabel(/First messages to new numbers per hour/).fill('30');
    await section.getByRole('button', { name: 'Save settings' }).click();
    await section.getByText('Saved.').waitFor();
    mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/dashboard-settings.png', fullPage: true });

    const answer = await api.get(`/v1/chat/instances/${id}/settings`, { key: tenant.liveKey });
    expect(answer.body.data.ignore).toEqual({ groups: true, broadcasts: false, status: true });
    expect(answer.body.data.sending).toEqual({ minIntervalMs: 1200, jitterMs: 0, newContactsPerHour: 30, typing: false });
  }, 90_000);
});
