import { Repeater } from '@repeaterjs/repeater';

/**
 * A live stream that starts with the current state: attached to `feed` before the state is read (no
 * change is lost), a value equal by `keyOf` to the last one is not sent again, and the state is read
 * again whenever the feed resumes, so a subscriber never keeps a stale value.
 */
export function startingWithState<E>(options: {
  feed: AsyncIterableIterator<E>;
  current: () => Promise<E | null>;
  keyOf: (value: E) => string;
  onResumed: (listener: () => void) => () => void;
  /** Resolves once `feed` receives what is published (LiveFeed.attached). */
  attached: () => Promise<void>;
  onError: (error: unknown) => void;
}): AsyncIterableIterator<E> {
  const { feed, current, keyOf } = options;
  return new Repeater<E>(async (push, stop) => {
    let last: string | undefined;
    const send = async (value: E | null) => {
      if (value === null) return;
      const key = keyOf(value);
      if (key === last) return;
      last = key;
      await push(value);
    };
    const resend = () => void current().then(send, options.onError);
    const stopWatching = options.onResumed(resend);
    // What arrives while the state is being read is held; only the newest of it can add anything.
    let held: { value: E } | undefined;
    let started = false;
    const forwarding = (async () => {
      for await (const value of feed) {
        if (started) await send(value);
        else held = { value };
      }
    })().catch(options.onError);
    try {
      await options.attached();
      await send(await current());
    } catch (error) {
      options.onError(error);
    }
    started = true;
    if (held) await send(held.value);
    await stop;
    stopWatching();
    await feed.return?.();
    await forwarding;
  });
}
