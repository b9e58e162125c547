/** What a linked device uploaded about its Signal identity (`<iq xmlns="encrypt" type="set">`). */
export interface UploadedKeys {
  registrationId: number;
  identityKey: Buffer;
  signedPreKey: { keyId: number; publicKey: Buffer; signature: Buffer };
}

/** Below this many one-time pre-keys the network asks the device for more, as the real one does. */
export const PRE_KEY_LOW_WATER = 5;

/**
 * A device's uploaded one-time pre-keys. Clients upload hundreds at a time with consecutive ids, so
 * they are kept as runs of 32-byte keys in one buffer each rather than an object per key: a thousand
 * linked devices would otherwise hold close to a million small objects.
 */
export class PreKeyPool {
  private readonly runs: { firstId: number; keys: Buffer; next: number }[] = [];

  add(keys: { keyId: number; publicKey: Uint8Array }[]): void {
    let start = 0;
    for (let i = 1; i <= keys.length; i++) {
      if (i < keys.length && keys[i]!.keyId === keys[i - 1]!.keyId + 1) continue;
      const run = keys.slice(start, i);
      if (run.length) {
        this.runs.push({ firstId: run[0]!.keyId, keys: Buffer.concat(run.map((key) => key.publicKey)), next: 0 });
      }
      start = i;
    }
  }

  take(): { keyId: number; publicKey: Buffer } | undefined {
    while (this.runs.length) {
      const run = this.runs[0]!;
      const count = run.keys.length / 32;
      if (run.next < count) {
        const index = run.next++;
        return { keyId: run.firstId + index, publicKey: Buffer.from(run.keys.subarray(index * 32, index * 32 + 32)) };
      }
      this.runs.shift();
    }
    return undefined;
  }

  get size(): number {
    return this.runs.reduce((sum, run) => sum + run.keys.length / 32 - run.next, 0);
  }

  ids(): number[] {
    return this.runs.flatMap((run) => Array.from({ length: run.keys.length / 32 - run.next }, (_, i) => run.firstId + run.next + i));
  }
}
