// `npm ci` / `npm install` (npm's "prepare" step) builds dist/, so the first `npm start` starts as fast
// as every later one. An install without the dev dependencies (`npm ci --omit=dev`, for an image built
// from a tree that already has dist/) has no compiler: it builds nothing, and says so.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const tools = ['../node_modules/typescript/bin/tsc', '../node_modules/vite/bin/vite.js'].map((path) => new URL(path, import.meta.url));
if (!tools.every((tool) => existsSync(tool))) {
  process.stderr.write('dist/ not built: the dev dependencies are not installed (run `npm run build` where they are)\n');
  process.exit(0);
}
const result = spawnSync(process.execPath, [fileURLToPath(new URL('./build-if-changed.mjs', import.meta.url))], { stdio: 'inherit' });
process.exit(result.status ?? 1);
