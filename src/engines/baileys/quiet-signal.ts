import type { Logger } from '../../infra/logger.js';

/**
 * What the signal library (libsignal, under baileys) writes to the console on its own: session
 * records, with their private keys and chain keys, as sessions open and close. A gateway's output
 * is its log, and secrets never go there: these lines become a short debug line without their
 * arguments. Anything else written to the console passes as before.
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
