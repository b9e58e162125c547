/**
 * The gateway for the fan-out benchmark: started with --expose-gc under IPC so the benchmark can ask
 * for its memory after a full collection (what subscribers actually keep alive, not garbage).
 */
import { loadConfig } from '../../src/compose/config.js';
import { startGateway } from '../../src/gateway.js';
import { createLogger } from '../../src/infra/logger.js';

const config = loadConfig();
const gateway = await startGateway(config, createLogger(config.LOG_LEVEL));
process.send!({ url: gateway.url });
process.on('message', (message) => {
  if (message === 'memory') {
    for (let i = 0; i < 3; i++) (globalThis as { gc?: () => void }).gc?.();
    process.send!({ memory: process.memoryUsage() });
  } else if (message === 'stop') {
    void gateway.close({ graceMs: 1000 }).then(() => process.exit(0));
  }
});
