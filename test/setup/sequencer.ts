import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that take minutes on their own (hundreds of linked devices, process restarts, lease expiry,
 * CLI runs), in the order they start. A fresh clone has no timings cached, and vitest would order
 * files by size: a small slow file started last would keep the run going alone at the end.
 */
const SLOW_FIRST = [
  'integration/engines/baileys/baileys-scale.test.ts',
  'integration/cluster/processes.test.ts',
  'integration/engines/baileys/baileys-engine.test.ts',
  'integration/cluster/nodes.test.ts',
  'integration/cluster/shutdown-and-slow-clients.test.ts',
  'integration/rest/webhook-durability.test.ts',
  'integration/engines/baileys/baileys-pairing.test.ts',
  'integration/graphql/shared/graphql-subscriptions.test.ts',
  'integration/cluster/baileys-nodes.test.ts',
  'integration/engines/engine-state-rekey.test.ts',
  'integration/engines/baileys/isolated/baileys-untrusted-input.test.ts',
  // Half a minute each, and they came last: vitest orders by project name, so the shared suites run at the end.
  'integration/cli/cli-tenant-owner.test.ts',
  'integration/graphql/shared/graphql-live-lists.test.ts',
];

const rank = (spec: TestSpecification) => {
  const index = SLOW_FIRST.findIndex((path) => spec.moduleId.endsWith(path));
  return index === -1 ? SLOW_FIRST.length : index;
};

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // A stable sort: the rest keeps vitest's own order.
    return sorted.map((spec, at) => ({ spec, at })).sort((a, b) => rank(a.spec) - rank(b.spec) || a.at - b.at).map(({ spec }) => spec);
  }
}
