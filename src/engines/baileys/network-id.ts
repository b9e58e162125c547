import { createHash } from 'node:crypto';

/**
 * The network's id of a message the gateway sends, derived from the gateway's id: a hand-off repeated
 * after a crash or a takeover carries the same id, which the network and the recipient's phone
 * drop as a repeat, so nothing arrives twice. The shape of the library's own ids (`3EB0` + hex).
 */
export function networkMessageIdOf(messageId: string): string {
  return `3EB0${createHash('sha256').update(messageId).digest('hex').slice(0, 18).toUpperCase()}`;
}
