/** The API counts a number's messages by when they arrive, in windows of a second. */
const WINDOW_MS = 1000;

interface Slot {
  /** When the API had answered it (so it had arrived); null while in flight. */
  answeredAt: number | null;
  answered: Promise<void>;
  settle: () => void;
}

/**
 * At most `perSecond` (CLOUD_MPS) messages per number reach the API in any second: a send starts a full
 * second after the answer to the one `perSecond` places before it (docs/engines.md, "Pace").
 */
export function createPace(perSecond: number) {
  const recent = new Map<string, Slot[]>();
  return {
    /** Resolves when one more send for the number may start; call what it returns once the API answered. */
    async take(key: string): Promise<() => void> {
      let slots = recent.get(key);
      if (!slots) recent.set(key, (slots = []));
      for (;;) {
        if (slots.length < perSecond) break;
        const earlier = slots[slots.length - perSecond]!;
        if (earlier.answeredAt === null) {
          await earlier.answered;
          continue;
        }
        const wait = earlier.answeredAt + WINDOW_MS - Date.now();
        if (wait <= 0) break;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
      let settle!: () => void;
      const answered = new Promise<void>((resolve) => (settle = resolve));
      const slot: Slot = { answeredAt: null, answered, settle };
      slots.push(slot);
      if (slots.length > perSecond) slots.shift();
      return () => {
        slot.answeredAt = Date.now();
        slot.settle();
      };
    },
    forget(key: string) {
      recent.delete(key);
    },
  };
}
