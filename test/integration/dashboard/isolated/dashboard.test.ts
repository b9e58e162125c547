import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshotOnFailure as failureScreenshot } from '../../../kit/browser.js';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeQr } from '../../../../src/infra/qr-decode.js';
import { newPhone } from '../../../factories/sandbox.js';
import { createTenant, type TestTenant } from '../../../factories/tenants.js';
import { startTestGateway, type TestGateway } from '../../../kit/gateway.js';
import { type Client, client } from '../../../helpers/http.js';
import { MODES } from '../../../kit/modes.js';
import { startReceiver } from '../../../helpers/receiver.js';

/**
 * The dashboard in a real browser (Debian's chromium, driven by playwright-core) against a real
 * gateway, found by the accessible names clients and outside tools rely on. A failing test leaves a
 * screenshot in test-results/.
 */

describe('the dashboard build', () => {
  it('fails when the first page loads more JavaScript than its budget', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'dashboard-budget-'));
    process.env.DASHBOARD_BUDGET_KB = '10';
    try {
      await expect(build({ configFile: 'src/dashboard/vite.config.ts', logLevel: 'silent', build: { outDir } })).rejects.toThrow(/over budget/);
    } finally {
      delete process.env.DASHBOARD_BUDGET_KB;
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});

describe('the dashboard in a browser', () => {
  let gw: TestGateway;
  let api: Client;
  let tenant: TestTenant;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    [gw, receiver, browser] = await Promise.all([
      startTestGateway(MODES[0]!, { env: { WEBHOOK_ALLOW_INSECURE: 'true', WEBHOOK_RETRY_DELAYS: '0,1' } }),
      startReceiver(),
      launchBrowser(),
    ]);
    api = client(gw.url);
    tenant = await createTenant(gw.gateway, api);
    context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    page = await context.newPage();
    // Confirmation dialogs (delete, revoke) are answered yes.
    page.on('dialog', (dialog) => void dialog.accept());
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await gw?.close();
  });

  const screenshotOnFailure = (name: string) => failureScreenshot(() => page, `dashboard-${name}`);

  it('refuses a wrong password in words, then signs in, and the session survives a reload', async () => {
    screenshotOnFailure('sign-in');
    await page.goto(`${gw.url}/`);
    await page.getByLabel('Email').fill(tenant.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Invalid email or password.');

    await page.getByLabel('Password').fill(tenant.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'New instance' }).waitFor();
    await expect.poll(() => page.getByText('No instances yet').count()).toBe(1);
    await page.reload();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  });

  it('shows the sign-in page without a failed request or a console error, favicon included', async () => {
    screenshotOnFailure('sign-in-quiet');
    const fresh = await browser.newContext();
    try {
      const signedOut = await fresh.newPage();
      const problems: string[] = [];
      signedOut.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
      signedOut.on('response', (response) => response.status() >= 400 && problems.push(`${response.status()} ${response.url()}`));
      signedOut.on('requestfailed', (request) => problems.push(`failed ${request.url()}`));
      await signedOut.goto(`${gw.url}/`);
      await signedOut.getByRole('button', { name: 'Sign in' }).waitFor();
      expect(await signedOut.locator('link[rel="icon"]').getAttribute('href')).toMatch(/^data:image\/svg\+xml,/);
      expect(problems).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it('creates an instance whose QR image decodes to a code the sandbox accepts; scanning turns the page connected without a reload', async () => {
    screenshotOnFailure('pairing');
    await page.getByRole('button', { name: 'New instance' }).click();
    await page.getByLabel('Name').fill('Front desk');
    await page.getByRole('button', { name: 'Create' }).click();
    const qr = page.getByRole('img', { name: /^QR code/ });
    await qr.waitFor();
    const code = decodeQr((await qr.getAttribute('src'))!);
    expect(code).toMatch(/^sandbox:/);
    const phone = newPhone();
    const scanned = await api.post('/sandbox/scan', { body: { code, phone } });
    expect(scanned.status).toBe(200);
    // The subscription turns the page; nothing reloads it.
    await page.getByText(`with ${phone}`).waitFor();
    expect(await page.locator('.status').first().textContent()).toBe('connected');
    await page.getByRole('link', { name: '← Instances' }).click();
    const row = page.getByRole('row', { name: /Front desk/ });
    await expect.poll(() => row.textContent()).toContain('connected');
    expect(await row.textContent()).toContain(phone);
  });

  it('a new v1 instance: its secret shown once, qr_code while its QR is on screen, the pairing code in view, no number filled in', async () => {
    screenshotOnFailure('new-instance');
    await page.getByRole('button', { name: 'New instance' }).click();
    await page.getByLabel('Name').fill('Night desk');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('img', { name: /^QR code/ }).waitFor();
    // The webhook secret of the create answer, once, as REST shows it.
    const secret = page.locator('.warning .key code');
    await secret.waitFor();
    expect(await secret.textContent()).toMatch(/^whsec_/);
    // The code on screen was fetched: the instance says qr_code, as GET …/qr makes it.
    await expect.poll(() => page.locator('.heading .status').textContent()).toBe('qr_code');
    // Both ways to link are in view at 1100×900 without scrolling.
    const field = await page.getByLabel('Phone number to link').boundingBox();
    expect(field!.y + field!.height).toBeLessThanOrEqual(900);
    expect(await page.getByLabel('Phone number to link').inputValue()).toBe('');
    expect(await page.getByLabel('Sandbox phone number').inputValue()).toBe('');
    // Shown once: back on the page later, the secret is gone.
    await page.getByRole('link', { name: '← Instances' }).click();
    const row = page.getByRole('row', { name: /Night desk/ });
    await row.waitFor();
    expect(await page.getByRole('columnheader', { name: 'Network' }).count()).toBe(1);
    expect(await row.textContent()).toContain('Sandbox');
    await page.getByRole('link', { name: 'Night desk' }).click();
    await page.getByRole('img', { name: /^QR code/ }).waitFor();
    expect(await page.locator('.warning .key code').count()).toBe(0);
    await page.getByRole('link', { name: '← Instances' }).click();
  });

  it('replaces the QR image the moment a new code is issued, and pairs with the sandbox scan control', async () => {
    screenshotOnFailure('rotation');
    await page.getByRole('button', { name: 'New instance' }).click();
    await page.getByLabel('Name').fill('Support');
    await page.getByLabel('Kind').selectOption('SESSION');
    await page.getByRole('button', { name: 'Create' }).click();
    const qr = page.getByRole('img', { name: /^QR code/ });
    await qr.waitFor();
    const first = await qr.getAttribute('src');
    const id = decodeURIComponent(new URL(page.url()).hash.split('/')[2]!);
    // A new code issued elsewhere (here through REST) replaces the image.
    const regenerated = await api.post(`/chat/instances/${id}/regenerate-qr`, { cookie: tenant.cookie });
    expect(regenerated.status).toBe(200);
    await expect.poll(() => qr.getAttribute('src')).not.toBe(first);
    expect(decodeQr((await qr.getAttribute('src'))!)).toBe(decodeQr(regenerated.body.data.qrCode.base64));

    const phone = newPhone();
    await page.getByLabel('Sandbox phone number').fill(phone);
    await page.getByRole('button', { name: 'Scan with a sandbox phone' }).click();
    await page.getByText(`with ${phone}`).waitFor();
  });

  it('links an instance by pairing code: the code is shown, a sandbox phone enters it, the page shows the network and the last disconnect', async () => {
    screenshotOnFailure('pairing-code');
    await page.getByRole('link', { name: 'Instances', exact: true }).click();
    await page.getByRole('button', { name: 'New instance' }).click();
    await page.getByLabel('Name').fill('By phone number');
    // The form offers the gateway's engines.
    expect(await page.getByLabel('Network').locator('option').allTextContents()).toEqual(['Sandbox (simulated phones)']);
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('img', { name: /^QR code/ }).waitFor();
    const phone = newPhone();
    await page.getByLabel('Phone number to link').fill(phone);
    await page.getByRole('button', { name: 'Get pairing code' }).click();
    const code = page.locator('.pairing-code .code');
    await code.waitFor();
    expect(await code.textContent()).toMatch(/^[1-9A-HJ-NP-TV-Z]{4}-[1-9A-HJ-NP-TV-Z]{4}$/);
    await page.getByRole('button', { name: 'Enter it on the sandbox phone' }).click();
    await page.getByText(`with ${phone}`).waitFor();
    expect(await page.getByText('Sandbox (simulated phones)').count()).toBe(1);

    // A dropped connection comes back; the page then tells why it was down.
    const id = decodeURIComponent(new URL(page.url()).hash.split('/')[2]!);
    expect((await api.post(`/sandbox/instances/${id}/drop`)).status).toBe(200);
    await page.getByText('the connection was lost').waitFor();
  });

  it('creates an API key, shows it once with a warning, and revokes it', async () => {
    screenshotOnFailure('keys');
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Key name').fill('ci integration');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.locator('.key code');
    await shown.waitFor();
    const key = (await shown.textContent())!;
    expect(key).toMatch(/^mgw_test_/);
    await expect.poll(() => page.getByText('it is shown only once').count()).toBe(1);
    expect((await api.get('/api-keys', { key })).status).toBe(200);

    await page.getByRole('button', { name: 'Revoke ci integration' }).click();
    await expect.poll(() => page.getByRole('row', { name: /ci integration/ }).count()).toBe(0);
    expect((await api.get('/api-keys', { key })).status).toBe(401);
  });

  it('sends a test message and shows it reach delivered live', async () => {
    screenshotOnFailure('messages');
    await page.getByRole('link', { name: 'Messages' }).click();
    expect(await page.getByLabel('Text').inputValue()).toBe('');
    await page.getByLabel('To (digits with the country code)').fill('5511988887777');
    await page.getByLabel('Text').fill('hello from the browser');
    await page.getByLabel('Through').selectOption({ label: 'Front desk (connected)' });
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const row = page.getByRole('row', { name: /hello from the browser/ });
    await row.waitFor();
    await expect.poll(() => row.locator('.status').textContent(), { timeout: 15_000 }).toMatch(/^(delivered|read)$/);
    await page.getByLabel('Status').selectOption('failed');
    await expect.poll(() => page.getByRole('row', { name: /hello from the browser/ }).count()).toBe(0);
  });

  it('sends a location from the form, shows each kind in the list, and adds a received message live', async () => {
    screenshotOnFailure('kinds');
    await page.getByRole('link', { name: 'Messages' }).click();
    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('To (digits with the country code)').fill('5511988887777');
    await page.getByLabel('Kind').selectOption('location');
    await page.getByLabel('Latitude').fill('-23.5613');
    await page.getByLabel('Longitude').fill('-46.6565');
    await page.getByLabel('Place name').fill('MASP');
    await page.getByLabel('Through').selectOption({ label: 'Front desk (connected)' });
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const place = page.getByRole('link', { name: 'MASP' });
    await place.waitFor();
    expect(await place.getAttribute('href')).toBe('https://www.openstreetmap.org/?mlat=-23.5613&mlon=-46.6565#map=16/-23.5613/-46.6565');
    // A contact card sent over the API shows its name; a phone's message joins the list without a reload.
    const listed = await api.get('/v1/chat/instances', { key: tenant.liveKey });
    const desk = listed.body.data.find((instance: { name: string }) => instance.name === 'Front desk');
    const card = await api.post(`/v1/chat/instances/${desk.id}/messages`, {
      key: tenant.liveKey,
      body: { to: '5511988887777', contacts: [{ displayName: 'Jane Doe', vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Jane Doe\nEND:VCARD' }] },
    });
    expect(card.status, card.text).toBe(200);
    const heard = await api.post('/sandbox/messages', { body: { from: '5511977771234', to: String(desk.phoneNumber).slice(1), text: 'a live hello' } });
    expect(heard.status, heard.text).toBe(200);
    await page.locator(`tr[data-message-id="${heard.body.data.messageId}"]`).waitFor({ timeout: 15_000 });
    await page.reload();
    await page.locator(`tr[data-message-id="${card.body.data.id}"]`, { hasText: 'Jane Doe' }).waitFor();
  });

  it('shows received media in the message list: a picture as a thumbnail, a document as a download link', async () => {
    screenshotOnFailure('media');
    const listed = await api.get('/chat/instances', { cookie: tenant.cookie });
    const desk = listed.body.data.find((instance: { name: string }) => instance.name === 'Front desk');
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const to = String(desk.phone).slice(1);
    const picture = await api.post('/sandbox/messages', { body: { from: '5511977771234', to, type: 'image', caption: 'the shelf', media: { data: png, mimetype: 'image/png' } } });
    expect(picture.status, picture.text).toBe(200);
    const pdf = Buffer.from('%PDF-1.4 a tiny file').toString('base64');
    const document = await api.post('/sandbox/messages', { body: { from: '5511977771234', to, type: 'document', media: { data: pdf, mimetype: 'application/pdf', fileName: 'order.pdf' } } });
    expect(document.status, document.text).toBe(200);
    await page.getByRole('link', { name: 'Messages' }).click();
    // Received messages join the list when it is loaded again (status changes are what it follows live).
    await page.reload();
    await page.getByLabel('Status').selectOption('');
    const row = page.locator(`tr[data-message-id="${picture.body.data.messageId}"]`);
    await row.waitFor();
    const thumb = row.locator('img.thumb');
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 15_000 }).toBe(1);
    expect(await row.textContent()).toContain('the shelf');
    // Received rows say so under the "When" header; the caption sits beside the picture, above its link.
    expect(await page.getByRole('columnheader', { name: 'When' }).count()).toBe(1);
    expect(await page.getByRole('columnheader', { name: 'Sent at' }).count()).toBe(0);
    expect(await row.locator('td').last().textContent()).toMatch(/^received /);
    const [image, caption, download] = await Promise.all([row.locator('img.thumb').boundingBox(), row.locator('.caption').boundingBox(), row.locator('a', { hasText: 'Download image' }).boundingBox()]);
    expect(caption!.x).toBeGreaterThanOrEqual(image!.x + image!.width);
    expect(caption!.y).toBeLessThan(download!.y);
    // A document without a caption says its file name.
    const link = page.locator(`tr[data-message-id="${document.body.data.messageId}"] a`, { hasText: 'Download order.pdf' });
    expect(await link.getAttribute('href')).toEqual(expect.stringMatching(new RegExp(`^/media/${document.body.data.messageId}\\?expires=\\d+&signature=[\\w-]+$`)));
    expect(await link.getAttribute('download')).toBe('order.pdf');
    const fetched = await page.evaluate(async (href) => {
      const answer = await fetch(href!);
      return { status: answer.status, type: answer.headers.get('content-type'), text: await answer.text() };
    }, await link.getAttribute('href'));
    expect(fetched).toEqual({ status: 200, type: 'application/pdf', text: '%PDF-1.4 a tiny file' });
  });

  it('sets a webhook, sends a test with the receiver\'s answer, and shows attempts in the delivery log', async () => {
    screenshotOnFailure('webhooks');
    await page.getByRole('link', { name: 'Instances', exact: true }).click();
    await page.getByRole('link', { name: 'Front desk' }).click();
    await page.getByLabel('Webhook URL').fill(`${receiver.url}/dashboard`);
    await page.getByRole('button', { name: 'Save webhook' }).click();
    await page.getByText('Saved.').waitFor();
    await page.getByRole('button', { name: 'Send test' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toMatch(/^The receiver answered 200/);
    expect(receiver.of('webhook.test')).toHaveLength(1);

    // An event for the webhook: the phone reads the message it was sent.
    const sent = (await api.get('/v1/messages/list', { key: tenant.liveKey })).body.data.find((m: { text: string }) => m.text === 'hello from the browser');
    expect((await api.post('/sandbox/phones/5511988887777/read', { body: { messageId: sent.id } })).status).toBe(200);
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return page.getByText(/#1: 200 in \d+ ms/).count();
      }, { timeout: 15_000 })
      .toBeGreaterThan(0);
  });

  it('shows the sign-in form once the session has ended elsewhere, and signs in again', async () => {
    screenshotOnFailure('session-ended');
    const cookie = (await context.cookies()).find((c) => c.name === 'auth-session')!;
    expect((await api.delete('/auth/sessions', { cookie: `auth-session=${cookie.value}` })).status).toBe(200);
    // The list is read again when shown: the gateway refuses it, and the page asks to sign in.
    await page.getByRole('link', { name: 'Instances', exact: true }).click();
    await page.getByLabel('Email').waitFor();
    await page.getByLabel('Email').fill(tenant.email);
    await page.getByLabel('Password').fill(tenant.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  });

  it('works at 375 px wide without sideways scrolling, and signs out', async () => {
    screenshotOnFailure('narrow');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByRole('link', { name: 'Instances', exact: true }).click();
    await page.getByRole('row', { name: /Front desk/ }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email').waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  });
});
