import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { pino } from 'pino';
import type { Logger } from '../logger.js';
import type { BrokerName } from './broker.js';
import { backlogAgeSeconds } from './event-stream.js';
import { brokerStateMemory, markBrokersDown, type PublisherData, readBrokerState, type ToMain, type ToPublisher } from './publisher-protocol.js';

/** A publisher thread that stops on its own when asked gets this long before it is terminated. */
const STOP_GRACE_MS = 10_000;
/** A publisher thread that died is started again after this pause (its events wait in the outbox meanwhile). */
const RESTART_MS = 1000;

/**
 * The main thread's side of the publisher thread (publisher-worker.ts): starts it, announces commits (one
 * message until the thread took it), counts its reports into the metrics, writes its log lines, and
 * answers each broker's state from memory the thread writes.
 */
export function createPublisherThread(deps: {
  names: readonly BrokerName[];
  data: Omit<PublisherData, 'state' | 'announced'>;
  logger: Logger;
  onPublished: (broker: BrokerName, count: number) => void;
  onFailed: (broker: BrokerName, count: number) => void;
  onQuery?: (text: string) => void;
}) {
  const { logger } = deps;
  const state = brokerStateMemory(deps.names.length);
  const announced = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  // Lines the thread formatted go straight to this logger's destination (stdout, or a test's capture).
  const destination = (logger as unknown as Record<symbol, { write(line: string): void }>)[pino.symbols.streamSym];
  let worker: Worker | undefined;
  let stopping = false;
  let restart: NodeJS.Timeout | undefined;

  const entry = publisherEntry();

  function handle(message: ToMain) {
    if (message.kind === 'published') deps.onPublished(message.broker, message.count);
    else if (message.kind === 'failed') deps.onFailed(message.broker, message.count);
    else if (message.kind === 'query') deps.onQuery?.(message.text);
    else if (message.kind === 'log') destination?.write(message.line);
  }

  function spawn() {
    // A new thread starts with a pass over everything waiting: no announcement is owed to it.
    Atomics.store(announced, 0, 0);
    const data: PublisherData = { ...deps.data, state, announced };
    const started = new Worker(entry.script, { workerData: data, eval: entry.eval });
    worker = started;
    started.on('message', handle);
    started.on('error', (error) => logger.error({ err: error }, 'event publisher thread failed'));
    started.on('exit', (code) => {
      if (worker !== started) return;
      worker = undefined;
      markBrokersDown(state);
      if (stopping) return;
      logger.error({ code }, 'event publisher thread ended; starting it again (events wait in the outbox)');
      restart = setTimeout(() => {
        if (!stopping) spawn();
      }, RESTART_MS);
      restart.unref();
    });
  }

  const send = (message: ToPublisher) => worker?.postMessage(message);
  return {
    brokers: deps.names.map((name, n) => {
      const oldestWaiting = () => {
        const at = readBrokerState(state, n).oldestWaiting;
        return at ? new Date(at) : null;
      };
      return { name, isUp: () => readBrokerState(state, n).up, oldestWaiting, backlogAgeSeconds: () => backlogAgeSeconds(oldestWaiting()) };
    }),
    start() {
      stopping = false;
      spawn();
    },
    committed(at: Date) {
      // No thread (stopped, or between a death and its restart): its first pass will find these events.
      if (!worker) return;
      if (Atomics.compareExchange(announced, 0, 0, 1) === 0) send({ kind: 'committed', at: at.getTime() });
    },
    async stop() {
      stopping = true;
      clearTimeout(restart);
      const running = worker;
      if (!running) return;
      const ended = once(running, 'exit');
      running.postMessage({ kind: 'stop' } satisfies ToPublisher);
      const late = setTimeout(() => void running.terminate(), STOP_GRACE_MS);
      await ended.catch(() => {});
      clearTimeout(late);
    },
  };
}

/**
 * The thread's entry: the compiled file, or, run from the sources (tests, tsx), the TypeScript file
 * loaded through tsx, registered in the thread first (a thread does not inherit the loader).
 */
function publisherEntry(): { script: string | URL; eval: boolean } {
  if (!import.meta.url.endsWith('.ts')) return { script: new URL('./publisher-worker.js', import.meta.url), eval: false };
  // Resolved from the working directory: source runs start in the repository.
  const source = new URL('./publisher-worker.ts', import.meta.url).href;
  return { script: `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(source)}); })`, eval: true };
}
