import { useRef, useState } from 'preact/hooks';

/**
 * A secret shown once, with a Copy button: the Clipboard API where the page may use it, else (plain
 * http on another host, permission refused) the text is selected for the keyboard's copy.
 */
export function SecretToCopy(props: { secret: string; what: string }) {
  const code = useRef<HTMLElement>(null);
  const [outcome, setOutcome] = useState<'copied' | 'selected' | null>(null);
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no Clipboard API');
      await navigator.clipboard.writeText(props.secret);
      setOutcome('copied');
    } catch {
      const range = document.createRange();
      range.selectNodeContents(code.current!);
      const selection = getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
      setOutcome('selected');
    }
  };
  return (
    <p class="key">
      <code ref={code}>{props.secret}</code>
      <button type="button" class="secondary" aria-label={`Copy the ${props.what}`} onClick={copy}>
        Copy
      </button>
      <span class="hint" aria-live="polite">
        {outcome === 'copied' ? 'Copied.' : outcome === 'selected' ? 'Selected: press Ctrl+C (⌘C on a Mac) to copy it.' : ''}
      </span>
    </p>
  );
}
