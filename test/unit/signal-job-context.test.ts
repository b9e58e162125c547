import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';

// The signal library serializes the work on one contact's session through a queue per contact, shared
// by every linked device of the process. The key stores' transactions live in the async context of
// their caller (baileys' addTransactionCapability), so each job must run in the context of the call
// that queued it, not in that of whichever call started the queue (scripts/patches/libsignal+6.0.0.patch).
const queueJob = createRequire(import.meta.url)('libsignal/src/queue_job.js') as (bucket: string, work: () => Promise<void>) => Promise<void>;

it('runs each job of a contact\'s queue in the async context of the call that queued it', async () => {
  const context = new AsyncLocalStorage<string>();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const seen: Array<string | undefined> = [];
  // One device's job holds the contact's queue; another device's job for the same contact waits behind it.
  const first = context.run('device A', () =>
    queueJob('15550000001.0', async () => {
      await held;
      seen.push(context.getStore());
    }),
  );
  const second = context.run('device B', () => queueJob('15550000001.0', async () => void seen.push(context.getStore())));
  release();
  await Promise.all([first, second]);
  expect(seen).toEqual(['device A', 'device B']);
});
