import type { DisconnectReason } from '../../domain/network/engine.port.js';

/**
 * What the engine does after a close: open a new socket at once (the network asked for a restart),
 * reconnect after a backoff, reconnect only a few times and slowly (another connection took this
 * device's place), or stop (logged out, banned, the pairing ran out).
 */
export type CloseAction = 'restart' | 'reconnect' | 'replaced' | 'stop';

export interface Close {
  reason: DisconnectReason;
  action: CloseAction;
}

/**
 * Every close the library reports, by its status code (the library's DisconnectReason) and message,
 * mapped to a reason (docs/operating.md, the table of closes) and what to do next. `pairing`: the socket was showing QR codes.
 */
export function closeOf(statusCode: number | undefined, message: string, pairing: boolean): Close {
  // The handshake's certificate checks (the library's and ours): a server that is not the network, or
  // shows a chain that does not vouch for it. Tried again with the backoff, never trusted meanwhile.
  if (UNTRUSTED_SERVER.test(message)) return { reason: 'untrusted_network', action: 'reconnect' };
  switch (statusCode) {
    case 515:
      return { reason: 'restart_required', action: 'restart' };
    case 401:
      return { reason: 'logged_out', action: 'stop' };
    case 403:
      return { reason: 'banned', action: 'stop' };
    case 440:
      return { reason: 'replaced', action: 'replaced' };
    case 408:
      // The library closes with 408 both when the QR codes run out and when the connection goes quiet.
      if (pairing && /QR refs attempts ended/i.test(message)) return { reason: 'pairing_expired', action: 'stop' };
      return { reason: /timed out/i.test(message) ? 'timed_out' : 'connection_lost', action: 'reconnect' };
    case 500:
    case 411:
      return { reason: 'bad_session', action: 'reconnect' };
    case 503:
      return { reason: 'unavailable', action: 'reconnect' };
    default:
      // 428 (closed) and anything the library does not name.
      return { reason: 'connection_closed', action: 'reconnect' };
  }
}

const UNTRUSTED_SERVER = /noise (leaf |intermediate )?certificate|certification match failed/i;

const FIRST_MS = 1000;
const MAX_MS = 60_000;

/**
 * The wait before reconnect attempt `attempt` (0 = the first after a close): doubling from 1 s up to
 * 60 s, each drawn between half and all of it, so instances that fell together do not come back
 * together and a connection that keeps failing is never retried in a tight loop.
 */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_MS, FIRST_MS * 2 ** Math.min(attempt, 16));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** After "replaced", the few tries left and how long to wait before each: never a loop against the other connection. */
export const REPLACED_RETRIES = 2;
export const REPLACED_WAIT_MS = 30_000;
