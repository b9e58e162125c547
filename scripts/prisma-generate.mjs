// `prisma generate` with no network: the CLI downloads a native schema engine that `generate` never runs
// (the bundled WASM tools do the work), so PRISMA_SCHEMA_ENGINE_BINARY names any existing file instead.
// Migrations go through the WASM schema engine (src/infra/db/migrate.ts).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { delimiter, join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const result = spawnSync(
  process.execPath,
  [fileURLToPath(new URL('../node_modules/prisma/build/index.js', import.meta.url)), 'generate', '--schema', 'prisma/schema.prisma'],
  {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      // generators such as prisma-pothos-types are looked up on PATH
      PATH: [join(root, 'node_modules', '.bin'), process.env.PATH].join(delimiter),
      PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
      CHECKPOINT_DISABLE: '1',
    },
  },
);
if (result.status !== 0) {
  process.stdout.write(result.stdout ?? '');
  process.exit(result.status ?? 1);
}
