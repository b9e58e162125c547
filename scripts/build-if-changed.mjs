// Before `npm start`: builds dist/ when it is missing or its sources changed since it was built, so a
// fresh clone starts with `npm ci && npm start`; otherwise does nothing (a few milliseconds).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildStamp, STAMP_FILE } from './build-stamp.mjs';

const built = existsSync(STAMP_FILE) ? readFileSync(STAMP_FILE, 'utf8') : '';
if (built !== buildStamp()) {
  process.stderr.write(built ? 'building dist/ (sources changed since the last build)\n' : 'building dist/\n');
  // Its output goes to stderr: stdout belongs to the command that follows (the CLI's answers).
  const result = spawnSync(process.execPath, [fileURLToPath(new URL('./build.mjs', import.meta.url))], { stdio: ['ignore', 2, 2] });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
