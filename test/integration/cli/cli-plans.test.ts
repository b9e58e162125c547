import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runCli as cli, suiteDataFolder } from '../../kit/cli.js';
import { startChildGateway } from '../../kit/process.js';
import { client } from '../../helpers/http.js';

describe("the CLI changes a tenant's plan and limits: in the database, or through a running gateway's admin API", () => {
  const dataDir = suiteDataFolder();
  const ADMIN_TOKEN = randomBytes(32).toString('base64url');

  it('writes the database while no gateway runs, and goes through the admin API while one does', async () => {
    const env = { DATA_DIR: dataDir, PLAN_DEFAULT: 'starter' };
    const created = await cli(['tenant:create', '--name', 'Acme'], env);
    expect(created.code).toBe(0);
    const tenant = JSON.parse(created.stdout) as { id: string; plan: string };
    expect(tenant.plan).toBe('starter');
    const key = JSON.parse((await cli(['key:create', '--tenant', tenant.id, '--name', 'ops'], env)).stdout).key as string;

    // No gateway: straight into the database.
    const direct = await cli(['tenant:plan', '--tenant', tenant.id, '--plan', 'pro'], env);
    expect(direct.code).toBe(0);
    expect(JSON.parse(direct.stdout)).toMatchObject({ id: tenant.id, plan: 'pro', limits: { instances: 5 }, overrides: { instances: null } });
    expect(await cli(['tenant:plan', '--tenant', tenant.id, '--plan', 'gold'], env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error: --plan: unknown plan "gold"; known: starter, pro, enterprise, self-hosted\n$/) });
    expect(await cli(['tenant:limits', '--tenant', tenant.id, '--instances=-1'], env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error: --instances: /) });
    expect(await cli(['tenant:limits', '--instances', '3'], env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/--tenant: is required/) });
    const back = await cli(['tenant:plan', '--tenant', tenant.id, '--plan', 'starter'], env);
    expect(JSON.parse(back.stdout)).toMatchObject({ plan: 'starter', limits: { instances: 1 } });

    const gateway = await startChildGateway({ ...env, ADMIN_TOKEN });
    try {
      const api = client(gateway.url);
      const make = (name: string) => api.post('/v1/chat/instances', { key, body: { name } });
      expect((await make('first')).status).toBe(201);
      expect((await make('second')).status).toBe(403);

      // The gateway holds the data folder: the CLI, with the gateway's PORT and ADMIN_TOKEN, uses its admin API.
      const running = { ...env, PORT: new URL(gateway.url).port };
      const noToken = await cli(['tenant:plan', '--tenant', tenant.id, '--plan', 'self-hosted'], running);
      expect(noToken).toMatchObject({ code: 2, stderr: expect.stringContaining('set ADMIN_TOKEN') });
      const raised = await cli(['tenant:plan', '--tenant', tenant.id, '--plan', 'self-hosted'], { ...running, ADMIN_TOKEN });
      expect(raised.code).toBe(0);
      expect(JSON.parse(raised.stdout)).toMatchObject({ id: tenant.id, plan: 'self-hosted', limits: { instances: null } });
      // At once: the key was cached under the starter plan.
      expect((await make('second')).status).toBe(201);

      const capped = await cli(['tenant:limits', '--tenant', tenant.id, '--instances', '2', '--requests-per-minute', '500'], { ...running, ADMIN_TOKEN });
      expect(JSON.parse(capped.stdout)).toMatchObject({ limits: { instances: 2, requestsPerMinute: 500 }, overrides: { instances: 2, requestsPerMinute: 500, burst: null } });
      expect((await make('third')).body.error.message).toBe("This tenant's own limit allows 2 instance(s); delete one or upgrade.");
      const shown = await cli(['tenant:limits', '--tenant', tenant.id], { ...running, ADMIN_TOKEN });
      expect(JSON.parse(shown.stdout)).toEqual(JSON.parse(capped.stdout));

      // The gateway's refusals, in the CLI's words.
      expect(await cli(['tenant:plan', '--tenant', tenant.id, '--plan', 'gold'], { ...running, ADMIN_TOKEN })).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error: --plan: unknown plan "gold"/) });
      expect(await cli(['tenant:limits', '--tenant', tenant.id, '--burst', 'many'], { ...running, ADMIN_TOKEN })).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error: --burst: /) });
      expect(await cli(['tenant:plan', '--tenant', tenant.id, '--plan', 'pro'], { ...running, ADMIN_TOKEN: `${ADMIN_TOKEN}x` })).toMatchObject({ code: 2, stderr: expect.stringContaining('admin token') });
      expect(await cli(['tenant:plan', '--tenant', '00000000-0000-4000-8000-000000000000', '--plan', 'pro'], { ...running, ADMIN_TOKEN })).toMatchObject({ code: 2, stderr: 'error: Tenant not found.\n' });
    } finally {
      await gateway.kill('SIGTERM');
    }
    // Stopped, the gateway's changes are in the database the CLI reads again.
    const after = await cli(['tenant:limits', '--tenant', tenant.id], env);
    expect(JSON.parse(after.stdout)).toMatchObject({ plan: 'self-hosted', overrides: { instances: 2 } });
  }, 240_000);
});
