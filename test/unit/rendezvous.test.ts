import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { rendezvousWinner } from '../../src/infra/nodes/rendezvous.js';

describe('rendezvous placement', () => {
  const instances = Array.from({ length: 3000 }, () => randomUUID());
  const nodes = ['node-a', 'node-b', 'node-c'];

  it('gives every node a fair share', () => {
    const counts = new Map<string, number>();
    for (const id of instances) {
      const winner = rendezvousWinner(id, nodes)!;
      counts.set(winner, (counts.get(winner) ?? 0) + 1);
    }
    for (const node of nodes) expect(counts.get(node)).toBeGreaterThan(850);
  });

  it('agrees whatever order the node set is listed in', () => {
    for (const id of instances.slice(0, 200)) expect(rendezvousWinner(id, [...nodes].reverse())).toBe(rendezvousWinner(id, nodes));
  });

  it('moves only the instances of a node that leaves', () => {
    const remaining = ['node-a', 'node-c'];
    for (const id of instances) {
      const before = rendezvousWinner(id, nodes);
      const after = rendezvousWinner(id, remaining);
      if (before !== 'node-b') expect(after).toBe(before);
      else expect(remaining).toContain(after);
    }
  });

  it('has no winner without nodes', () => {
    expect(rendezvousWinner(instances[0]!, [])).toBeUndefined();
  });
});
