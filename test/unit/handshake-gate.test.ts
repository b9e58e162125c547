import { describe, expect, it } from 'vitest';
import { eventLoopBusy, HandshakeGate } from '../../src/engines/baileys/handshake-gate.js';
import { eventually } from '../factories/sandbox.js';

/** Acquires `count` slots in order, recording the order in which they were granted. */
function queue(gate: HandshakeGate, count: number) {
  const granted: number[] = [];
  const releases: Array<() => void> = [];
  for (let n = 0; n < count; n++) {
    void gate.acquire().then((release) => {
      granted.push(n);
      releases[n] = release;
    });
  }
  return { granted, releases };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const grantedCount = (granted: number[], count: number) => eventually(async () => granted.length, (n) => n >= count, 2000);

describe('handshake gate', () => {
  it('holds at most its bound in flight and lets the next in, in order, as each is released', async () => {
    const gate = new HandshakeGate(2, () => false);
    const { granted, releases } = queue(gate, 5);
    await grantedCount(granted, 2);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(granted).toEqual([0, 1]);
    expect(gate.counts).toEqual({ inFlight: 2, waiting: 3 });
    releases[1]!();
    releases[1]!(); // a second release of the same slot changes nothing
    await grantedCount(granted, 3);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(granted).toEqual([0, 1, 2]);
    expect(gate.counts).toEqual({ inFlight: 2, waiting: 2 });
  });

  it('starts no new handshake while the loop is busy, and goes on once it is not', async () => {
    let busy = false;
    const gate = new HandshakeGate(10, () => busy);
    const first = queue(gate, 1);
    await settle();
    expect(first.granted).toEqual([0]);
    busy = true;
    const more = queue(gate, 3);
    await settle();
    expect(more.granted).toEqual([]);
    expect(gate.counts).toEqual({ inFlight: 1, waiting: 3 });
    busy = false;
    await eventually(async () => more.granted.length, (count) => count === 3, 2000);
    expect(more.granted).toEqual([0, 1, 2]);
  });

  it('lets one in when none is in flight, however busy the loop', async () => {
    const gate = new HandshakeGate(10, () => true);
    const { granted, releases } = queue(gate, 2);
    await settle();
    expect(granted).toEqual([0]);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(granted).toEqual([0]);
    releases[0]!();
    await grantedCount(granted, 2);
    expect(granted).toEqual([0, 1]);
  });

  it('starts handshakes that wait together one at a time, not in one burst', async () => {
    const gate = new HandshakeGate(10, () => false);
    const { granted } = queue(gate, 4);
    await settle();
    expect(granted).toEqual([0]);
    await grantedCount(granted, 4);
    expect(granted).toEqual([0, 1, 2, 3]);
  });

  it('calls a loop busy that spent most of the last window running code', async () => {
    const busy = eventLoopBusy(0.6, 50);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(busy()).toBe(false);
    const until = performance.now() + 80;
    while (performance.now() < until); // the loop does nothing else meanwhile
    expect(busy()).toBe(true);
  });
});
