/** How long typing shows before a text (docs/settings.md, "Sending"): as a person types it, from half a second to five. */
export function typingMsOf(text: string): number {
  return Math.min(5000, Math.max(500, text.length * 40));
}

/** Whether typing shows before this message: only texts are typed, when the instance says so. */
export const typedBeforeSending = (message: { type: string; text: string | null; typing?: boolean }) => message.typing === true && message.type === 'text' && !!message.text;
