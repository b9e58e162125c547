import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DriverAdapterError } from '@prisma/driver-adapter-utils';
import type { CarriedError, CompiledDatabase, Reply, Request, ThreadData } from './protocol.js';

type Ask = Request extends infer R ? (R extends Request ? Omit<R, 'id'> : never) : never;

/** The embedded database's thread, seen from the gateway's: requests in, answers out, restarts after a crash. */
export interface EmbeddedThread {
  ask<T>(request: Ask): Promise<T>;
  /** Counts the threads started: a transaction belongs to the one it began on. */
  readonly generation: number;
  /**
   * `ask`, for a transaction begun on thread `generation`: a thread that died took the transaction
   * with it, so the rest fails as a transaction already closed instead of running alone on the next one.
   */
  askIn<T>(generation: number, request: Ask): Promise<T>;
  /** The thread as it runs now (tests end it to see the gateway through a crash). */
  worker(): Promise<Worker>;
  close(): Promise<void>;
}

/** How long to wait before starting a thread again after one died, growing while they keep dying. */
const RESTART_MS = { first: 100, max: 5000 };

/**
 * Starts PGlite's thread on `data`; when it dies, its unanswered requests fail as "database not
 * reachable" and a new thread opens the folder (docs/architecture.md, "The embedded database's thread").
 * An in-memory database (tests) cannot be opened again: it stays unreachable.
 */
export function startEmbeddedThread(data: ThreadData, onDeath: (error: Error) => void, module?: URL): EmbeddedThread {
  let nextId = 1;
  let generation = 0;
  /** The thread serving now, once its database's code is compiled; undefined while none runs. */
  let current: Promise<Running> | undefined;
  let closing: Promise<void> | undefined;
  let restartMs = RESTART_MS.first;
  let restartTimer: NodeJS.Timeout | undefined;

  interface Running {
    worker: Worker;
    /** The requests it has not answered yet: failed as unreachable if it dies. */
    pending: Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>;
    exited: boolean;
  }

  function start() {
    generation++;
    const startedAt = Date.now();
    const worker = spawnThread(compiled ? { ...data, modules: compiled } : data, module);
    const running: Running = { worker, pending: new Map(), exited: false };
    const starting = Promise.resolve(running);
    let failure: Error | undefined;
    worker.on('message', (reply: Reply) => {
      if ('compiled' in reply) return void (compiled ??= reply.compiled);
      const waiting = running.pending.get(reply.id);
      if (!waiting) return;
      running.pending.delete(reply.id);
      if (reply.ok) waiting.resolve(reply.value);
      else waiting.reject(rebuild(reply.error));
    });
    worker.on('error', (error) => (failure = error));
    worker.on('exit', (code) => {
      running.exited = true;
      for (const waiting of running.pending.values()) waiting.reject(unreachable());
      running.pending.clear();
      if (current !== starting) return;
      current = undefined;
      if (closing) return;
      onDeath(failure ?? new Error(`the embedded database's thread exited with code ${code}`));
      if (data.dataDir.startsWith('memory://')) return;
      // A thread that lived a while restarts soon; one that dies as it starts (a damaged folder)
      // is not started again and again in a tight loop.
      restartMs = Date.now() - startedAt > RESTART_MS.max ? RESTART_MS.first : Math.min(restartMs * 2, RESTART_MS.max);
      restartTimer = setTimeout(start, restartMs);
      restartTimer.unref();
    });
    current = starting;
  }
  start();

  function post(running: Running, request: Ask | Request): Promise<unknown> {
    // Nothing would ever answer it.
    if (running.exited) return Promise.reject(unreachable());
    const id = nextId++;
    return new Promise((resolve, reject) => {
      running.pending.set(id, { resolve, reject });
      running.worker.postMessage({ ...request, id });
    });
  }

  async function ask<T>(request: Ask): Promise<T> {
    const serving = current;
    if (!serving || closing) throw unreachable();
    return (await post(await serving, request)) as T;
  }

  return {
    ask,
    get generation() {
      return generation;
    },
    askIn<T>(begunOn: number, request: Ask): Promise<T> {
      if (begunOn !== generation) return Promise.reject(new DriverAdapterError({ kind: 'TransactionAlreadyClosed', cause: 'the database thread restarted' }));
      return ask<T>(request);
    },
    async worker() {
      if (!current) throw new Error("the embedded database's thread is not running");
      return (await current).worker;
    },
    close() {
      closing ??= (async () => {
        clearTimeout(restartTimer);
        const serving = current;
        if (!serving) return;
        const running = await serving;
        const exited = new Promise<void>((resolve) => running.worker.once('exit', () => resolve()));
        await post(running, { op: 'close' }).catch(() => {});
        await exited;
      })();
      return closing;
    },
  };
}

/** PGlite's WebAssembly as the first thread of the process compiled it (each thread after it gets it ready). */
let compiled: CompiledDatabase | undefined;

/**
 * The thread's own module, or `module` when given (tests running from source pass the build's, which
 * the test run made from the same source). From source otherwise (`npm run dev`), tsx compiles it as
 * it loads: in a new thread that costs about half a second of CPU at every start.
 */
function spawnThread(data: ThreadData & { modules?: CompiledDatabase }, module?: URL): Worker {
  const here = import.meta.url;
  if (module) return new Worker(module, { workerData: data });
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
