import { afterAll, beforeAll } from 'vitest';
import { createTenant, type TestTenant } from '../factories/tenants.js';
import { startTestGateway, type TestGateway, type TestGatewayOptions } from './gateway.js';
import { client, type Client } from '../helpers/http.js';
import type { Mode } from './modes.js';
import { sharedGateway } from './shared-gateway.js';

/** A plan of the gateway's table (the built-in ones, or one its PLANS_FILE adds). */
type Plan = string;

export interface GatewaySuite {
  gw: TestGateway;
  api: Client;
  /** The tenants asked for, in order (one `pro` tenant by default). */
  tenants: TestTenant[];
  /** The first tenant asked for. */
  readonly tenant: TestTenant;
  /** The second tenant asked for, in suites with two. */
  readonly other: TestTenant;
}

function emptySuite(): GatewaySuite {
  return {
    get tenant() { return this.tenants[0]!; },
    get other() { return this.tenants[1]!; },
  } as GatewaySuite;
}

/**
 * A gateway of the suite's own (started before its tests, closed after them) with a client and
 * tenants, each with a logged-in user and a live and a test key. Read the fields inside tests and
 * hooks: they are filled in before the first test runs.
 */
export function gatewaySuite(mode: Mode, options: TestGatewayOptions & { tenants?: Plan[] } = {}): GatewaySuite {
  const suite = emptySuite();
  beforeAll(async () => {
    suite.gw = await startTestGateway(mode, options);
    suite.api = client(suite.gw.url);
    suite.tenants = await Promise.all((options.tenants ?? ['pro']).map((plan) => createTenant(suite.gw.gateway, suite.api, plan)));
  });
  afterAll(() => suite.gw?.close());
  return suite;
}

/**
 * As gatewaySuite, on the worker's shared gateway of `mode` (test/kit/shared-gateway.ts): for
 * suites isolated by their tenants, which need no settings of their own. The suite's "close" checks
 * what the gateway logged while the suite ran and leaves the gateway up for the next one.
 */
export function sharedGatewaySuite(mode: Mode, options: { tenants?: Plan[] } = {}): GatewaySuite {
  const suite = emptySuite();
  beforeAll(async () => {
    suite.gw = borrow(await sharedGateway(mode));
    suite.api = client(suite.gw.url);
    suite.tenants = await Promise.all((options.tenants ?? ['pro']).map((plan) => createTenant(suite.gw.gateway, suite.api, plan)));
  });
  afterAll(() => suite.gw?.close());
  return suite;
}

/**
 * The shared gateway as one suite sees it: closing it ends the suite's use of it, failing (as a
 * gateway of its own would) when the gateway logged an error while the suite ran.
 */
export function borrow(shared: TestGateway, expectedErrors: RegExp[] = []): TestGateway {
  const from = shared.logs.lines.length;
  return {
    ...shared,
    async close() {
      const errors = shared.logs.lines.slice(from).filter((line) => /"level":(50|60)/.test(line) && !expectedErrors.some((pattern) => pattern.test(line)));
      if (errors.length) throw new Error(`the shared gateway logged unexpected errors while the suite ran:\n${errors.join('\n')}`);
    },
  };
}
