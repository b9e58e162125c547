import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const TSX = join('node_modules', '.bin', 'tsx');

/** Runs a project entry point as a user would, returning its exit code and output. */
async function runEntry(entry: string, args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(TSX, [entry, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('process entry points', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mgw-cli-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('refuses to start with bad configuration, naming every bad variable', async () => {
    const result = await runEntry('src/main.ts', [], { PORT: 'x', REDIS_URL: 'http://nope', DATA_DIR: dataDir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('PORT');
    expect(result.stderr).toContain('REDIS_URL');
  });

  it('decodes the QR image in an API answer read from standard input', async () => {
    const text = 'sandbox:abc123';
    const dataUrl = await (await import('qrcode')).default.toDataURL(text);
    const decode = (input: string) =>
      new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = execFile(TSX, ['src/cli.ts', 'qr:decode'], { env: { PATH: process.env.PATH ?? '' } });
        let stdout = '';
        child.stdout!.on('data', (c) => (stdout += c));
        child.on('close', (code) => resolve({ code, stdout }));
        child.stdin!.end(input);
      });
    const decoded = await decode(JSON.stringify({ success: true, data: { qrCode: dataUrl } }));
    expect(decoded).toEqual({ code: 0, stdout: `${text}\n` });
    expect((await decode('no image here')).code).toBe(2);
  });

  it('runs the admin CLI: migrate, tenant, user, plan and key', async () => {
    const env = { DATA_DIR: dataDir };
    expect((await runEntry('src/cli.ts', ['migrate'], env)).stdout).toMatch(/applied|no pending/);
    const tenant = JSON.parse((await runEntry('src/cli.ts', ['tenant:create', '--name', 'Acme', '--plan', 'starter'], env)).stdout);
    expect(tenant).toMatchObject({ name: 'Acme', plan: 'starter' });

    const user = await runEntry('src/cli.ts', ['user:create', '--tenant', tenant.id, '--email', 'ops@acme.test', '--password', 'long-password'], env);
    expect(JSON.parse(user.stdout)).toMatchObject({ tenantId: tenant.id, email: 'ops@acme.test' });
    const duplicate = await runEntry('src/cli.ts', ['user:create', '--tenant', tenant.id, '--email', 'OPS@acme.test', '--password', 'long-password'], env);
    expect(duplicate.code).toBe(2);

    const plan = await runEntry('src/cli.ts', ['tenant:plan', '--tenant', tenant.id, '--plan', 'enterprise'], env);
    expect(JSON.parse(plan.stdout).plan).toBe('enterprise');
    const badPlan = await runEntry('src/cli.ts', ['tenant:plan', '--tenant', tenant.id, '--plan', 'gold'], env);
    expect(badPlan.code).toBe(2);
    expect(badPlan.stderr).toContain('plan');

    const key = await runEntry('src/cli.ts', ['key:create', '--tenant', tenant.id, '--name', 'deploy', '--test'], env);
    expect(JSON.parse(key.stdout).key).toMatch(/^mgw_test_/);
    const noTenant = await runEntry('src/cli.ts', ['key:create', '--tenant', '00000000-0000-4000-8000-000000000000', '--name', 'x'], env);
    expect(noTenant.code).toBe(2);
    expect(noTenant.stderr).toMatch(/Tenant not found/);
  }, 180_000);
});
