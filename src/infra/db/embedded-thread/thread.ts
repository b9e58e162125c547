/**
 * The embedded database's thread: PGlite runs here, so its statements take none of the gateway's event
 * loop. Requests come one port message at a time; one outside a transaction waits for the open one, as
 * PGlite runs one at a time (docs/architecture.md, "The embedded database's thread").
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction as PgliteTransaction } from '@electric-sql/pglite';
import type { SqlDriverAdapter } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { tightenTree } from '../private-files.js';
import { preparedRows } from './prepared-rows.js';
import { carry, type CompiledDatabase, type Reply, type Request, type ThreadData } from './protocol.js';

/** The first thread of a process compiles PGlite's WebAssembly and hands it back; later ones get it compiled. */
async function compileDatabase(): Promise<CompiledDatabase> {
  const require = createRequire(import.meta.url);
  const compile = async (file: string) => WebAssembly.compile(await readFile(require.resolve(`@electric-sql/pglite/${file}`)));
  const [pglite, initdb] = await Promise.all([compile('pglite.wasm'), compile('initdb.wasm')]);
  return { pglite, initdb };
}

const port = parentPort!;
const { dataDir, settings, modules: given } = workerData as ThreadData & { modules?: CompiledDatabase };
const modules = given ?? (await compileDatabase());
if (!given) port.postMessage({ compiled: modules } satisfies Reply);
const pglite = new PGlite(dataDir, {
  startParams: [...PGlite.defaultStartParams, ...settings],
  pgliteWasmModule: modules.pglite,
  initdbWasmModule: modules.initdb,
});

// PGlite's first files are made 0666; once it is open they are made private (docs/operating.md, "Files").
const onDisk = !dataDir.startsWith('memory://');
if (onDisk) void pglite.waitReady.then(() => tightenTree(dataDir)).catch(() => undefined);

// The adapter reads rows into Prisma's column types; it only ever calls `query` on what it is given,
// so the same adapter class serves the database and each transaction.
const adapterOf = (client: PGlite | PgliteTransaction) => new PrismaPGlite(client as PGlite).connect();
const database = adapterOf(pglite);
const hot = preparedRows(pglite);

interface Open {
  tx: PgliteTransaction;
  adapter?: Promise<SqlDriverAdapter>;
  end: () => void;
  ended: Promise<unknown>;
}
const open = new Map<number, Open>();
let nextTx = 1;

function transaction(id: number | undefined): Open {
  const found = id === undefined ? undefined : open.get(id);
  if (id !== undefined && !found) {
    // The same words the adapter uses, so the gateway reads it as a transaction already closed.
    throw Object.assign(new Error('Transaction already closed'), { name: 'DriverAdapterError', cause: { kind: 'TransactionAlreadyClosed', cause: 'not open' } });
  }
  return found!;
}

async function begin(isolationLevel: string | undefined): Promise<number> {
  if (isolationLevel) await (await database).executeScript(`SET TRANSACTION ISOLATION LEVEL ${isolationLevel}`);
  const id = nextTx++;
  return new Promise<number>((opened, failed) => {
    const ended = pglite
      .transaction(async (tx) => {
        let end!: () => void;
        const until = new Promise<void>((resolve) => (end = resolve));
        open.set(id, { tx, end, ended });
        opened(id);
        await until;
      })
      .catch((error: unknown) => {
        failed(error);
        throw error;
      })
      .finally(() => open.delete(id));
    // A commit that fails is answered by the request that asked for it.
    ended.catch(() => {});
  });
}

async function finish(id: number, rollback: boolean) {
  const { tx, end, ended } = transaction(id);
  if (rollback) await tx.rollback();
  end();
  await ended;
}

async function serve(request: Request): Promise<unknown> {
  switch (request.op) {
    case 'query':
    case 'execute': {
      const on = request.tx === undefined ? database : (transaction(request.tx).adapter ??= adapterOf(transaction(request.tx).tx));
      const adapter = await on;
      return request.op === 'query' ? adapter.queryRaw(request.query) : adapter.executeRaw(request.query);
    }
    case 'script':
      // Awaited here: the adapter's own executeScript answers before the script has run.
      await pglite.exec(request.script);
      return undefined;
    case 'rows':
      // Checked first: a statement for a transaction that has ended must not run in the next one.
      if (request.tx !== undefined) transaction(request.tx);
      return hot.rows(request.text, request.params, request.tx !== undefined);
    case 'begin':
      return begin(request.isolationLevel);
    case 'commit':
    case 'rollback':
      return finish(request.tx, request.op === 'rollback');
    case 'close':
      // Waits for the statement or transaction running now; whatever was committed is on disk after it.
      await pglite.close();
      if (onDisk) tightenTree(dataDir);
      return undefined;
  }
}

port.on('message', (request: Request) => {
  serve(request).then(
    (value) => {
      port.postMessage({ id: request.id, ok: true, value } satisfies Reply);
      if (request.op === 'close') port.close();
    },
    (error: unknown) => port.postMessage({ id: request.id, ok: false, error: carry(error) } satisfies Reply),
  );
});
