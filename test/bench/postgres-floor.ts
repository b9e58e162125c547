import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { createTestDatabase } from '../kit/postgres.js';

const run = promisify(execFile);

/** A table shaped like the gateway's Message (its columns and the indexes a send writes). */
const TABLE = `
CREATE TABLE life (
  id uuid PRIMARY KEY, "tenantId" uuid NOT NULL, "instanceId" uuid, direction text NOT NULL, "to" text NOT NULL,
  type text NOT NULL DEFAULT 'text', text text, status text NOT NULL, mode text NOT NULL,
  "networkMessageId" text, "queuedAt" timestamptz(3), "sentAt" timestamptz(3), "deliveredAt" timestamptz(3),
  "createdAt" timestamptz(3) NOT NULL DEFAULT now(), "updatedAt" timestamptz(3) NOT NULL DEFAULT now());
CREATE INDEX ON life ("tenantId", "createdAt" DESC);
CREATE UNIQUE INDEX ON life ("instanceId", "networkMessageId");
CREATE INDEX ON life ("instanceId", "createdAt") WHERE status = 'queued' AND direction = 'out';`;

/** One message's life as three single-row commits: stored queued, marked sent, marked delivered. */
const SCRIPT = `
\\set n random(1, 1000000000)
\\set instance random(1, 50)
INSERT INTO life (id, "tenantId", "instanceId", direction, "to", text, status, mode, "queuedAt")
  VALUES (gen_random_uuid(), '00000000-0000-4000-8000-000000000001', ('00000000-0000-4000-8000-' || lpad(:instance::text, 12, '0'))::uuid,
          'out', '5511987654321', 'benchmark message', 'queued', 'production', now()) RETURNING id \\gset
UPDATE life SET status = 'sent', "networkMessageId" = :n::text || :id::text, "sentAt" = now(), "updatedAt" = now() WHERE id = :id;
UPDATE life SET status = 'delivered', "deliveredAt" = now(), "updatedAt" = now() WHERE id = :id;
`;

/**
 * PostgreSQL's own floor for the send path: `pgbench -M extended` with `clients` connections doing one
 * message's life as three single-row commits, for `seconds`. Answers lives per second.
 */
export async function postgresFloor(seconds: number, clients: number): Promise<number> {
  const database = await createTestDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'mgw-floor-'));
  try {
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    await db.query(TABLE);
    await db.end();
    const script = join(dir, 'life.sql');
    writeFileSync(script, SCRIPT);
    const url = new URL(database.url);
    const { stdout } = await run('pgbench', ['-n', '-M', 'extended', '-c', String(clients), '-j', '2', '-T', String(seconds), '-f', script, '-h', url.hostname, '-p', url.port || '5432', '-U', decodeURIComponent(url.username) || 'postgres', url.pathname.slice(1)], { maxBuffer: 16 * 1024 * 1024 });
    const tps = /tps = ([\d.]+)/.exec(stdout);
    if (!tps) throw new Error(`pgbench printed no tps:\n${stdout}`);
    return Number(tps[1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  }
}
