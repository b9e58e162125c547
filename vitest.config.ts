import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './test/setup/sequencer.js';

const require = createRequire(import.meta.url);

/**
 * A file's folder picks its project (docs/development.md, "Tests"): `shared/` files use the worker's
 * shared gateways, `isolated/` files change process-wide state and get a fresh worker each.
 */
const SHARED = ['test/**/shared/**/*.test.ts'];
const ISOLATED = ['test/**/isolated/**/*.test.ts'];

export default defineConfig({
  resolve: {
    // graphql 16 ships CJS and .mjs builds; Node (and so Pothos and yoga) loads the CJS one. Tests must
    // load the same copy, or schema types count as "from another realm".
    alias: { graphql: require.resolve('graphql') },
  },
  test: {
    projects: [
      { extends: true, test: { name: 'own', include: ['test/**/*.test.ts'], exclude: [...SHARED, ...ISOLATED], isolate: false } },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
      { extends: true, test: { name: 'shared', include: SHARED, isolate: false } },
    ],
    // Under CI a JSON report as well, from which .ci/run prints a plain "N passed, N failed" line.
    reporters: process.env.CI ? ['default', ['json', { outputFile: '.ci/report.json' }]] : ['default'],
    pool: 'forks',
    // As the process tests' gateways run (distEntry, test/kit/process.ts): each worker compiles
    // PGlite's WebAssembly with V8's baseline compiler only. The optimising compiler's second pass cost
    // a worker 1–2 s more CPU in all than its statements gained from it (docs/development.md, "Tests").
    execArgv: ['--liftoff-only'],
    // Builds dist/ for the process tests and migrates one database per storage mode for gateways to copy.
    globalSetup: ['test/setup/global.ts'],
    sequence: { sequencer: SlowFirstSequencer },
    // Each file starts its own gateways (on a copy of the migrated PGlite folder or PostgreSQL database).
    // Three workers on two cores: the files spend much of their time waiting on sockets, processes and
    // timers (docs/development.md, "Tests").
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
