import { AsyncLocalStorage } from 'node:async_hooks';
import { addTransactionCapability } from 'baileys';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';

// scripts/patches/baileys+*.patch: every socket's key store shares one AsyncLocalStorage (one enabled
// storage per socket made each promise of the process cost as many hooks as there were sockets).

type Keys = Record<string, Record<string, unknown>>;

/**
 * A key store over a plain object, counting the writes that reach it. Each write is taken as it was
 * when set() was called (as the gateway's store encodes it then), and may be held by `beforeWrite`.
 */
function memoryStore(beforeWrite?: () => Promise<void>) {
  const data: Keys = {};
  const writes: Keys[] = [];
  return {
    data,
    writes,
    store: addTransactionCapability(
      {
        get: async (type: string, ids: string[]) => Object.fromEntries(ids.filter((id) => data[type]?.[id] !== undefined).map((id) => [id, data[type]![id]])),
        set: async (given: Keys) => {
          const mutations = structuredClone(given);
          await beforeWrite?.();
          writes.push(mutations);
          for (const [type, values] of Object.entries(mutations)) Object.assign((data[type] ??= {}), values);
        },
      } as never,
      pino({ level: 'silent' }),
      { maxCommitRetries: 1, delayBetweenTriesMs: 1 },
    ),
  };
}

const run = AsyncLocalStorage.prototype.run;
afterEach(() => {
  AsyncLocalStorage.prototype.run = run;
});

describe('baileys key-store transactions (patched)', () => {
  it('use one AsyncLocalStorage for all key stores', async () => {
    const used = new Set<AsyncLocalStorage<unknown>>();
    AsyncLocalStorage.prototype.run = function (this: AsyncLocalStorage<unknown>, ...args: Parameters<typeof run>) {
      used.add(this);
      return run.apply(this, args);
    } as typeof run;
    const stores = [memoryStore(), memoryStore(), memoryStore()];
    for (const { store } of stores) await store.transaction(async () => store.set({ session: { a: 'x' } } as never), 'key');
    expect(used.size).toBe(1);
    expect(stores.map(({ data }) => data.session?.a)).toEqual(['x', 'x', 'x']);
  });

  it('keep each store’s transaction its own, also when one runs inside another', async () => {
    const a = memoryStore();
    const b = memoryStore();
    b.data.session = { shared: 'b’s own' };
    await a.store.transaction(async () => {
      expect(a.store.isInTransaction()).toBe(true);
      expect(b.store.isInTransaction()).toBe(false);
      await a.store.set({ session: { shared: 'a’s pending' } } as never);
      // B reads its own data, not A's uncommitted cache.
      expect(await b.store.get('session', ['shared'])).toEqual({ shared: 'b’s own' });
      await b.store.transaction(async () => {
        expect(b.store.isInTransaction()).toBe(true);
        expect(a.store.isInTransaction()).toBe(true);
        await b.store.set({ session: { inner: 'b' } } as never);
        expect(await a.store.get('session', ['shared'])).toEqual({ shared: 'a’s pending' });
      }, 'key');
      // B committed when its own transaction ended; A has not yet.
      expect(b.data.session).toEqual({ shared: 'b’s own', inner: 'b' });
      expect(a.writes).toEqual([]);
    }, 'key');
    expect(a.data.session).toEqual({ shared: 'a’s pending' });
    expect(a.writes).toHaveLength(1);
  });

  it('are not seen by work started concurrently outside them', async () => {
    const a = memoryStore();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const inside = a.store.transaction(async () => {
      await a.store.set({ session: { k: 'pending' } } as never);
      await held;
    }, 'key');
    expect(a.store.isInTransaction()).toBe(false);
    expect(await a.store.get('session', ['k'])).toEqual({});
    release();
    await inside;
    expect(await a.store.get('session', ['k'])).toEqual({ k: 'pending' });
  });

  // Work a transaction starts without awaiting it (the library issues a token after a send that way)
  // runs in the transaction's context after it ended: what it wrote went to a cache already committed.
  it('let work a transaction left running read and write the store itself once the transaction ended', async () => {
    const { store, data, writes } = memoryStore();
    let go!: () => void;
    const gate = new Promise<void>((resolve) => (go = resolve));
    let leftover!: Promise<{ inTransaction: boolean; read: unknown }>;
    await store.transaction(async () => {
      await store.set({ session: { a: 'sent' } } as never);
      leftover = gate.then(async () => {
        await store.set({ tctoken: { b: 'issued' } } as never);
        return { inTransaction: store.isInTransaction(), read: await store.get('session', ['a']) };
      });
    }, 'key');
    go();
    expect(await leftover).toEqual({ inTransaction: false, read: { a: 'sent' } });
    expect(data.tctoken).toEqual({ b: 'issued' });
    expect(writes).toEqual([{ session: { a: 'sent' } }, { tctoken: { b: 'issued' } }]);
  });

  it('apply a left-over write after the commit under way, never before it or into it', async () => {
    let committing!: () => void;
    const commitStarted = new Promise<void>((resolve) => (committing = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { store, data, writes } = memoryStore(async () => {
      committing();
      await held;
    });
    let leftover!: Promise<void>;
    const done = store.transaction(async () => {
      await store.set({ session: { a: 'old' } } as never);
      leftover = commitStarted.then(() => store.set({ session: { a: 'new' } } as never));
    }, 'key');
    await commitStarted;
    release();
    await Promise.all([done, leftover]);
    expect(writes).toEqual([{ session: { a: 'old' } }, { session: { a: 'new' } }]);
    expect(data.session).toEqual({ a: 'new' });
  });

  // A send's transaction (under the account's key) and a decryption's (under the contact's) both move
  // the contact's session on: under separate locks each wrote back its own copy, and one step was lost.
  it('run one at a time whatever their keys, so two moving the same record on both count', async () => {
    const { store, data } = memoryStore();
    data.session = { contact: 0 };
    const step = (key: string) =>
      store.transaction(async () => {
        const { contact } = (await store.get('session', ['contact'])) as unknown as { contact: number };
        await new Promise((resolve) => setImmediate(resolve));
        await store.set({ session: { contact: contact + 1 } } as never);
      }, key);
    await Promise.all([step('account@s.whatsapp.net'), step('contact@s.whatsapp.net'), step('account@s.whatsapp.net'), step('group@g.us')]);
    expect(data.session).toEqual({ contact: 4 });
  });
});
