// npm run build: generates the Prisma client, compiles the server into dist/, bundles its entry point, builds the dashboard, then records what
// it was built from (scripts/build-stamp.mjs), so `npm start` rebuilds only when that changed.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildStamp, STAMP_FILE } from './build-stamp.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = (args) => {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

// The client is generated again only when the schema or the installed packages are newer than it,
// so a build never rewrites files a running process (or test run) is reading.
const generated = new URL('../src/infra/db/generated/client.ts', import.meta.url);
const mtime = (url) => statSync(url).mtimeMs;
const stale =
  !existsSync(generated) ||
  mtime(generated) < mtime(new URL('../prisma/schema.prisma', import.meta.url)) ||
  mtime(generated) < mtime(new URL('../package-lock.json', import.meta.url));
if (stale) run([fileURLToPath(new URL('./prisma-generate.mjs', import.meta.url))]);
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
// Emit only: the type check is `npm run typecheck`'s and `npm test`'s. With isolatedModules each file's
// output does not depend on the types, so it is the same as a checked build's, for a third of the CPU.
run([fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url)), '-p', 'tsconfig.build.json', '--noCheck']);
// dist/main.js again, as one bundle (scripts/bundle-server.mjs): what a start loads in a few files.
run([fileURLToPath(new URL('./bundle-server.mjs', import.meta.url))]);
// The dashboard (src/dashboard) into dist/dashboard; the build fails when its first page is over its JavaScript budget.
run([fileURLToPath(new URL('../node_modules/vite/bin/vite.js', import.meta.url)), 'build', '--config', 'src/dashboard/vite.config.ts']);
writeFileSync(STAMP_FILE, buildStamp());
