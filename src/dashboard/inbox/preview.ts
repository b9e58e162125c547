import type { InboxChatFragment } from '../generated/graphql.js';

type Last = NonNullable<InboxChatFragment['lastMessage']>;

const MEDIA_WORDS: Record<string, string> = { image: '📷 Photo', video: '🎬 Video', audio: '🎤 Audio', document: '📄 Document', sticker: 'Sticker' };

/** A chat's newest message in a line of the chat list: its text, or its kind in words. */
export function previewOf(last: Last): string {
  const by = last.direction === 'out' ? 'You: ' : '';
  if (last.deletedAt) return `${by}This message was deleted`;
  if (last.media) {
    const words = last.media.type === 'document' && last.media.fileName ? `📄 ${last.media.fileName}` : (MEDIA_WORDS[last.media.type] ?? last.media.type);
    return `${by}${words}${last.media.caption ? ` ${last.media.caption}` : ''}`;
  }
  if (last.location) return `${by}📍 ${last.location.name ?? 'Location'}`;
  if (last.contacts?.length) return `${by}👤 ${last.contacts.map((c) => c.displayName).join(', ')}`;
  if (last.poll) return `${by}📊 ${last.poll.name}`;
  if (last.reaction) return last.reaction.emoji ? `${by}Reacted ${last.reaction.emoji}` : `${by}Took a reaction back`;
  return `${by}${last.text ?? last.type}`;
}
