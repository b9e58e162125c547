import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { distEntry, startChildGateway } from '../../kit/process.js';
import { client } from '../../helpers/http.js';
import { seedPgliteDataDir, testDataDir } from '../../kit/templates.js';

function cli(args: string[], env: Record<string, string>, input?: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(process.execPath, [...distEntry('cli'), ...args], { env: { ...process.env, ...env }, timeout: 60_000 });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c) => (stdout += c));
    child.stderr!.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin!.end(input ?? '');
  });
}

describe('the CLI creates a tenant with its owner in one command', () => {
  // A migrated folder: the CLI's first run on an empty one (initdb, migrations) is processes.test.ts's.
  const dataDir = testDataDir();
  seedPgliteDataDir(dataDir);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates both, refuses bad input naming the options, and the owner signs in to the gateway', async () => {
    const env = { DATA_DIR: dataDir };
    const created = await cli(['tenant:create', '--name', 'Acme', '--plan', 'starter', '--email', 'Owner@Acme.test', '--password-stdin'], env, 'owner-password\n');
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ name: 'Acme', plan: 'starter', owner: { email: 'owner@acme.test' } });

    const taken = await cli(['tenant:create', '--name', 'Other', '--email', 'owner@acme.test', '--password', 'owner-password'], env);
    expect(taken).toMatchObject({ code: 2, stderr: 'error: --email: a user with this email exists\n' });
    const short = await cli(['tenant:create', '--name', 'Other', '--email', 'new@acme.test', '--password', 'short'], env);
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/^error: --password: /);
    const noEmail = await cli(['tenant:create', '--name', 'Other', '--password', 'long-password'], env);
    expect(noEmail.code).toBe(2);
    expect(noEmail.stderr).toContain('--email');
    const tenants = JSON.parse((await cli(['tenants:list'], env)).stdout) as Array<{ name: string; users: number }>;
    expect(tenants.map((t) => [t.name, t.users])).toEqual([['Acme', 1]]);

    const gateway = await startChildGateway(env);
    try {
      const login = await client(gateway.url).post('/auth/sessions', { body: { email: 'owner@acme.test', password: 'owner-password' } });
      expect(login.status).toBe(200);
      expect(login.body.data.tenant).toMatchObject({ name: 'Acme', plan: 'starter' });
    } finally {
      await gateway.kill('SIGTERM');
    }
  }, 180_000);
});
