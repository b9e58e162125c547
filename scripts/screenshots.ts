// npm run screenshots: the dashboard pictures of docs/dashboard.md, taken from the real UI. Builds if needed,
// starts the gateway on a fresh embedded database with the sandbox network, walks through the
// dashboard in Debian's chromium and writes docs/screenshots/*.png.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { PNG } from 'pngjs';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'docs', 'screenshots');
const email = 'admin@example.com';
const password = 'change-me-please';

const port = await new Promise<number>((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    server.close(() => resolve(port));
  });
});
const base = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(join(tmpdir(), 'gateway-screenshots-'));

if (spawnSync(process.execPath, [join(root, 'scripts', 'build-if-changed.mjs')], { stdio: 'inherit' }).status !== 0) process.exit(1);
// The walk-through clicks faster than a person: the plan's per-minute request limit is raised for it.
const gateway = spawn(process.execPath, [join(root, 'dist', 'main.js')], {
  env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, GATEWAY_ADMIN_EMAIL: email, GATEWAY_ADMIN_PASSWORD: password, LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '', WEBHOOK_ALLOW_INSECURE: 'true', RATE_LIMIT_PER_MINUTE: '600' },
  stdio: ['ignore', 'ignore', 'inherit'],
});

async function ready() {
  for (let i = 0; i < 300; i++) {
    if ((await fetch(`${base}/readyz`).catch(() => null))?.ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the gateway did not become ready');
}

// A webhook receiver on loopback, so the delivery log has rows to show.
const receiver = createHttpServer((_req, res) => res.end('ok'));
const receiverUrl = await new Promise<string>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`)));

/** A picture of the viewport, scrolled to `at` first when given. */
async function shot(page: Page, name: string, at?: string) {
  if (at) await page.locator(at).first().evaluate((element) => {
    element.scrollIntoView({ block: 'start' });
    scrollBy(0, -12);
  });
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(out, `${name}.png`) });
  console.log(`docs/screenshots/${name}.png`);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  await ready();
  mkdirSync(out, { recursive: true });
  const page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
  page.on('dialog', (dialog) => void dialog.accept());
  const open = async (hash: string, shown: () => Promise<unknown>) => {
    await page.goto(`${base}/${hash}`);
    await shown();
  };
  await page.goto(`${base}/`);
  await page.getByLabel('Email').waitFor();
  await shot(page, 'sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();

  for (const name of ['Support', 'Sales line']) {
    await page.getByRole('link', { name: 'Instances', exact: true }).click();
    await page.getByRole('button', { name: 'New instance' }).click();
    await page.getByLabel('Name').fill(name);
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('img', { name: /^QR code/ }).waitFor();
  }
  await shot(page, 'pairing');
  const salesLine = new URL(page.url()).hash;
  await page.getByLabel('Sandbox phone number').fill('+5511999990001');
  await page.getByRole('button', { name: 'Scan with a sandbox phone' }).click();
  await page.getByText('with +5511999990001').waitFor();
  await page.getByLabel('Webhook URL').fill(receiverUrl);
  await page.getByRole('button', { name: 'Save webhook' }).click();
  await page.getByText('Saved.').waitFor();
  await page.getByRole('link', { name: 'Instances', exact: true }).click();
  await page.getByRole('row', { name: /Sales line/ }).waitFor();
  await shot(page, 'instances');

  await page.getByRole('link', { name: 'Messages' }).click();
  for (const [to, text] of [['5511988887777', 'Your order #1042 shipped'], ['5511977776666', 'Your table is ready']]) {
    await page.getByLabel('To (digits with the country code)').fill(to);
    await page.getByLabel('Text').fill(text);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('row', { name: new RegExp(text) }).waitFor();
  }
  // A text to a group the instance made (named by its subject), and one deleted for everyone.
  const salesId = decodeURIComponent(salesLine.split('/')[2]!);
  const call = (method: string, path: string, body?: unknown) =>
    page.evaluate(async ([method, path, body]) => (await fetch(path as string, { method: method as string, headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined })).json(), [method, path, body] as const);
  const group = (await call('POST', `/chat/instances/${salesId}/groups`, { subject: 'Kitchen team', participants: ['5511966665555'] })) as { data: { id: string } };
  for (const [to, text] of [[group.data.id, 'Two tables of six at 8 pm'], ['5511955554444', 'Sent to the wrong number']]) {
    await page.getByLabel('To (digits with the country code)').fill(to!);
    await page.getByLabel('Text').fill(text!);
    await page.getByLabel('Through').selectOption({ label: 'Sales line (connected)' });
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('row', { name: new RegExp(text!) }).locator('.status', { hasText: /delivered|read/ }).waitFor();
  }
  const wrong = await page.getByRole('row', { name: /Sent to the wrong number/ }).getAttribute('data-message-id');
  await call('DELETE', `/chat/instances/${salesId}/messages/${wrong}`);
  await page.reload();
  await page.locator('.status-deleted').waitFor();
  await page.waitForTimeout(1500);
  await shot(page, 'messages', 'form.filters');

  const deliveries = () => page.getByRole('button', { name: 'Redeliver' }).first().waitFor();
  await open(salesLine, deliveries);
  await shot(page, 'webhooks', '.heading:has(h3)');

  // The inbox: customers' phones write to the Sales line (every kind), the line answers one of them.
  const line = '+5511999990001';
  const phone = (from: string, pushName: string, body: Record<string, unknown>) =>
    call('POST', '/sandbox/messages', { from, to: line, pushName, ...body }) as Promise<{ data: { messageId: string } }>;
  const sky = new PNG({ width: 320, height: 200 });
  for (let i = 0; i < 320 * 200; i++) sky.data.set([70 + ((i % 320) >> 2), 130 + Math.floor(i / 320 / 4), 210, 255], i * 4);
  const marta = '+5511944443333';
  await phone(marta, 'Marta Alves', { text: 'Hi! Did my order #1042 leave yet?' });
  await phone(marta, 'Marta Alves', { type: 'image', media: { data: PNG.sync.write(sky).toString('base64'), mimetype: 'image/png', fileName: 'label.png' }, caption: 'This is the label I got' });
  const answer = (await call('POST', `/chat/instances/${salesId}/messages`, { to: marta.slice(1), text: 'Yes, it ships today. Tracking code BR-2291.' })) as { data: { id: string } };
  await page.waitForTimeout(800);
  await phone(marta, 'Marta Alves', { type: 'reaction', reaction: { messageId: answer.data.id, emoji: '🙏' } });
  await phone(marta, 'Marta Alves', { text: 'Thank you!', quotedMessageId: answer.data.id });
  await phone(marta, 'Marta Alves', { type: 'location', location: { name: 'Rua Augusta, 1200', latitude: -23.5558, longitude: -46.6596 } });
  // A second of a quiet tone, as a WAV file, so the player shows its length.
  const tone = Buffer.alloc(44 + 8000);
  tone.write('RIFF', 0);
  tone.writeUInt32LE(36 + 8000, 4);
  tone.write('WAVEfmt ', 8);
  tone.writeUInt32LE(16, 16);
  tone.writeUInt16LE(1, 20);
  tone.writeUInt16LE(1, 22);
  tone.writeUInt32LE(8000, 24);
  tone.writeUInt32LE(8000, 28);
  tone.writeUInt16LE(1, 32);
  tone.writeUInt16LE(8, 34);
  tone.write('data', 36);
  tone.writeUInt32LE(8000, 40);
  for (let i = 0; i < 8000; i++) tone[44 + i] = 128 + Math.round(20 * Math.sin(i / 4));
  await phone(marta, 'Marta Alves', { type: 'audio', voice: true, media: { data: tone.toString('base64'), mimetype: 'audio/wav' } });
  await phone('+5511933332222', 'João Pereira', { type: 'document', media: { data: Buffer.from('%PDF-1.4').toString('base64'), mimetype: 'application/pdf', fileName: 'quote-2291.pdf' } });
  await phone('+5511922221111', 'Lia Rocha', { text: 'Do you deliver on Sundays?' });
  const inbox = `#/instances/${encodeURIComponent(salesId)}/inbox`;
  await open(`${inbox}/${marta.slice(1)}`, () => page.locator('.bubble audio').waitFor());
  await page.waitForTimeout(800);
  await shot(page, 'inbox');

  await page.getByRole('link', { name: 'API keys' }).click();
  await page.getByLabel('Key name').fill('order system');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.locator('.key code').waitFor();
  await shot(page, 'api-keys');

  // At 375 px every table is a list of cards: each column and each row's button in view.
  await page.setViewportSize({ width: 375, height: 760 });
  await open('#/instances', () => page.getByRole('row', { name: /Sales line/ }).waitFor());
  await shot(page, 'narrow');
  await open('#/messages', () => page.getByRole('row', { name: /Your table is ready/ }).waitFor());
  await shot(page, 'narrow-messages', 'table');
  await open(salesLine, deliveries);
  await shot(page, 'narrow-webhooks', '.heading:has(h3)');
  await open(inbox, () => page.locator('li.chat').first().waitFor());
  await shot(page, 'narrow-inbox');
  await open(`${inbox}/${marta.slice(1)}`, () => page.locator('.bubble audio').waitFor());
  await shot(page, 'narrow-inbox-chat');
  await open('#/keys', () => page.getByRole('button', { name: 'Revoke order system' }).waitFor());
  await shot(page, 'narrow-api-keys', 'table');
} finally {
  await browser.close();
  gateway.kill('SIGTERM');
  await new Promise((r) => gateway.once('exit', r));
  receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
}
