import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ChildGateway, startChildGateway } from '../../kit/process.js';
import { seedPgliteDataDir } from '../../kit/templates.js';

/** Every path under `root` (itself included) whose group or others have any bit, with its mode. */
function shared(root: string): string[] {
  const found: string[] = [];
  const visit = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    if (stat.mode & 0o077) found.push(`${(stat.mode & 0o777).toString(8)} ${path}`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
  return found;
}

const modeOf = (path: string) => (lstatSync(path).mode & 0o777).toString(8);

/** The gateway as `npm start` runs it, with an admin account to create, once it answers /readyz. */
function startGateway(dataDir: string) {
  const env = { DATA_DIR: dataDir, GATEWAY_ADMIN_EMAIL: 'owner@example.com', GATEWAY_ADMIN_PASSWORD: 'a-long-enough-password' };
  return startChildGateway(env, { readyWithinMs: 90_000 });
}

/** Stops it with SIGTERM; its exit code. */
async function stop(gateway: ChildGateway) {
  await gateway.kill('SIGTERM');
  return gateway.exited;
}

/** Writes to the database over HTTP: a login stores a session. */
async function signIn(url: string) {
  const response = await fetch(`${url}/auth/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@example.com', password: 'a-long-enough-password' }),
  });
  expect(response.status).toBe(200);
}

describe('the embedded data folder is private to its user', () => {
  const root = mkdtempSync(join(tmpdir(), 'mgw-modes-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('creates a new data folder and the database in it readable by this user only, before and after writes', async () => {
    const dataDir = join(root, 'new', 'data');
    const gateway = await startGateway(dataDir);
    try {
      expect(modeOf(dataDir)).toBe('700');
      expect(modeOf(join(dataDir, 'pglite'))).toBe('700');
      await signIn(gateway.url);
      expect(shared(dataDir)).toEqual([]);
    } finally {
      expect(await stop(gateway)).toBe(0);
    }
    expect(shared(dataDir)).toEqual([]);
  }, 120_000);

  it('tightens an existing folder that others could read and write, with a warning', async () => {
    const dataDir = join(root, 'existing');
    mkdirSync(dataDir);
    seedPgliteDataDir(dataDir);
    // As an earlier version left it: folders 0755 and the database's first files 0666, the data folder 0777.
    const loosen = (path: string) => {
      const stat = lstatSync(path);
      chmodSync(path, stat.isDirectory() ? 0o755 : 0o666);
      if (stat.isDirectory()) for (const name of readdirSync(path)) loosen(join(path, name));
    };
    loosen(dataDir);
    chmodSync(dataDir, 0o777);
    expect(shared(dataDir).length).toBeGreaterThan(100);

    const gateway = await startGateway(dataDir);
    try {
      expect(modeOf(dataDir)).toBe('700');
      expect(modeOf(join(dataDir, 'pglite'))).toBe('700');
      expect(gateway.output()).toContain(`${dataDir} was open to its group or others: now 0700`);
      await signIn(gateway.url);
      expect(shared(dataDir)).toEqual([]);
    } finally {
      expect(await stop(gateway)).toBe(0);
    }
    expect(shared(dataDir)).toEqual([]);
  }, 120_000);
});
