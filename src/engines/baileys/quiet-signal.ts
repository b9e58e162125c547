import type { Logger } from '../../infra/logger.js';

/**
 * The signal library prints session records, private keys included, to the console; secrets never
 * reach the log, so those lines become a short debug line without arguments. Anything else passes.
 */
const SIGNAL_LINES = [
  'Closing session',
  'Opening session',
  'Removing old closed session',
  'Session already',
  'Closing open session in favor of incoming prekey bundle',
  'Closing stale open session',
  'Migrating session to',
  'V1 session storage migration error',
  'Failed to decrypt message with any known session',
  'Session error:',
  'Decrypted message with closed session',
  'Unhandled bucket type',
  'WARNING: Expected pubkey of length 33',
];

let installed = false;

export function quietSignalConsole(logger: Logger): void {
  if (installed) return;
  installed = true;
  const log = logger.child({ component: 'libsignal' });
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    const original = console[method].bind(console);
    console[method] = (...args: unknown[]) => {
      const [first] = args;
      const line = typeof first === 'string' ? SIGNAL_LINES.find((prefix) => first.startsWith(prefix)) : undefined;
      if (line) log.debug(line);
      else original(...args);
    };
  }
}
