import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../../config.js';
import type { Statements } from '../db/statements.js';
import type { Database } from '../db/database.js';
import { createStateCipher, type StateCipher } from './state-cipher.js';

/** What is sealed in the key check: any value does, it only has to open. */
const CHECK_PLAINTEXT = Buffer.from('engine state key check');
const CHECK_PLACE = 'engine-state-key-check';

/**
 * The ENGINE_STATE_KEY a real engine seals its state with. Embedded, a key is made once in DATA_DIR
 * when none is set (one process owns that folder); with PostgreSQL every node must share one, so
 * it has to be set. The database remembers which key its state was sealed with: a start with
 * another key is refused, naming the variable, before anything is read with it.
 */
export async function openStateKey(options: {
  configured: string | undefined;
  embedded: boolean;
  dataDir: string;
  statements: Statements;
}): Promise<StateCipher> {
  const key = options.configured ? Buffer.from(options.configured, 'base64') : options.embedded ? embeddedKey(options.dataDir) : undefined;
  if (!key) {
    throw new ConfigError([
      'ENGINE_STATE_KEY: required with DATABASE_URL when ENGINES offers a real engine (baileys, cloud), the same on every node: 32 random bytes in base64, e.g. `openssl rand -base64 32`',
    ]);
  }
  const cipher = createStateCipher(key);
  const [check] = await options.statements.run<{ sealed: Uint8Array }>(`SELECT sealed FROM "EngineStateKeyCheck" WHERE id = 1`);
  if (!check) {
    await options.statements.run(`INSERT INTO "EngineStateKeyCheck" (id, sealed) VALUES (1, $1) ON CONFLICT (id) DO NOTHING`, [
      cipher.seal(CHECK_PLAINTEXT, CHECK_PLACE),
    ]);
    // Another node may have written its check first: it must be the same key.
    return openStateKey(options);
  }
  try {
    cipher.open(check.sealed, CHECK_PLACE);
  } catch {
    throw new ConfigError([
      'ENGINE_STATE_KEY: not the key the engine state in this database was sealed with (linked devices would not open); start with that key, or rotate with `npm run cli -- engine-state:rekey`',
    ]);
  }
  return cipher;
}

/** The embedded gateway's key, made on first use in DATA_DIR (readable by its owner only). */
function embeddedKey(dataDir: string): Buffer {
  // An in-memory database (tests) lives as long as the process: so does its key.
  if (dataDir.startsWith('memory://')) return randomBytes(32);
  const file = join(resolve(dataDir), 'engine-state.key');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  mkdirSync(resolve(dataDir), { recursive: true });
  writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}

/**
 * Seals everything kept with `next` instead: every engine state value and the key check, in one
 * transaction, so the database is either all old key or all new. Run with every node stopped;
 * embedded, the data folder's key file then holds the new key.
 */
export async function rekeyEngineState(options: { db: Database; current: StateCipher; next: Buffer; dataDir: string; embedded: boolean; replaceFile: boolean }) {
  const next = createStateCipher(options.next);
  const rewritten = await options.db.prisma.$transaction(
    async (tx) => {
      const rows = await tx.$queryRaw<Array<{ instanceId: string; type: string; id: string; value: Uint8Array }>>`
        SELECT "instanceId"::text AS "instanceId", type, id, value FROM "EngineKey" FOR UPDATE`;
      for (let start = 0; start < rows.length; start += 500) {
        const chunk = rows.slice(start, start + 500).map((row) => {
          const place = `${row.instanceId}/${row.type}/${row.id}`;
          return { instanceId: row.instanceId, type: row.type, id: row.id, value: next.seal(options.current.open(row.value, place), place).toString('base64') };
        });
        await tx.$executeRaw`
          UPDATE "EngineKey" k SET value = decode(c.value, 'base64')
          FROM jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) AS c("instanceId" uuid, type text, id text, value text)
          WHERE k."instanceId" = c."instanceId" AND k.type = c.type AND k.id = c.id`;
      }
      await tx.$executeRaw`UPDATE "EngineStateKeyCheck" SET sealed = ${next.seal(CHECK_PLAINTEXT, CHECK_PLACE)} WHERE id = 1`;
      return rows.length;
    },
    { timeout: 10 * 60_000, maxWait: 60_000 },
  );
  if (options.embedded && options.replaceFile) {
    writeFileSync(join(resolve(options.dataDir), 'engine-state.key'), `${options.next.toString('base64')}\n`, { mode: 0o600 });
  }
  return rewritten;
}
