import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { distEntry } from '../../kit/process.js';

const run = promisify(execFile);
type Entry = Parameters<typeof distEntry>[0];
/**
 * A process that hangs is killed after this. The first run on a new data folder initialises the
 * embedded database, which alone took over 30 s on a machine busy with other suites.
 */
const PROCESS_TIMEOUT_MS = 90_000;

/** Runs a project entry point of the build as a user would (`npm start`, `npm run cli`), returning its exit code and output. */
async function runEntry(entry: Entry, args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, [...distEntry(entry), ...args], { env: { PATH: process.env.PATH ?? '', ...env }, timeout: PROCESS_TIMEOUT_MS });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The same, with `input` on standard input. */
function runEntryWithInput(entry: Entry, args: string[], env: Record<string, string>, input: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(process.execPath, [...distEntry(entry), ...args], { env: { PATH: process.env.PATH ?? '', ...env }, timeout: PROCESS_TIMEOUT_MS });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c) => (stdout += c));
    child.stderr!.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin!.end(input);
  });
}

describe('process entry points', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mgw-cli-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('refuses to start with bad configuration, naming every bad variable', async () => {
    const result = await runEntry('main', [], { PORT: 'x', REDIS_URL: 'http://nope', DATA_DIR: dataDir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('PORT');
    expect(result.stderr).toContain('REDIS_URL');
  });

  it('decodes the QR image in an API answer read from standard input', async () => {
    const text = 'sandbox:abc123';
    const dataUrl = await (await import('qrcode')).default.toDataURL(text);
    const decode = (input: string) =>
      new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = execFile(process.execPath, [...distEntry('cli'), 'qr:decode'], { env: { PATH: process.env.PATH ?? '' } });
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
    expect((await runEntry('cli', ['migrate'], env)).stdout).toMatch(/applied|no pending/);
    const tenant = JSON.parse((await runEntry('cli', ['tenant:create', '--name', 'Acme', '--plan', 'starter'], env)).stdout);
    expect(tenant).toMatchObject({ name: 'Acme', plan: 'starter' });

    const user = await runEntry('cli', ['user:create', '--tenant', tenant.id, '--email', 'ops@acme.test', '--password', 'long-password'], env);
    expect(JSON.parse(user.stdout)).toMatchObject({ tenantId: tenant.id, email: 'ops@acme.test' });
    const duplicate = await runEntry('cli', ['user:create', '--tenant', tenant.id, '--email', 'OPS@acme.test', '--password', 'long-password'], env);
    expect(duplicate.code).toBe(2);

    const plan = await runEntry('cli', ['tenant:plan', '--tenant', tenant.id, '--plan', 'enterprise'], env);
    expect(JSON.parse(plan.stdout).plan).toBe('enterprise');
    const badPlan = await runEntry('cli', ['tenant:plan', '--tenant', tenant.id, '--plan', 'gold'], env);
    expect(badPlan.code).toBe(2);
    expect(badPlan.stderr).toContain('plan');

    const key = await runEntry('cli', ['key:create', '--tenant', tenant.id, '--name', 'deploy', '--test'], env);
    expect(JSON.parse(key.stdout).key).toMatch(/^mgw_test_/);
    const noTenant = await runEntry('cli', ['key:create', '--tenant', '00000000-0000-4000-8000-000000000000', '--name', 'x'], env);
    expect(noTenant.code).toBe(2);
    expect(noTenant.stderr).toMatch(/Tenant not found/);

    // Passwords from the environment or standard input, and a reset that ends the user's sessions.
    const fromEnv = await runEntry('cli', ['user:create', '--tenant', tenant.id, '--email', 'env@acme.test'], { ...env, GATEWAY_CLI_PASSWORD: 'password-from-env' });
    expect(JSON.parse(fromEnv.stdout)).toMatchObject({ email: 'env@acme.test' });
    const reset = await runEntryWithInput('cli', ['users:reset-password', '--email', 'env@acme.test', '--password-stdin'], env, 'a-new-long-password\n');
    expect(reset.code).toBe(0);
    expect(JSON.parse(reset.stdout)).toMatchObject({ email: 'env@acme.test', sessionsEnded: true });
    const shortPassword = await runEntryWithInput('cli', ['users:reset-password', '--email', 'env@acme.test', '--password-stdin'], env, 'short\n');
    expect(shortPassword.code).toBe(2);
    expect(shortPassword.stderr).toMatch(/^error: --password: /);
    expect((await runEntry('cli', ['users:reset-password', '--email', 'nobody@acme.test', '--password', 'long-password'], env)).code).toBe(2);

    // Listing and revoking.
    const tenants = JSON.parse((await runEntry('cli', ['tenants:list'], env)).stdout) as Array<{ id: string; users: number; activeKeys: number }>;
    expect(tenants.find((t) => t.id === tenant.id)).toMatchObject({ users: 2, activeKeys: 1 });
    const keys = JSON.parse((await runEntry('cli', ['keys:list', '--tenant', tenant.id], env)).stdout) as Array<{ id: string; keyPrefix: string }>;
    expect(keys).toHaveLength(1);
    expect(JSON.stringify(keys)).not.toContain(JSON.parse(key.stdout).key);
    expect((await runEntry('cli', ['keys:revoke', '--tenant', tenant.id, '--key', keys[0]!.id], env)).code).toBe(0);
    expect(JSON.parse((await runEntry('cli', ['keys:list', '--tenant', tenant.id], env)).stdout)).toEqual([]);
    expect((await runEntry('cli', ['keys:revoke', '--tenant', tenant.id, '--key', keys[0]!.id], env)).code).toBe(2);
  }, 180_000);

  it('explains itself with --help, and refuses unknown commands and options with one line and the usage, opening nothing', async () => {
    const untouched = join(dataDir, 'never-created');
    const env = { DATA_DIR: untouched };
    const help = await runEntry('cli', ['--help'], env);
    expect(help.code).toBe(0);
    for (const command of ['qr:decode', 'migrate', 'tenant:create', 'tenants:list', 'user:create', 'users:reset-password', 'key:create', 'keys:list', 'keys:revoke']) {
      expect(help.stdout).toContain(command);
    }
    const one = await runEntry('cli', ['keys:revoke', '--help'], env);
    expect(one).toMatchObject({ code: 0 });
    expect(one.stdout).toContain('keys:revoke --tenant <tenantId> --key <keyId>');

    const unknownCommand = await runEntry('cli', ['tenant:delete'], env);
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr.split('\n')[0]).toBe('error: unknown command "tenant:delete"');
    const unknownOption = await runEntry('cli', ['tenant:create', '--name', 'Acme', '--color', 'red'], env);
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr.split('\n')[0]).toMatch(/^error: Unknown option '--color'/);
    expect(unknownOption.stderr).toContain('Usage: npm run -s cli -- tenant:create --name <name>');
    expect(existsSync(untouched)).toBe(false);

    // Messages name the options the user typed.
    const badTenant = await runEntry('cli', ['user:create', '--tenant', 'acme', '--email', 'a@b.test', '--password', 'long-password'], { DATA_DIR: dataDir });
    expect(badTenant.code).toBe(2);
    expect(badTenant.stderr).toMatch(/--tenant: /);
    expect(badTenant.stderr).not.toMatch(/tenantId/);
  }, 120_000);
});
