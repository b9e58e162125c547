import { useMutation } from '@urql/preact';
import { useRef, useState } from 'preact/hooks';
import { Errors } from '../components/notice.js';
import { problemsOf } from '../errors.js';
import { type ThreadMessage, senderOf, summaryOf } from './bubble.js';
import { InboxSend } from './operations.js';
import { sendFile } from './send-file.js';

/**
 * The thread's send box: a text, or a file with the text as its caption, optionally a reply to a
 * message of the thread. Texts go through GraphQL's sendMessage; files through REST, whose body may
 * be far larger than a GraphQL request's (docs/dashboard.md, "The inbox").
 */
export function SendBox(props: { instanceId: string; to: string; peer: string | null; replyTo: ThreadMessage | null; onCancelReply(): void; onSent(): void }) {
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const [, send] = useMutation(InboxSend);
  const fileInput = useRef<HTMLInputElement>(null);
  const reply = props.replyTo ? { quotedMessageId: props.replyTo.id } : {};
  const submit = async () => {
    if (!text.trim() && !file) return;
    setBusy(true);
    try {
      let problems: string[];
      if (file) {
        problems = await sendFile(props.instanceId, { to: props.to, file, caption: text.trim() || undefined, ...reply });
      } else {
        const answer = await send({ input: { instanceId: props.instanceId, to: props.to, text, ...reply } });
        problems = problemsOf(answer.error, answer.data?.sendMessage.userErrors);
      }
      setErrors(problems);
      if (problems.length) return;
      setText('');
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
      props.onCancelReply();
      props.onSent();
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      class="send-box"
      aria-label="Send a message"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {props.replyTo && (
        <div class="replying">
          <span>
            Replying to <strong>{senderOf(props.replyTo, props.peer)}</strong>: {summaryOf(props.replyTo)}
          </span>
          <button type="button" class="link" onClick={props.onCancelReply} aria-label="Cancel the reply">
            ✕
          </button>
        </div>
      )}
      {file && (
        <div class="replying">
          <span>📎 {file.name}</span>
          <button
            type="button"
            class="link"
            aria-label="Remove the attachment"
            onClick={() => {
              setFile(null);
              if (fileInput.current) fileInput.current.value = '';
            }}
          >
            ✕
          </button>
        </div>
      )}
      <Errors messages={errors} />
      <div class="send-row">
        <label class="attach" title="Attach a file">
          <span aria-hidden="true">📎</span>
          <span class="visually-hidden">Attach a file</span>
          <input ref={fileInput} type="file" class="visually-hidden" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
        </label>
        <label class="visually-hidden" for="send-text">
          {file ? 'Caption' : 'Message'}
        </label>
        <textarea
          id="send-text"
          rows={1}
          maxLength={file ? 1024 : 4096}
          placeholder={file ? 'Add a caption' : 'Type a message'}
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            // Enter sends, Shift+Enter starts a new line, as in a phone's desktop app.
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              void submit();
            }
          }}
        />
        <button type="submit" disabled={busy || (!text.trim() && !file)}>
          Send
        </button>
      </div>
    </form>
  );
}
