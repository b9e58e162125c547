import { describe, expect, it } from 'vitest';
import { runCli as cli, suiteDataFolder } from '../../kit/cli.js';
import { startChildGateway } from '../../kit/process.js';
import { client } from '../../helpers/http.js';

describe('the CLI creates a tenant with its owner in one command', () => {
  const dataDir = suiteDataFolder();

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
