import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DriverAdapterError } from '@prisma/driver-adapter-utils';
import type { CarriedError, Reply, Request, ThreadData } from './protocol.js';

type Ask = Request extends infer R ? (R extends Request ? Omit<R, 'id'> : never) : never;

/** The embedded database's thread, seen from the gateway's: requests in, answers out, restarts after a crash. */
export interface EmbeddedThread {
  ask<T>(request: Ask): Promise<T>;
  /** Counts the threads started: a transaction belongs to the one it began on. */
  readonly generation: number;
  /** The thread as it runs now (tests end it to see the gateway through a crash). */
  readonly worker: Worker;
  close(): Promise<void>;
}

/** How long to wait before starting a thread again after one died, growing while they keep dying. */
const RESTART_MS = { first: 100, max: 5000 };

/**
 * Starts the thread that runs PGlite on `data`. When it dies (a crash in the database, memory
 * exhausted), every request it had not answered fails as "database not reachable" (a 503 to the
 * caller) and a new thread opens the same folder; a transaction open on the old one is gone.
 * An in-memory database (tests) cannot be opened again: it stays unreachable.
 */
export function startEmbeddedThread(data: ThreadData, onDeath: (error: Error) => void): EmbeddedThread {
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let generation = 0;
  let worker: Worker | undefined;
  let closing: Promise<void> | undefined;
  let restartMs = RESTART_MS.first;
  let restartTimer: NodeJS.Timeout | undefined;

  function start() {
    const started = spawnThread(data);
    generation++;
    worker = started;
    const startedAt = Date.now();
    let failure: Error | undefined;
    started.on('message', (reply: Reply) => {
      const waiting = pending.get(reply.id);
      if (!waiting) return;
      pending.delete(reply.id);
      if (reply.ok) waiting.resolve(reply.value);
      else waiting.reject(rebuild(reply.error));
    });
    started.on('error', (error) => (failure = error));
    started.on('exit', (code) => {
      if (worker !== started) return;
      worker = undefined;
      for (const [id, waiting] of pending) {
        pending.delete(id);
        waiting.reject(unreachable());
      }
      if (closing) return;
      onDeath(failure ?? new Error(`the embedded database's thread exited with code ${code}`));
      if (data.dataDir.startsWith('memory://')) return;
      // A thread that lived a while restarts at once; one that dies as it starts (a damaged folder)
      // is not started again and again in a tight loop.
      restartMs = Date.now() - startedAt > RESTART_MS.max ? RESTART_MS.first : Math.min(restartMs * 2, RESTART_MS.max);
      restartTimer = setTimeout(start, restartMs);
      restartTimer.unref();
    });
  }
  start();

  return {
    ask<T>(request: Ask): Promise<T> {
      const running = worker;
      if (!running || closing) return Promise.reject(unreachable());
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        running.postMessage({ ...request, id });
      });
    },
    get generation() {
      return generation;
    },
    get worker() {
      if (!worker) throw new Error("the embedded database's thread is not running");
      return worker;
    },
    close() {
      closing ??= (async () => {
        clearTimeout(restartTimer);
        const running = worker;
        if (!running) return;
        const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
        const id = nextId++;
        await new Promise<void>((resolve) => {
          pending.set(id, { resolve: () => resolve(), reject: () => resolve() });
          running.postMessage({ op: 'close', id } satisfies Request);
        });
        await exited;
      })();
      return closing;
    },
  };
}

/** The thread's own module; from source (tests, `npm run dev`) tsx compiles it as it loads. */
function spawnThread(data: ThreadData): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./thread.js', here), { workerData: data });
  const target = JSON.stringify(new URL('./thread.ts', here).href);
  const tsx = JSON.stringify(pathToFileURL(createRequire(here).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href);
  return new Worker(`import(${tsx}).then((tsx) => tsx.tsImport(${target}, ${target}))`, { eval: true, workerData: data });
}

function rebuild(carried: CarriedError): Error {
  const { cause, ...fields } = carried.fields;
  if (carried.name === 'DriverAdapterError' && cause) return new DriverAdapterError(cause as ConstructorParameters<typeof DriverAdapterError>[0]);
  return Object.assign(new Error(carried.message, cause === undefined ? undefined : { cause }), fields, { name: carried.name });
}

/** What a request the thread can no longer answer fails with: the gateway answers 503 for it. */
function unreachable(): Error {
  return new DriverAdapterError({ kind: 'DatabaseNotReachable', host: 'embedded', port: 0 } as ConstructorParameters<typeof DriverAdapterError>[0]);
}
