import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startTestGateway, type TestGateway } from './gateway.js';
import type { Mode } from './modes.js';
import { createTestDatabase } from './postgres.js';
import { postgresTemplate, seedPgliteDataDir, TEMPLATE_ENV } from './templates.js';

/**
 * One gateway per storage mode per test worker, for suites isolated by their tenants; never closed
 * (the worker ends with it), its data under the run's template (docs/development.md, "The test kit, folders and projects").
 */
export const SHARED_ENV: Record<string, string> = {
  // Suites serve webhooks and media from this machine over plain http.
  WEBHOOK_ALLOW_INSECURE: 'true',
  // Every suite logs its users in from 127.0.0.1; the login limits are tested on a gateway of their own.
  LOGIN_MAX_PER_IP: '100000',
};

// On globalThis rather than in this module: a worker that runs several files keeps it either way.
const store = ((globalThis as { [key: symbol]: Map<string, Promise<TestGateway>> | undefined })[Symbol.for('mgw.test.shared-gateways')] ??= new Map());

export function sharedGateway(mode: Mode): Promise<TestGateway> {
  let started = store.get(mode.name);
  if (!started) {
    started = start(mode);
    store.set(mode.name, started);
    // A failed start is not kept: the next suite tries again (and reports its own failure).
    started.catch(() => store.delete(mode.name));
  }
  return started;
}

async function start(mode: Mode): Promise<TestGateway> {
  return startTestGateway(mode, { reuse: { env: await sharedStorage(mode) }, env: SHARED_ENV });
}

async function sharedStorage(mode: Mode): Promise<Record<string, string>> {
  const suffix = randomBytes(4).toString('hex');
  if (mode.database === 'postgres') {
    const template = postgresTemplate();
    // The template's name carries the run's pid: the global teardown drops `<template>_s_…` with it.
    const db = await createTestDatabase({ migrated: true, ...(template ? { name: `${template}_s_${suffix}` } : {}) });
    return { DATABASE_URL: db.url };
  }
  const template = process.env[TEMPLATE_ENV.pglite];
  if (!template) throw new Error('the shared gateway needs the migrated PGlite template of the global setup');
  const dir = join(template, `shared-${suffix}`);
  mkdirSync(dir, { recursive: true });
  seedPgliteDataDir(dir);
  return { DATA_DIR: dir };
}
