/**
 * `npm start` → `/readyz` 200 on existing data, both modes; `--baseline <checkout>` alternates another build
 * in the same run (docs/benchmarks.md, "Each benchmark in detail").
 * Usage: npm run bench:start [-- --rounds 5 --baseline /path/to/checkout --mode embedded|PostgreSQL]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { execFile } from 'node:child_process';
import { REDIS_URL } from '../kit/modes.js';
import { createTestDatabase } from '../kit/postgres.js';
import { buildIfChanged, npmStart } from './as-users-run-it.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, baseline: { type: 'string' }, mode: { type: 'string', default: '' } } });
const ROUNDS = Number(values.rounds);

await buildIfChanged();
if (values.baseline) await promisify(execFile)(process.execPath, ['scripts/build-if-changed.mjs'], { cwd: values.baseline });

const database = await createTestDatabase();
const dirs: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'mgw-bench-start-'));
  dirs.push(dir);
  return dir;
};
// Each build its own data (a folder, a database schema is shared: both builds migrate it alike).
const builds = [{ name: 'this build', cwd: undefined as string | undefined }, ...(values.baseline ? [{ name: 'baseline', cwd: values.baseline }] : [])];
const modes = [
  { name: 'embedded', storage: () => ({ DATA_DIR: folder() }) },
  { name: 'PostgreSQL + Redis', storage: () => ({ DATA_DIR: folder(), DATABASE_URL: database.url, REDIS_URL, REDIS_PREFIX: `mgwbenchstart:${randomBytes(4).toString('hex')}:` }) },
].filter((m) => m.name.includes(values.mode!));
try {
  for (const mode of modes) {
    const runs = builds.map((build) => ({ ...build, storage: mode.storage(), times: [] as number[] }));
    // Creates and migrates the data: what a restart finds.
    for (const run of runs) await (await npmStart(run.storage, { cwd: run.cwd })).stop();
    for (let round = 0; round < ROUNDS; round++) {
      // Alternating, and each build first as often as second.
      const order = round % 2 ? [...runs].reverse() : runs;
      for (const run of order) {
        const started = await npmStart(run.storage, { cwd: run.cwd });
        run.times.push(started.readyMs);
        await started.stop();
      }
    }
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
    console.log(`\n${mode.name}: npm start → /readyz 200 on existing data, from the spawn`);
    for (const run of runs) console.log(`  ${run.name}: ${run.times.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ')} (median ${(median(run.times) / 1000).toFixed(2)} s)`);
    if (runs.length === 2) {
      const ratios = runs[0]!.times.map((ms, n) => ms / runs[1]!.times[n]!);
      console.log(`  this build / baseline, round by round: ${ratios.map((r) => r.toFixed(2)).join(', ')} (median ${median(ratios).toFixed(2)})`);
    }
  }
} finally {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await database.drop();
}
process.exit(0);
