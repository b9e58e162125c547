import { mkdirSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { onTestFailed } from 'vitest';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// As root in a container; and without background networking, chromium does not call out of a closed network.
const ARGS = ['--no-sandbox', '--headless', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Debian's chromium, headless, driven by playwright-core (the dashboard suites' browser). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/** When the running test fails, the page as it was, in test-results/<name>.png. */
export function screenshotOnFailure(page: () => Page, name: string): void {
  onTestFailed(async () => {
    mkdirSync('test-results', { recursive: true });
    await page().screenshot({ path: `test-results/${name}.png`, fullPage: true });
  });
}
