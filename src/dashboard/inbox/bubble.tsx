import type { InboxMessageFragment } from '../generated/graphql.js';
import { hourOf } from './time.js';

export type ThreadMessage = InboxMessageFragment;

/** Who sent a message: you, the chat's name in a direct chat, the sender's number in a group. */
export const senderOf = (m: ThreadMessage, peer: string | null) => (m.direction === 'out' ? 'You' : (peer ?? m.from ?? m.fromLid ?? 'Someone'));

/**
 * One message of a thread (docs/dashboard.md, "The inbox"): every kind drawn as a phone draws it, the
 * message it replies to quoted above it, the reactions to it below, and whether it was edited,
 * deleted for everyone or came with the phone's history.
 */
export function Bubble(props: { message: ThreadMessage; quoted: ThreadMessage | null | undefined; reactions: Array<{ by: string; emoji: string }>; peer: string | null; onReply(): void }) {
  const m = props.message;
  const out = m.direction === 'out';
  return (
    <article class={`bubble ${out ? 'out' : 'in'}${m.deletedAt ? ' deleted' : ''}`} data-message-id={m.id} aria-label={`${senderOf(m, props.peer)} at ${hourOf(m.createdAt)}`}>
      {props.peer === null && !out && <p class="sender">{senderOf(m, null)}</p>}
      {m.quoted && <Quote quoted={props.quoted} peer={props.peer} />}
      {m.deletedAt ? (
        <p class="body">
          <span class="deleted-mark">🚫 This message was deleted</span>
          {/* What it said before, struck through: the gateway keeps it though the recipient no longer sees it. */}
          {m.text && <s class="deleted-body"> {m.text}</s>}
        </p>
      ) : (
        <Body message={m} />
      )}
      {props.reactions.length > 0 && (
        <ul class="reactions" aria-label="Reactions">
          {props.reactions.map((r) => (
            <li key={r.by} title={r.by}>
              {r.emoji}
            </li>
          ))}
        </ul>
      )}
      <p class="meta">
        {m.history && <span class="tag" title="Came with the phone's history">history</span>}
        {m.editedAt && <span class="tag" title={`Edited ${new Date(m.editedAt).toLocaleString()}`}>edited</span>}
        <time dateTime={m.createdAt} title={new Date(m.createdAt).toLocaleString()}>
          {hourOf(m.createdAt)}
        </time>
        {out && <span class={`tick tick-${m.status}`}>{m.status}</span>}
        {!m.deletedAt && (
          <button type="button" class="link" onClick={props.onReply} aria-label={`Reply to ${senderOf(m, props.peer)} at ${hourOf(m.createdAt)}`}>
            Reply
          </button>
        )}
      </p>
    </article>
  );
}

function Quote(props: { quoted: ThreadMessage | null | undefined; peer: string | null }) {
  const q = props.quoted;
  return (
    <blockquote class="quote">
      {q ? (
        <>
          <strong>{senderOf(q, props.peer)}</strong> {summaryOf(q)}
        </>
      ) : (
        <span class="muted">A message not loaded here</span>
      )}
    </blockquote>
  );
}

/** A message in a few words, for a quote or the send box's "replying to". */
export function summaryOf(m: ThreadMessage): string {
  if (m.deletedAt) return 'This message was deleted';
  if (m.media) return m.media.caption ?? m.media.fileName ?? m.media.type;
  if (m.location) return `📍 ${m.location.name ?? 'Location'}`;
  if (m.contacts?.length) return `👤 ${m.contacts.map((c) => c.displayName).join(', ')}`;
  if (m.poll) return `📊 ${m.poll.name}`;
  return m.text ?? m.type;
}

function Body(props: { message: ThreadMessage }) {
  const m = props.message;
  if (m.media) return <Media media={m.media} />;
  if (m.location) {
    const { latitude, longitude, name, address } = m.location;
    const label = [name, address].filter(Boolean).join(', ') || `${latitude}, ${longitude}`;
    return (
      <p class="body location">
        📍{' '}
        {latitude != null && longitude != null ? (
          <a href={`https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=16/${latitude}/${longitude}`} rel="noopener noreferrer" target="_blank">
            {label}
          </a>
        ) : (
          label
        )}
      </p>
    );
  }
  if (m.contacts?.length) {
    return (
      <ul class="body contact-cards">
        {m.contacts.map((c) => (
          <li key={c.displayName + c.vcard} class="contact-card">
            <strong>👤 {c.displayName}</strong>
            {phonesOf(c.vcard).map((phone) => (
              <span key={phone} class="muted">
                {' '}
                {phone}
              </span>
            ))}
          </li>
        ))}
      </ul>
    );
  }
  if (m.poll) {
    const total = m.poll.options.reduce((sum, o) => sum + o.votes, 0);
    return (
      <figure class="body poll">
        <figcaption>📊 {m.poll.name}</figcaption>
        <ul>
          {m.poll.options.map((o) => (
            <li key={o.name}>
              <span class="poll-option">
                {o.name}: {o.votes} {o.votes === 1 ? 'vote' : 'votes'}
              </span>
              <span class="poll-bar" style={{ width: `${total ? (100 * o.votes) / total : 0}%` }} />
            </li>
          ))}
        </ul>
      </figure>
    );
  }
  if (m.reaction) return <p class="body muted">{m.reaction.emoji ? `Reacted ${m.reaction.emoji}` : 'Took a reaction back'}</p>;
  return <p class="body">{m.text ?? m.type}</p>;
}

/** The phone numbers of a vCard's TEL lines. */
function phonesOf(vcard: string): string[] {
  return [...vcard.matchAll(/^TEL[^:]*:(.+)$/gim)].map((match) => match[1]!.trim());
}

/** A file through the signed link GraphQL gives (docs/media.md): pictures inline, audio and video playable, documents a link. */
function Media(props: { media: NonNullable<ThreadMessage['media']> }) {
  const { media } = props;
  const name = media.fileName ?? media.type;
  return (
    <figure class="body file">
      {(media.type === 'image' || media.type === 'sticker') && (
        <a href={media.url} target="_blank" rel="noopener">
          <img class={media.type} src={media.url} alt={media.caption ?? media.type} loading="lazy" />
        </a>
      )}
      {media.type === 'video' && <video src={media.url} controls preload="metadata" />}
      {media.type === 'audio' && <audio src={media.url} controls preload="metadata" aria-label="Voice message" />}
      {media.type === 'document' && (
        <a class="document" href={media.url} download={media.fileName ?? ''}>
          📄 {name}
          {media.size ? <span class="muted"> · {sizeInWords(media.size)}</span> : null}
        </a>
      )}
      {media.caption && <figcaption>{media.caption}</figcaption>}
    </figure>
  );
}

const sizeInWords = (bytes: number) => (bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
