import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { loadConfig } from '../../src/compose/config.js';
import { type Gateway, startGateway } from '../../src/gateway.js';
import { type EmbeddedFolder, openEmbeddedFolder } from '../../src/infra/db/embedded-folder.js';
import type { InfraOptions } from '../../src/compose/compose.js';
import { createLogger } from '../../src/infra/logger.js';
import { waitUntilReady } from '../../src/infra/redis.js';
import { LogCapture } from './log-capture.js';
import { type Mode, REDIS_URL } from './modes.js';
import { createTestDatabase } from './postgres.js';
import { type ChildGateway, startChildGateway } from './process.js';
import { seedPgliteDataDir, TEMPLATE_ENV, testDataDir } from './templates.js';

export interface TestGateway {
  gateway: Gateway;
  url: string;
  logs: LogCapture;
  /** The environment it was started with (to start it again on the same data). */
  env: Record<string, string>;
  close(): Promise<void>;
}

export interface TestGatewayOptions {
  env?: Record<string, string>;
  /** Passed to startGateway (benchmarks turn the rate limiter off). */
  infra?: InfraOptions;
  /** Keep data in this folder (PGlite) or database (PostgreSQL) instead of a fresh one. */
  reuse?: { env: Record<string, string> };
  /** Error log lines the suite provokes on purpose; any other error logged by the gateway fails close(). */
  expectedErrors?: RegExp[];
}

/** The built gateway as a process of its own; close() stops it with SIGTERM and removes its data. */
export interface ProcessGateway extends ChildGateway {
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Functional suites are not about limits; the rate-limit suite sets exact ones. */
export const FUNCTIONAL_LIMITS = {
  RATE_LIMIT_PER_MINUTE: '100000',
  RATE_LIMIT_PER_HOUR: '1000000',
  RATE_LIMIT_BURST: '100',
  TEST_KEY_DAILY_MESSAGES: '100000',
};

/**
 * A real gateway on an ephemeral port, in the given mode, with a database of its own (a copy of the
 * migrated template): in this process, or with `process: true` the build as a child process.
 */
export async function startTestGateway(mode: Mode, options: Omit<TestGatewayOptions, 'infra'> & { process: true }): Promise<ProcessGateway>;
export async function startTestGateway(mode: Mode, options?: TestGatewayOptions): Promise<TestGateway>;
export async function startTestGateway(mode: Mode, options: TestGatewayOptions & { process?: boolean } = {}): Promise<TestGateway | ProcessGateway> {
  const cleanups: Array<() => Promise<void> | void> = [];
  let storage: Record<string, string>;
  if (options.reuse) {
    const reused = options.reuse.env;
    // A PostgreSQL database reused without a store named keeps none, as a fresh one (below).
    storage = reused.DATABASE_URL && !reused.MEDIA_STORE && !options.env?.MEDIA_STORE ? { ...reused, MEDIA_STORE: 'off' } : reused;
  } else if (mode.database === 'postgres') {
    const db = await createTestDatabase({ migrated: true });
    cleanups.push(db.drop);
    storage = { DATABASE_URL: db.url };
    // Nodes sharing a database must agree on where media is kept (docs/media.md): none unless the
    // suite says; a suite that keeps media in a folder gets a folder of its own.
    if (!options.env?.MEDIA_STORE) storage.MEDIA_STORE = 'off';
    else if (options.env.MEDIA_STORE === 'folder' && !options.env.MEDIA_DIR) {
      const dir = testDataDir();
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      storage.MEDIA_DIR = dir;
    }
  } else {
    const dir = testDataDir();
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    seedPgliteDataDir(dir);
    storage = { DATA_DIR: dir };
  }
  const env: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    // A process's log is read only when it fails to start.
    LOG_LEVEL: options.process ? 'warn' : 'info',
    ...FUNCTIONAL_LIMITS,
    // A prefix of its own: test files run in parallel against one Redis.
    ...(mode.redis ? { REDIS_URL, REDIS_PREFIX: `mgwtest:${randomBytes(4).toString('hex')}:` } : {}),
    ...storage,
    ...options.env,
  };
  const cleanUp = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  if (options.process) return startProcess(env, storage, cleanUp);
  const logs = new LogCapture();
  const config = loadConfig(env);
  const opened = options.infra?.embedded || config.DATABASE_URL ? undefined : openBuiltEmbeddedFolder(config.DATA_DIR);
  let gateway: Gateway;
  try {
    gateway = await startGateway(config, createLogger(env.LOG_LEVEL ?? 'info', logs), { ...options.infra, embedded: options.infra?.embedded ?? opened });
  } catch (error) {
    // A gateway that did not start leaves the folder as it found it, for the test's next start.
    if (opened) await opened.thread.close().finally(() => opened.release());
    throw error;
  }
  if (mode.redis && gateway.infra.redis) await waitUntilReady(gateway.infra.redis);
  return {
    gateway,
    url: gateway.url,
    logs,
    env: storage,
    async close() {
      // Its data goes even when closing throws (as a second close can, its connections already gone).
      try {
        await gateway.close();
      } finally {
        await cleanUp();
      }
      // A server-side error nobody expected fails the suite: a 500 a test did not look at is still a bug.
      const errors = logs.lines.filter((line) => /"level":(50|60)/.test(line) && !options.expectedErrors?.some((pattern) => pattern.test(line)));
      if (errors.length) throw new Error(`the gateway logged unexpected errors (${mode.name}):\n${errors.join('\n')}`);
    },
  };
}

async function startProcess(env: Record<string, string>, storage: Record<string, string>, cleanUp: () => Promise<void>): Promise<ProcessGateway> {
  let child: ChildGateway;
  try {
    child = await startChildGateway(env);
  } catch (error) {
    await cleanUp();
    throw error;
  }
  return {
    ...child,
    env: storage,
    async close() {
      try {
        await child.kill('SIGTERM');
      } finally {
        await cleanUp();
      }
    },
  };
}

/**
 * The embedded folder opened as `main` opens it, with the database's thread from the run's build;
 * outside a test run the build may be stale and the gateway opens it itself (docs/development.md, "Tests").
 */
function openBuiltEmbeddedFolder(dataDir: string): EmbeddedFolder | undefined {
  if (!process.env[TEMPLATE_ENV.pglite]) return undefined;
  return openEmbeddedFolder(dataDir, { threadModule: new URL('../../dist/infra/db/embedded-thread/thread.js', import.meta.url) });
}
