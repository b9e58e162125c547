import { createHash } from 'node:crypto';

/**
 * Rendezvous (highest random weight) hashing: every node computes the same winner for an instance
 * from the same live set, and when a node leaves only its own instances move.
 */
export function rendezvousWinner(instanceId: string, nodeIds: readonly string[]): string | undefined {
  let winner: string | undefined;
  let best = -1n;
  for (const node of nodeIds) {
    const score = createHash('sha256').update(node).update('\0').update(instanceId).digest().readBigUInt64BE(0);
    if (score > best || (score === best && node < winner!)) {
      best = score;
      winner = node;
    }
  }
  return winner;
}
