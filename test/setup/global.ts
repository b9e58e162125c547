import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { distEntry } from '../kit/process.js';
import { POSTGRES_ADMIN_URL } from '../kit/modes.js';
import { withAdmin } from '../kit/postgres.js';
import { TEMPLATE_ENV, testDataRoots } from '../kit/templates.js';

/**
 * Once per `vitest run`: the server and dashboard built into dist/ and one database per storage mode
 * migrated for gateways to copy (docs/development.md, "Tests"). No test file builds: others read dist/.
 */
export default function setup(): Promise<(() => Promise<void>) | undefined> {
  // Each project of vitest.config.ts inherits this file, and vitest runs it once per project (and once
  // for the root) in its one process: the first call does the work, the others wait for it and leave
  // the teardown to it. Without this a run built four templates of each kind and used one.
  const shared = globalThis as { [ONCE]?: Promise<() => Promise<void>> };
  if (shared[ONCE]) return shared[ONCE].then(() => undefined);
  shared[ONCE] = prepare();
  return shared[ONCE];
}

const ONCE = Symbol.for('messaging-gateway.test.global-setup');

async function prepare(): Promise<() => Promise<void>> {
  await run(['scripts/build-if-changed.mjs'], {});
  await dropTemplatesOfEndedRuns();
  removeFoldersOfEndedRuns();
  // Test gateways' data folders are made inside it (test/kit/templates.ts), and go with it.
  const pgliteDir = mkdtempSync(join(testDataRoots().chosen, `${FOLDER_PREFIX}${process.pid}-`));
  // A name of this run's own: other checkouts may run their suites against the same server.
  const postgresName = `${TEMPLATE_PREFIX}${process.pid}_${randomBytes(4).toString('hex')}`;
  const teardown = async () => {
    rmSync(pgliteDir, { recursive: true, force: true });
    await withAdmin(async (client) => {
      // Test gateways' databases (test/kit/postgres.ts), the shared ones' included, are named after the
      // template: those a test left behind go here.
      const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [`${postgresName}_`]);
      for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      await client.query(`DROP DATABASE IF EXISTS ${postgresName} WITH (FORCE)`);
    });
  };
  try {
    await withAdmin((client) => client.query(`CREATE DATABASE ${postgresName}`));
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${postgresName}`;
    // The CLI closes its connections before it exits: a template is not copied while anyone is connected.
    await Promise.all([run([...distEntry('cli'), 'migrate'], { DATA_DIR: pgliteDir }), run([...distEntry('cli'), 'migrate'], { DATABASE_URL: url.toString() })]);
  } catch (error) {
    await teardown();
    throw error;
  }
  process.env[TEMPLATE_ENV.pglite] = pgliteDir;
  process.env[TEMPLATE_ENV.postgres] = postgresName;
  return teardown;
}

/** This machine's templates carry the pid of the run that made them, so a later run can tell which were left behind. */
const TEMPLATE_PREFIX = `mgw_template_${createHash('sha256').update(hostname()).digest('hex').slice(0, 6)}_`;

/** A run that was killed never dropped its template nor the test databases named after it: drop those whose run (on this machine) has ended. */
async function dropTemplatesOfEndedRuns() {
  await withAdmin(async (client) => {
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [TEMPLATE_PREFIX]);
    for (const { datname } of rows) {
      const pid = Number(datname.slice(TEMPLATE_PREFIX.length).split('_')[0]);
      if (Number.isInteger(pid) && !alive(pid)) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    }
  });
}

/** PGlite template folders (with the test gateways' folders inside) carry the pid of their run too. */
const FOLDER_PREFIX = 'mgw-template-';

function removeFoldersOfEndedRuns() {
  for (const root of testDataRoots().all) {
    for (const name of readdirSync(root)) {
      if (!name.startsWith(FOLDER_PREFIX)) continue;
      const pid = Number(name.slice(FOLDER_PREFIX.length).split('-')[0]);
      if (Number.isInteger(pid) && pid > 0 && !alive(pid)) rmSync(join(root, name), { recursive: true, force: true });
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function run(args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`node ${args.join(' ')} failed (exit ${code})`))));
  });
}

