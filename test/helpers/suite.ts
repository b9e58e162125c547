import { afterAll, beforeAll } from 'vitest';
import { createTenant, type TestTenant } from '../factories/tenants.js';
import { startTestGateway, type TestGateway, type TestGatewayOptions } from './gateway.js';
import { client, type Client } from './http.js';
import type { Mode } from './modes.js';

type Plan = 'starter' | 'pro' | 'enterprise';

export interface GatewaySuite {
  gw: TestGateway;
  api: Client;
  /** The tenants asked for, in order (one `pro` tenant by default). */
  tenants: TestTenant[];
}

/**
 * A gateway of the suite's own (started before its tests, closed after them) with a client and
 * tenants, each with a logged-in user and a live and a test key. Read the fields inside tests and
 * hooks: they are filled in before the first test runs.
 */
export function gatewaySuite(mode: Mode, options: TestGatewayOptions & { tenants?: Plan[] } = {}): GatewaySuite {
  const suite = {} as GatewaySuite;
  beforeAll(async () => {
    suite.gw = await startTestGateway(mode, options);
    suite.api = client(suite.gw.url);
    suite.tenants = await Promise.all((options.tenants ?? ['pro']).map((plan) => createTenant(suite.gw.gateway, suite.api, plan)));
  });
  afterAll(() => suite.gw?.close());
  return suite;
}
