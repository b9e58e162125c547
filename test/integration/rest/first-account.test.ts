import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distEntry, freePort } from '../../kit/process.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { client } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';

const LINK_LINE = /no user yet: create the first account at (http:\/\/127\.0\.0\.1:\d+)\/#\/setup\/([A-Za-z0-9_-]+) \(works once, for one hour\)/;

/** The gateway as a user starts it, with everything it prints collected. */
async function startPrinting(dataDir: string, env: Record<string, string> = {}) {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, distEntry('main'), {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '0.0.0.0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 90_000;
  while (!output.includes('gateway listening')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`gateway did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

describe('the first account, from the link printed at start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mgw-first-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prints a link on a fresh deployment that creates the tenant and its owner once, then refuses; none once a user exists', async () => {
    const gateway = await startPrinting(dataDir);
    let token: string;
    try {
      const printed = gateway.output().match(LINK_LINE);
      expect(printed, gateway.output()).not.toBeNull();
      expect(printed![1]).toBe(gateway.url);
      token = printed![2]!;
      // The start line names both the address it listens on and the one to open here.
      expect(gateway.output()).toMatch(new RegExp(`gateway listening on http://0\\.0\\.0\\.0:\\d+ \\(on this machine: ${gateway.url}\\)`));

      const api = client(gateway.url);
      expect((await api.post('/auth/setup/check', { body: { token } })).body).toMatchObject({ success: true, data: { open: true } });
      const wrong = await api.post('/auth/setup/check', { body: { token: `${token.slice(0, -2)}xx` } });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ success: false, error: { code: 'unauthorized', message: expect.stringContaining('not valid') } });
      const bad = await api.post('/auth/setup', { body: { token, email: 'not-an-email', password: 'short' } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(/email: .*password: /);
      expect((await api.post('/auth/setup', { raw: '{', headers: { 'content-type': 'application/json' } })).status).toBe(400);

      const created = await api.post('/auth/setup', { body: { token, email: 'Owner@Example.com', password: 'first-password', tenantName: 'Acme' } });
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({ user: { email: 'owner@example.com' }, tenant: { name: 'Acme', plan: 'pro' } });
      const cookie = created.headers.get('set-cookie')!.split(';')[0]!;
      expect(cookie).toMatch(/^auth-session=/);
      // Signed in: the session works, and the owner can also sign in with the password.
      expect((await api.get('/api-keys', { cookie })).status).toBe(200);
      expect((await api.post('/auth/sessions', { body: { email: 'owner@example.com', password: 'first-password' } })).status).toBe(200);

      // Used: the page's check and the endpoint refuse, and nothing more is created.
      const again = await api.post('/auth/setup', { body: { token, email: 'second@example.com', password: 'second-password' } });
      expect(again.status).toBe(403);
      expect(again.body).toEqual({ success: false, error: { code: 'forbidden', message: expect.stringContaining('Setup is finished') } });
      expect((await api.post('/auth/setup/check', { body: { token } })).status).toBe(403);
      expect((await api.post('/auth/sessions', { body: { email: 'second@example.com', password: 'second-password' } })).status).toBe(401);
    } finally {
      expect(await gateway.stop()).toBe(0);
    }
    // The token was written once: in the link line, nowhere else.
    expect(gateway.output().split(token).length - 1).toBe(1);

    const restarted = await startPrinting(dataDir);
    try {
      expect(restarted.output()).not.toContain('no user yet');
    } finally {
      expect(await restarted.stop()).toBe(0);
    }

    // A configured admin is only ever the first account: a new email on a gateway that has one creates
    // nothing and says so, where a second tenant used to appear silently.
    const configured = await startPrinting(dataDir, { GATEWAY_ADMIN_EMAIL: 'admin@example.com', GATEWAY_ADMIN_PASSWORD: 'change-me-please' });
    try {
      expect(configured.output()).toMatch(/"email":"admin@example\.com".*GATEWAY_ADMIN_EMAIL names no user of this gateway, which has accounts already: nothing was created/);
      const api = client(configured.url);
      expect((await api.post('/auth/sessions', { body: { email: 'admin@example.com', password: 'change-me-please' } })).status).toBe(401);
      expect((await api.post('/auth/sessions', { body: { email: 'owner@example.com', password: 'first-password' } })).status).toBe(200);
    } finally {
      expect(await configured.stop()).toBe(0);
    }
    // The existing owner named there is left as it is (its password is not reset).
    const same = await startPrinting(dataDir, { GATEWAY_ADMIN_EMAIL: 'owner@example.com', GATEWAY_ADMIN_PASSWORD: 'another-password' });
    try {
      expect(same.output()).toMatch(/"email":"owner@example\.com","created":false.*admin user ready/);
      const api = client(same.url);
      expect((await api.post('/auth/sessions', { body: { email: 'owner@example.com', password: 'first-password' } })).status).toBe(200);
      expect((await api.post('/auth/sessions', { body: { email: 'owner@example.com', password: 'another-password' } })).status).toBe(401);
    } finally {
      expect(await same.stop()).toBe(0);
    }
  }, 240_000);
});

describe.each(MODES)('setup links — $name', (mode) => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway(mode);
  });
  afterAll(async () => {
    await gw?.close();
  });
  const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

  it('stores links hashed, refuses an expired one, and lets only one of two links at once create the first account', async () => {
    const api = client(gw.url);
    const prisma = gw.gateway.infra.db.prisma;
    const printed = gw.logs.text().match(/\/#\/setup\/([A-Za-z0-9_-]+) /)![1]!;
    const stored = await prisma.setupToken.findMany();
    expect(stored.map((row) => row.tokenHash)).toEqual([hashOf(printed)]);
    expect(JSON.stringify(stored)).not.toContain(printed);
    expect(stored[0]!.expiresAt.getTime() - stored[0]!.createdAt.getTime()).toBeGreaterThan(59 * 60_000);
    expect(stored[0]!.expiresAt.getTime() - stored[0]!.createdAt.getTime()).toBeLessThanOrEqual(60 * 60_000 + 1000);

    await prisma.setupToken.create({ data: { tokenHash: hashOf('expired-link'), expiresAt: new Date(Date.now() - 1000) } });
    for (const path of ['/auth/setup/check', '/auth/setup']) {
      const expired = await api.post(path, { body: { token: 'expired-link', email: 'late@example.com', password: 'late-password' } });
      expect(expired.status).toBe(401);
      expect(expired.body.error).toEqual({ code: 'unauthorized', message: expect.stringContaining('expired') });
    }
    expect(await prisma.user.count()).toBe(0);

    // A second node's link (another start while no user exists) works too; used together, one wins.
    const second = await gw.gateway.services.setup.openIfNoUser();
    const attempts = await Promise.all(
      [printed, second!.token].map((token, n) => api.post('/auth/setup', { body: { token, email: `owner${n}@example.com`, password: 'owner-password' } })),
    );
    expect(attempts.map((a) => a.status).sort()).toEqual([201, expect.any(Number)]);
    expect([401, 403]).toContain(attempts.map((a) => a.status).sort()[1]);
    expect(await prisma.user.count()).toBe(1);
    expect(await prisma.tenant.count()).toBe(1);
    // Once a user exists, a start issues no link and forgets the old ones.
    expect(await gw.gateway.services.setup.openIfNoUser()).toBeNull();
    expect(await prisma.setupToken.count()).toBe(0);
  });
});
