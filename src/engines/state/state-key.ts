import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError } from '../../config.js';
import type { Statements } from '../../infra/db/statements.js';
import type { Database } from '../../infra/db/database.js';
import { createStateCipher, type StateCipher } from './state-cipher.js';

/** What is sealed in the key check: any value does, it only has to open. */
const CHECK_PLAINTEXT = Buffer.from('engine state key check');
const CHECK_PLACE = 'engine-state-key-check';

/**
 * The ENGINE_STATE_KEY engines seal state with: made once in DATA_DIR when embedded, required with
 * PostgreSQL; a start with another key than the state's is refused before anything is read.
 */
export async function openStateKey(options: {
  configured: string | undefined;
  embedded: boolean;
  dataDir: string;
  statements: Statements;
}): Promise<StateCipher> {
  if (options.configured) return openWith(Buffer.from(options.configured, 'base64'), options.statements);
  if (!options.embedded) {
    throw new ConfigError([
      'ENGINE_STATE_KEY: required with DATABASE_URL when ENGINES offers a real engine (baileys, cloud), the same on every node: 32 random bytes in base64, e.g. `openssl rand -base64 32`',
    ]);
  }
  // An in-memory database (tests) lives as long as the process: so does its key.
  if (options.dataDir.startsWith('memory://')) return openWith(randomBytes(32), options.statements);
  const files = keyFiles(options.dataDir);
  const pending = readKey(files.pending);
  if (!pending) return openWith(embeddedKey(files), options.statements);
  // A rekey stopped part way: the state is sealed with the old key or the new one, never a mix (one
  // transaction). Whichever opens it becomes the folder's key, and the other is dropped.
  try {
    const cipher = await openWith(embeddedKey(files), options.statements);
    rmSync(files.pending, { force: true });
    return cipher;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const cipher = await openWith(pending, options.statements);
    writeKeyFile(files.current, pending);
    rmSync(files.pending, { force: true });
    return cipher;
  }
}

/** A cipher of `key`, once the database's key check opens with it (or after it wrote the first check). */
async function openWith(key: Buffer, statements: Statements): Promise<StateCipher> {
  const cipher = createStateCipher(key);
  const [check] = await statements.run<{ sealed: Uint8Array }>(`SELECT sealed FROM "EngineStateKeyCheck" WHERE id = 1`);
  if (!check) {
    await statements.run(`INSERT INTO "EngineStateKeyCheck" (id, sealed) VALUES (1, $1) ON CONFLICT (id) DO NOTHING`, [cipher.seal(CHECK_PLAINTEXT, CHECK_PLACE)]);
    // Another node may have written its check first: it must be the same key.
    return openWith(key, statements);
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

/** The data folder's key file, and the new key a rekey writes beside it before it reseals anything. */
function keyFiles(dataDir: string) {
  const current = join(resolve(dataDir), 'engine-state.key');
  return { current, pending: `${current}.next` };
}

function readKey(file: string): Buffer | null {
  if (!existsSync(file)) return null;
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  return key.length === 32 ? key : null;
}

/** The embedded gateway's key, made on first use in DATA_DIR (readable by its owner only). */
function embeddedKey(files: { current: string }): Buffer {
  const existing = readKey(files.current);
  if (existing) return existing;
  mkdirSync(dirname(files.current), { recursive: true });
  writeKeyFile(files.current, randomBytes(32));
  return readKey(files.current)!;
}

/** Replaces a key file whole or not at all: written beside it, flushed, renamed over it, the folder flushed. */
function writeKeyFile(file: string, key: Buffer) {
  const temporary = `${file}.${process.pid}.tmp`;
  const handle = openSync(temporary, 'w', 0o600);
  try {
    writeFileSync(handle, `${key.toString('base64')}\n`);
    fsyncSync(handle);
  } finally {
    closeSync(handle);
  }
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
  const folder = openSync(dirname(file), 'r');
  try {
    fsyncSync(folder);
  } finally {
    closeSync(folder);
  }
}

/** The points of a rekey after which a stop must leave state the data folder can open (tests stop it at each). */
export const REKEY_STEPS = ['new-key-written', 'state-resealed', 'key-file-replaced'] as const;
export type RekeyStep = (typeof REKEY_STEPS)[number];

/**
 * Reseals all engine state and the key check with `next` in one transaction (every node stopped); the
 * embedded key file is replaced around it so a stop at any point still opens (see openStateKey).
 */
export async function rekeyEngineState(options: {
  db: Database;
  current: StateCipher;
  next: Buffer;
  dataDir: string;
  embedded: boolean;
  replaceFile: boolean;
  after?: (step: RekeyStep) => void;
}) {
  const after = options.after ?? (() => {});
  const files = options.embedded && options.replaceFile ? keyFiles(options.dataDir) : null;
  if (files) writeKeyFile(files.pending, options.next);
  after('new-key-written');
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
  after('state-resealed');
  if (files) {
    writeKeyFile(files.current, options.next);
    after('key-file-replaced');
    rmSync(files.pending, { force: true });
  }
  return rewritten;
}
