import type { DashboardMessagesQuery } from '../generated/graphql.js';
import { groupIdInWords } from './recipient.js';

type Row = DashboardMessagesQuery['messages']['edges'][number]['node'];

/**
 * What a message says, for each kind (docs/messaging.md): a file as a thumbnail or a download, a
 * location as a map link, contact cards by name, a reaction by its emoji, a poll with its tally; a
 * reply, a group message, an edit and a delete for everyone say so.
 */
export function MessageContent(props: { message: Row }) {
  const m = props.message;
  return (
    <div class="message-content">
      {m.group && <span class="muted">in {m.group.subject ?? groupIdInWords(m.group.id)} · </span>}
      {m.quoted && <span class="muted">↩ reply · </span>}
      {/* Struck through: what it said before it was deleted for everyone, which the recipient no longer sees. */}
      {m.deletedAt ? (
        <span class="deleted-body">
          <Body message={m} />
        </span>
      ) : (
        <Body message={m} />
      )}
      {m.editedAt && <span class="muted"> (edited)</span>}
    </div>
  );
}

function Body(props: { message: Row }) {
  const m = props.message;
  if (m.media) return <MediaPreview media={m.media} />;
  if (m.location) {
    const { latitude, longitude, name, address } = m.location;
    const at = latitude != null && longitude != null ? `${latitude}, ${longitude}` : '';
    const label = [name, address].filter(Boolean).join(', ') || at;
    return (
      <span>
        📍{' '}
        {at ? (
          <a href={`https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=16/${latitude}/${longitude}`} rel="noopener noreferrer" target="_blank">
            {label}
          </a>
        ) : (
          label
        )}
      </span>
    );
  }
  if (m.contacts) return <span>👤 {m.contacts.map((c) => c.displayName).join(', ')}</span>;
  if (m.reaction) return <span>{m.reaction.emoji ? `Reacted ${m.reaction.emoji}` : 'Took a reaction back'}</span>;
  if (m.poll) return <PollTally poll={m.poll} />;
  return <span>{m.text ?? m.type}</span>;
}

/**
 * A received (or sent) file: a picture as a thumbnail beside its caption, every file with its name (or
 * its kind) as the download link, so a document without a caption still says what it is.
 */
function MediaPreview(props: { media: NonNullable<Row['media']> }) {
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

/** A poll's question and, per option, its votes and who cast them (phone digits), as the tally stands now. */
function PollTally(props: { poll: NonNullable<Row['poll']> }) {
  const { poll } = props;
  return (
    <figure class="poll">
      <figcaption>📊 {poll.name}</figcaption>
      <ul>
        {poll.options.map((option) => (
          <li key={option.name}>
            {option.name}: {option.votes} {option.votes === 1 ? 'vote' : 'votes'}
            {option.voters.length > 0 && <span class="muted"> ({option.voters.join(', ')})</span>}
          </li>
        ))}
      </ul>
    </figure>
  );
}
