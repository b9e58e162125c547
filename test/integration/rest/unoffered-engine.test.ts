import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { insertInstance } from '../../factories/instances.js';
import { createTenant } from '../../factories/tenants.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { client } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';

describe('an instance whose engine is not offered', () => {
  const open: TestGateway[] = [];
  let dataDir: string | undefined;
  afterAll(async () => {
    // close() fails on any error-level line: the waiting instance must not produce one.
    for (const gw of open.reverse()) await gw.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('is one warning line naming the instance and its integration, not an error with a stack', async () => {
    const first = await startTestGateway(MODES[0]!);
    open.push(first);
    dataDir = first.env.DATA_DIR;
    const tenant = await createTenant(first.gateway, client(first.url));
    const instance = await insertInstance(first.gateway, tenant.tenantId, { state: 'connected' });
    await first.gateway.infra.db.prisma.instance.update({ where: { id: instance.id }, data: { engine: 'CHAT-BAILEYS' } });
    await first.gateway.close();
    open.pop();

    // Started again without CHAT-BAILEYS in ENGINES: the node takes the instance, which waits.
    const second = await startTestGateway(MODES[0]!, { reuse: first, env: { ENGINES: 'sandbox' } });
    open.push(second);
    const about = () => second.logs.lines.filter((line) => line.includes(instance.id));
    await expect.poll(() => about().length, { timeout: 20_000 }).toBeGreaterThan(0);
    // Told again to look at it: nothing more is logged.
    await second.gateway.services.ownerDuties.work(instance.id, 'sync');
    await second.gateway.services.ownerDuties.work(instance.id, 'sync');

    expect(about()).toHaveLength(1);
    const line = JSON.parse(about()[0]!);
    expect(line).toMatchObject({
      level: 40,
      instanceId: instance.id,
      integration: 'CHAT-BAILEYS',
      msg: `instance ${instance.id} waits: its integration CHAT-BAILEYS is not in ENGINES; it stays as it is until it is offered again`,
    });
    expect(line.err).toBeUndefined();
    expect(about()[0]).not.toContain('stack');
  }, 60_000);
});
