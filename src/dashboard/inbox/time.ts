/** A list's time: the hour today, the weekday this week, else the date. */
export function shortTime(iso: string, now = new Date()): string {
  const at = new Date(iso);
  if (at.toDateString() === now.toDateString()) return at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  if (now.getTime() - at.getTime() < 6 * 86_400_000) return at.toLocaleDateString([], { weekday: 'short' });
  return at.toLocaleDateString([], { day: 'numeric', month: 'short', ...(at.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }) });
}

/** A message's time in its bubble: the hour (the day is the thread's separator). */
export const hourOf = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** A thread's day separator. */
export const dayOf = (iso: string) => new Date(iso).toLocaleDateString([], { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });

/** How long a chat stays muted, in words: "forever" or until a moment. */
export function mutedInWords(mutedUntil: string): string {
  return mutedUntil === 'forever' ? 'Muted' : `Muted until ${new Date(mutedUntil).toLocaleString([], { dateStyle: 'short', timeStyle: 'short' })}`;
}
