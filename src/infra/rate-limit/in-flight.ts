import { randomBytes } from 'node:crypto';

/** Slots for requests in flight per subject. A slot expires on its own, so a request that never ends cannot leak it. */
export interface InFlightSlots {
  /** A release function, or null when `limit` slots are taken. */
  acquire(subject: string, limit: number): Promise<(() => void) | null>;
}

const PROCESS = randomBytes(6).toString('base64url');
let nextId = 0;
/** Unique across the nodes sharing a Redis: this process's random tag and a counter. */
export const slotId = () => `${PROCESS}:${nextId++}`;

export function memorySlots(ttlMs: number): InFlightSlots {
  const bySubject = new Map<string, Map<string, number>>();
  return {
    async acquire(subject, limit) {
      const now = Date.now();
      let slots = bySubject.get(subject);
      if (!slots) bySubject.set(subject, (slots = new Map()));
      for (const [id, expiresAt] of slots) if (expiresAt <= now) slots.delete(id);
      if (slots.size >= limit) return null;
      const id = slotId();
      slots.set(id, now + ttlMs);
      return () => {
        slots.delete(id);
        if (slots.size === 0 && bySubject.get(subject) === slots) bySubject.delete(subject);
      };
    },
  };
}
