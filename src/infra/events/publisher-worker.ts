/**
 * The publisher thread (PostgreSQL): the event stream with its own pool of two connections and its own
 * broker clients, off the request loop. It reports what metrics and logs need, and writes each broker's
 * state where the main thread reads it unasked (publisher-thread.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Writable } from 'node:stream';
import pg from 'pg';
import { pgPoolConfig } from '../db/pool-config.js';
import { poolStatements } from '../db/statements.js';
import { createLogger } from '../logger.js';
import { createBrokers } from './brokers.js';
import { createEventStream } from './event-stream.js';
import { signedMediaLinks } from '../../domain/media/signed-links.js';
import { pendingEvents } from './pending-events.js';
import { type PublisherData, type ToMain, type ToPublisher, writeBrokerState } from './publisher-protocol.js';

const data = workerData as PublisherData;
const port = parentPort!;
const tell = (message: ToMain) => port.postMessage(message);

// Log lines go to the main thread's destination, already formatted (and redacted) here.
const lines = new Writable({
  write(chunk: Buffer | string, _encoding, done) {
    tell({ kind: 'log', line: chunk.toString() });
    done();
  },
});
const logger = createLogger(data.logLevel, lines);

const pool = new pg.Pool(pgPoolConfig(data.databaseUrl, data.timeouts, 2));
pool.on('error', (error) => logger.warn({ err: { message: error.message } }, 'event publisher: a database connection failed; it is replaced on the next statement'));
const statements = poolStatements(pool, (text) => tell({ kind: 'query', text }));
const brokers = createBrokers(data.settings, logger);
const stream = createEventStream({
  brokers,
  pending: pendingEvents({ kind: 'postgres', statements }),
  logger,
  onPublished: (broker, count) => tell({ kind: 'published', broker, count }),
  onFailed: (broker, count) => tell({ kind: 'failed', broker, count }),
  onChange: () => writeBrokerState(data.state, stream.brokers),
  options: data.options,
  links: data.mediaLinks && signedMediaLinks(data.mediaLinks),
});

port.on('message', (message: ToPublisher) => {
  if (message.kind === 'committed') {
    // Cleared before the stream hears of it: a commit from now on is announced again.
    Atomics.store(data.announced, 0, 0);
    stream.committed(new Date(message.at));
  }
  if (message.kind === 'stop') {
    void stream
      .stop()
      .then(() => pool.end())
      .catch((error: unknown) => logger.warn({ err: error }, 'event publisher: stopping failed'))
      // The port closed, the thread ends: what the main thread waits for.
      .finally(() => port.close());
  }
});

stream.start();
