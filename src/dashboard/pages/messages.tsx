import { useMutation, useQuery, useSubscription } from '@urql/preact';
import { useState } from 'preact/hooks';
import { Empty, Errors } from '../components/notice.js';
import { MessageStatusBadge } from '../components/status.js';
import { describeError, problemsOf } from '../errors.js';
import type { MessageStatus } from '../generated/graphql.js';
import { InstanceList, MessageArrivals, MessageChanges, Messages, SendMessage } from '../operations.js';
import { MessageContent } from '../components/message-content.js';
import { Recipient } from '../components/recipient.js';

const STATUSES: MessageStatus[] = ['queued', 'sent', 'delivered', 'read', 'failed'];

export function MessagesPage() {
  const [instanceId, setInstanceId] = useState('');
  const [status, setStatus] = useState<MessageStatus | ''>('');
  const filter = { ...(instanceId ? { instanceId } : {}), ...(status ? { status } : {}) };
  const [instances] = useQuery({ query: InstanceList, variables: {} });
  const [log, refetch] = useQuery({ query: Messages, variables: { filter } });
  // Status changes arrive with the message; the cache updates the rows in place.
  useSubscription({ query: MessageChanges });
  useSubscription({ query: MessageArrivals });
  const [after, setAfter] = useState<string | null>(null);
  useQuery({ query: Messages, variables: { filter, after }, pause: !after });
  const names = new Map(instances.data?.instances.edges.map((e) => [e.node.id, e.node.name]) ?? []);
  const rows = log.data?.messages.edges.map((e) => e.node) ?? [];
  // Received group messages carry their group's subject: sent ones to the same group use it.
  const subjects = new Map(rows.flatMap((m) => (m.group?.subject ? [[m.group.id, m.group.subject] as const] : [])));
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
                <tr key={m.id} data-message-id={m.id} class={m.deletedAt ? 'deleted' : undefined}>
                  <td data-label="To / from">
                    {m.direction === 'in' ? `from ${m.from ?? 'a hidden number'}` : <Recipient to={m.to} instanceId={m.instanceId} knownSubjects={subjects} />}
                  </td>
                  <td data-label="Text">
                    <MessageContent message={m} />
                  </td>
                  <td data-label="Status">
                    <MessageStatusBadge status={m.status} />
                    {m.deletedAt && (
                      <span class="status status-deleted" title={`Deleted for everyone ${new Date(m.deletedAt).toLocaleString()}`}>
                        deleted
                      </span>
                    )}
                    {m.error && <span class="muted" title={m.error.code}> {m.error.message} ({m.error.code})</span>}
                  </td>
                  <td data-label="Instance">{(m.instanceId && names.get(m.instanceId)) ?? '—'}</td>
                  <td data-label="When">
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

const KINDS = ['text', 'media', 'location'] as const;
type Kind = (typeof KINDS)[number];
const MEDIA_TYPES = ['image', 'video', 'audio', 'document', 'sticker'] as const;

/**
 * A message of one of the kinds a person tries first: a text (routed, or through an instance), a
 * file by URL or a location through an instance (docs/messaging.md); the instance's engine decides
 * what it can carry, and a refusal says so.
 */
function SendTestMessage(props: { instances: Array<{ id: string; name: string; status: string }>; onSent(): void }) {
  const [to, setTo] = useState('');
  const [kind, setKind] = useState<Kind>('text');
  const [text, setText] = useState('');
  const [mediaUrl, setMediaUrl] = useState('');
  const [mediaType, setMediaType] = useState<(typeof MEDIA_TYPES)[number]>('image');
  const [latitude, setLatitude] = useState('');
  const [longitude, setLongitude] = useState('');
  const [place, setPlace] = useState('');
  const [through, setThrough] = useState('');
  const [result, sendMessage] = useMutation(SendMessage);
  const [errors, setErrors] = useState<string[]>([]);
  const content = () => {
    if (kind === 'media') return { media: { url: mediaUrl }, mediaType, ...(text ? { caption: text } : {}) };
    if (kind === 'location') return { location: { latitude: Number(latitude), longitude: Number(longitude), ...(place ? { name: place } : {}) } };
    return { text };
  };
  return (
    <form
      class="card"
      aria-label="Send a test message"
      onSubmit={async (event) => {
        event.preventDefault();
        const answer = await sendMessage({ input: { to, ...content(), ...(through ? { instanceId: through } : {}) } });
        const problems = problemsOf(answer.error, answer.data?.sendMessage.userErrors);
        setErrors(problems);
        if (!problems.length) props.onSent();
      }}
    >
      <h2>Send a test message</h2>
      <label>
        To (digits with the country code)
        <input inputMode="numeric" required placeholder="5511988887777" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
      </label>
      {/* Labelled by id: a label wrapping the select would take its options' words into its name. */}
      <label for="send-kind">Kind</label>
      <select id="send-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as Kind)}>
        {KINDS.map((k) => (
          <option key={k} value={k}>
            {k}
          </option>
        ))}
      </select>
      {kind === 'media' && (
        <>
          <label>
            File URL
            <input type="url" required placeholder="https://example.com/photo.jpg" value={mediaUrl} onInput={(e) => setMediaUrl(e.currentTarget.value)} />
          </label>
          <label for="send-media-type">File type</label>
          <select id="send-media-type" value={mediaType} onChange={(e) => setMediaType(e.currentTarget.value as (typeof MEDIA_TYPES)[number])}>
            {MEDIA_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </>
      )}
      {kind === 'location' ? (
        <>
          <label>
            Latitude
            <input inputMode="decimal" required placeholder="-23.5613" value={latitude} onInput={(e) => setLatitude(e.currentTarget.value)} />
          </label>
          <label>
            Longitude
            <input inputMode="decimal" required placeholder="-46.6565" value={longitude} onInput={(e) => setLongitude(e.currentTarget.value)} />
          </label>
          <label>
            Place name
            <input placeholder="MASP" value={place} onInput={(e) => setPlace(e.currentTarget.value)} />
          </label>
        </>
      ) : (
        <label>
          {kind === 'media' ? 'Caption' : 'Text'}
          <input required={kind === 'text'} maxLength={kind === 'media' ? 1024 : 4096} placeholder="Hello from the dashboard" value={text} onInput={(e) => setText(e.currentTarget.value)} />
        </label>
      )}
      <label>
        Through
        <select value={through} onChange={(e) => setThrough(e.currentTarget.value)}>
          <option value="">Any connected instance{kind === 'text' ? '' : ' (texts only)'}</option>
          {props.instances.map((i) => (
            <option key={i.id} value={i.id}>
              {i.name} ({i.status})
            </option>
          ))}
        </select>
      </label>
      <Errors messages={errors} />
      <button type="submit" disabled={result.fetching}>
        Send
      </button>
    </form>
  );
}
