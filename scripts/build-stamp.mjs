// What a build of dist/ depends on, as one hash of file names, sizes and modification times: cheap
// enough to check on every `npm start`.
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const STAMP_FILE = join(root, 'dist', '.build-stamp');
const INPUTS = ['src', 'prisma/schema.prisma', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs', 'scripts/bundle-server.mjs'];
// Written by the build itself.
const SKIP = join('src', 'infra', 'db', 'generated');

function visit(relative, hash) {
  const path = join(root, relative);
  let stat;
  try {
    stat = statSync(path);
  } catch {
    hash.update(`${relative}:missing\n`);
    return;
  }
  if (stat.isDirectory()) {
    if (relative === SKIP) return;
    for (const entry of readdirSync(path).sort()) visit(join(relative, entry), hash);
    return;
  }
  hash.update(`${relative}:${stat.size}:${stat.mtimeMs}\n`);
}

export function buildStamp() {
  const hash = createHash('sha256');
  for (const input of INPUTS) visit(input, hash);
  return hash.digest('hex');
}
