import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './test/setup/sequencer.js';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql 16 ships CJS and .mjs builds; Node (and so Pothos and yoga) loads the CJS one. Tests must
    // load the same copy, or schema types count as "from another realm".
    alias: { graphql: require.resolve('graphql') },
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Under CI a JSON report as well, from which .ci/run prints a plain "N passed, N failed" line.
    reporters: process.env.CI ? ['default', ['json', { outputFile: '.ci/report.json' }]] : ['default'],
    pool: 'forks',
    // Builds dist/ for the process tests and migrates one database per storage mode for gateways to copy.
    globalSetup: ['test/setup/global.ts'],
    sequence: { sequencer: SlowFirstSequencer },
    // Each file starts its own gateways (on a copy of the migrated PGlite folder or PostgreSQL database).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
