// npm run screenshots: the dashboard pictures of docs/dashboard.md, taken from the real UI. Builds if needed,
// starts the gateway on a fresh embedded database with the sandbox network, walks through the
// dashboard in Debian's chromium and writes docs/screenshots/*.png.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';

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
const gateway = spawn(process.execPath, [join(root, 'dist', 'main.js')], {
  env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, GATEWAY_ADMIN_EMAIL: email, GATEWAY_ADMIN_PASSWORD: password, LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '' },
  stdio: ['ignore', 'ignore', 'inherit'],
});

async function ready() {
  for (let i = 0; i < 100; i++) {
    if ((await fetch(`${base}/readyz`).catch(() => null))?.ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the gateway did not become ready');
}

async function shot(page: Page, name: string) {
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
  const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
  page.on('dialog', (dialog) => void dialog.accept());
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
  await page.getByLabel('Sandbox phone number').fill('+5511999990001');
  await page.getByRole('button', { name: 'Scan with a sandbox phone' }).click();
  await page.getByText('with +5511999990001').waitFor();
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
  await page.waitForTimeout(1500);
  await shot(page, 'messages');

  await page.getByRole('link', { name: 'API keys' }).click();
  await page.getByLabel('Key name').fill('order system');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.locator('.key code').waitFor();
  await shot(page, 'api-keys');

  await page.setViewportSize({ width: 375, height: 760 });
  await page.getByRole('link', { name: 'Instances', exact: true }).click();
  await page.getByRole('row', { name: /Sales line/ }).waitFor();
  await shot(page, 'narrow');
} finally {
  await browser.close();
  gateway.kill('SIGTERM');
  await new Promise((r) => gateway.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
