import { useMutation, useQuery, useSubscription } from '@urql/preact';
import { useState } from 'preact/hooks';
import { Empty, Errors } from '../components/notice.js';
import { MessageStatusBadge } from '../components/status.js';
import { describeError, problemsOf } from '../errors.js';
import type { MessageStatus } from '../generated/graphql.js';
import { InstanceList, MessageChanges, Messages, SendMessage, SendText } from '../operations.js';

const STATUSES: MessageStatus[] = ['queued', 'sent', 'delivered', 'read', 'failed'];

export function MessagesPage() {
  const [instanceId, setInstanceId] = useState('');
  const [status, setStatus] = useState<MessageStatus | ''>('');
  const filter = { ...(instanceId ? { instanceId } : {}), ...(status ? { status } : {}) };
  const [instances] = useQuery({ query: InstanceList, variables: {} });
  const [log, refetch] = useQuery({ query: Messages, variables: { filter } });
  // Status changes arrive with the message; the cache updates the rows in place.
  useSubscription({ query: MessageChanges });
  const [after, setAfter] = useState<string | null>(null);
  useQuery({ query: Messages, variables: { filter, after }, pause: !after });
  const names = new Map(instances.data?.instances.edges.map((e) => [e.node.id, e.node.name]) ?? []);
  const rows = log.data?.messages.edges.map((e) => e.node) ?? [];
  return (
    <section>
      <h1>Messages</h1>
      <SendTestMessage instances={instances.data?.instances.edges.map((e) => e.node) ?? []} onSent={() => refetch({ requestPolicy: 'network-only' })} />
      <form class="filters" aria-label="Filter messages" onSubmit={(e) => e.preventDefault()}>
        <label>
          Instance
          <select value={instanceId} onChange={(e) => setInstanceId(e.currentTarget.value)}>
            <option value="">All instances</option>
            {[...names].map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select value={status} onChange={(e) => setStatus(e.currentTarget.value as MessageStatus | '')}>
            <option value="">Any status</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </form>
      <Errors messages={[describeError(log.error)]} />
      {log.data && rows.length === 0 && <Empty>No messages{instanceId || status ? ' match this filter' : ' yet'}. Send a test message above.</Empty>}
      {rows.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="muted">{log.data?.messages.totalCount} in all</caption>
            <thead>
              <tr>
                <th scope="col">To / from</th>
                <th scope="col">Text</th>
                <th scope="col">Status</th>
                <th scope="col">Instance</th>
                <th scope="col">When</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((m) => (
                <tr key={m.id} data-message-id={m.id}>
                  <td>{m.direction === 'in' ? `from ${m.from}` : m.to}</td>
                  <td>{m.media ? <MediaPreview media={m.media} /> : (m.text ?? m.type)}</td>
                  <td>
                    <MessageStatusBadge status={m.status} />
                    {m.error && <span class="muted" title={m.error.code}> {m.error.message} ({m.error.code})</span>}
                  </td>
                  <td>{(m.instanceId && names.get(m.instanceId)) ?? '—'}</td>
                  <td>
                    {/* Received rows say when they arrived, sent ones when they were handed to the network (or accepted, while queued). */}
                    <span class="muted">{m.direction === 'in' ? 'received' : m.timestamps.sent ? 'sent' : 'accepted'} </span>
                    <time dateTime={m.direction === 'in' ? m.createdAt : (m.timestamps.sent ?? m.createdAt)}>
                      {new Date(m.direction === 'in' ? m.createdAt : (m.timestamps.sent ?? m.createdAt)).toLocaleString()}
                    </time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {log.data?.messages.pageInfo.hasNextPage && (
        <button type="button" class="secondary" onClick={() => setAfter(log.data!.messages.pageInfo.endCursor ?? null)}>
          Load more
        </button>
      )}
    </section>
  );
}

/**
 * A received (or sent) file: a picture as a thumbnail beside its caption, every file with its name (or
 * its kind) as the download link, so a document without a caption still says what it is.
 */
function MediaPreview(props: { media: { type: string; mimetype?: string | null; url: string; fileName?: string | null; caption?: string | null } }) {
  const { media } = props;
  const picture = media.type === 'image' || media.type === 'sticker';
  return (
    <figure class="media">
      {picture && <img class="thumb" src={media.url} alt={media.caption ? `${media.type}: ${media.caption}` : media.type} loading="lazy" width={64} height={64} />}
      <figcaption>
        {media.caption && <span class="caption">{media.caption}</span>}
        <a href={media.url} download={media.fileName ?? ''}>
          {media.fileName ? `Download ${media.fileName}` : `Download ${media.type}`}
        </a>
      </figcaption>
    </figure>
  );
}

function SendTestMessage(props: { instances: Array<{ id: string; name: string; status: string }>; onSent(): void }) {
  const [to, setTo] = useState('');
  const [text, setText] = useState('');
  const [through, setThrough] = useState('');
  const [textResult, sendText] = useMutation(SendText);
  const [routedResult, sendMessage] = useMutation(SendMessage);
  const [errors, setErrors] = useState<string[]>([]);
  return (
    <form
      class="card"
      aria-label="Send a test message"
      onSubmit={async (event) => {
        event.preventDefault();
        let problems: string[];
        if (through) {
          const answer = await sendText({ input: { instanceId: through, to, message: text } });
          problems = problemsOf(answer.error, answer.data?.sendText.userErrors);
        } else {
          const answer = await sendMessage({ input: { to, text } });
          problems = problemsOf(answer.error, answer.data?.sendMessage.userErrors);
        }
        setErrors(problems);
        if (!problems.length) props.onSent();
      }}
    >
      <h2>Send a test message</h2>
      <label>
        To (digits with the country code)
        <input inputMode="numeric" required placeholder="5511988887777" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
      </label>
      <label>
        Text
        <input required maxLength={4096} placeholder="Hello from the dashboard" value={text} onInput={(e) => setText(e.currentTarget.value)} />
      </label>
      <label>
        Through
        <select value={through} onChange={(e) => setThrough(e.currentTarget.value)}>
          <option value="">Any connected instance</option>
          {props.instances.map((i) => (
            <option key={i.id} value={i.id}>
              {i.name} ({i.status})
            </option>
          ))}
        </select>
      </label>
      <Errors messages={errors} />
      <button type="submit" disabled={textResult.fetching || routedResult.fetching}>
        Send
      </button>
    </form>
  );
}
