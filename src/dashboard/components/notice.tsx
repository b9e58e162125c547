import type { ComponentChildren } from 'preact';

/** Errors from the API in words, announced to screen readers. */
export function Errors(props: { messages: Array<string | null | undefined> }) {
  const shown = props.messages.filter((m): m is string => Boolean(m));
  if (!shown.length) return null;
  return (
    <div class="error" role="alert">
      {shown.length === 1 ? shown[0] : <ul>{shown.map((m) => <li key={m}>{m}</li>)}</ul>}
    </div>
  );
}

/** What a page shows when it has nothing yet, and what to do next. */
export function Empty(props: { children: ComponentChildren }) {
  return <p class="empty">{props.children}</p>;
}
