import { ConfigError } from './config.js';
import { loadConfig } from './compose/config.js';
import type { Gateway } from './gateway.js';
import { DataFolderInUse } from './infra/db/data-folder-lock.js';
import { openEmbeddedFolder } from './infra/db/embedded-folder.js';
import { createLogger } from './infra/logger.js';

const started = performance.now();
let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  throw error;
}

const logger = createLogger(config.LOG_LEVEL);

// Installed before the gateway starts: /readyz answers 200 as soon as the server listens, while the
// rest of the start (placement, resumed instances, the sweeps) is still under way, and a SIGTERM in
// that window must shut down as cleanly as any other (docs/operating.md). It waits for the start to end.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, drainMs: config.SHUTDOWN_DRAIN_MS }, 'shutting down');
    // Only a shutdown that hangs past its own bounds is cut short.
    const force = setTimeout(() => {
      logger.error('shutdown did not finish in time; exiting');
      process.exit(1);
    }, config.SHUTDOWN_DRAIN_MS + config.SHUTDOWN_GRACE_MS + 5000);
    force.unref();
    starting
      .then((gateway) => gateway.close({ drainMs: config.SHUTDOWN_DRAIN_MS, graceMs: config.SHUTDOWN_GRACE_MS }))
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  });
}

// The embedded database's folder is opened before the rest of the gateway's code loads: PGlite opens
// its files on its own thread meanwhile, instead of after it (docs/benchmarks.md, "Start").
const starting: Promise<Gateway> = (async () => {
  const embedded = config.DATABASE_URL ? undefined : openEmbeddedFolder(config.DATA_DIR, { warn: (message) => logger.warn(message) });
  const { startGateway } = await import('./gateway.js');
  return startGateway(config, logger, { embedded });
})().catch((error: unknown) => {
  // A setting found wrong only once the database could be read (ENGINE_STATE_KEY): said as plainly as any other.
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  // Another gateway (or the CLI) has the embedded database open: one plain line, no stack.
  if (error instanceof DataFolderInUse) {
    logger.fatal({ folder: error.folder, holderPid: error.holder?.pid }, error.message);
    process.exit(1);
  }
  logger.fatal({ err: error }, 'gateway failed to start');
  process.exit(1);
});
const gateway = await starting;
if (!stopping) {
  // Where it listens (every address for 0.0.0.0) and, when that is not one address to open, the URL that works on this machine.
  const listening = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${new URL(gateway.url).port}`;
  logger.info(
    { listen: listening, url: gateway.url, startupMs: Math.round(performance.now() - started), database: gateway.infra.db.kind, redis: Boolean(config.REDIS_URL) },
    listening === gateway.url ? `gateway listening on ${gateway.url}` : `gateway listening on ${listening} (on this machine: ${gateway.url})`,
  );
}
