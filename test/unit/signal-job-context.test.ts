import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';

// The signal library queues the work on a contact's session per contact, for every device of the process; key
// store transactions live in their caller's async context, so each job must run in that of the call that
// queued it (scripts/patches/libsignal+6.0.0.patch; docs/architecture.md, "Dependencies and why").
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
