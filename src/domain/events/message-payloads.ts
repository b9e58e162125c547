import { messageErrorOf } from '../messages/message-error.js';
import { kindFields, messageMedia } from '../messages/message-fields.js';
import type { JsonValue } from '../messages/message-values.js';
import type { MessageRecord } from '../messages/messages.ports.js';
import { type StoredPoll, tallyOf } from '../messages/poll-tally.js';
import type { CatalogueEvent, MediaKeptData } from './catalogue.js';

const iso = (date: Date | null) => date?.toISOString();

const mediaFields = (message: MessageRecord) => {
  const media = messageMedia(message);
  return media ? { media } : {};
};

/** messages.upsert, spec 6.2: the message as it enters the network (sent) or arrives (received). */
export function upsertEvent(message: MessageRecord, extra: { pushName?: string | null } = {}): CatalogueEvent<'messages.upsert'> {
  return {
    event: 'messages.upsert',
    data: {
      messageId: message.id,
      // A sender known only by its LID has no phone: null, and the LID in fromLid.
      from: message.direction === 'in' ? message.from : (message.from ?? ''),
      to: message.to,
      fromMe: message.direction === 'out',
      type: message.type,
      text: message.text ?? message.caption ?? '',
      timestamp: (message.direction === 'out' ? message.sentAt ?? message.createdAt : message.createdAt).toISOString(),
      ...(message.mediaUrl ? { mediaUrl: message.mediaUrl } : {}),
      // A template sent; a network's message part with no field of its own (CHAT-CLOUD button and list replies).
      ...(message.content ? { content: message.content } : {}),
      ...mediaFields(message),
      ...kindFields(message),
      ...(message.fromLid ? { fromLid: message.fromLid } : {}),
      ...(extra.pushName ? { pushName: extra.pushName } : {}),
    },
  };
}

/** messages.update, spec 6.2: the status with the time of every step so far; a failed one says why (`error`, beside the spec's fields). */
export function statusEvent(message: MessageRecord): CatalogueEvent<'messages.update'> {
  const timestamps = Object.fromEntries(
    Object.entries({ sent: iso(message.sentAt), delivered: iso(message.deliveredAt), read: iso(message.readAt), failed: iso(message.failedAt) }).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  const error = message.status === 'failed' ? messageErrorOf(message.error) : null;
  return { event: 'messages.update', data: { messageId: message.id, status: message.status, timestamps, ...(error ? { error } : {}) } };
}

/** messages.update for an edit (ours or the other side's): the latest words and when they were written. */
export function editEvent(message: MessageRecord): CatalogueEvent<'messages.update'> {
  return { event: 'messages.update', data: { messageId: message.id, edited: { text: message.text ?? message.caption ?? '', at: (message.editedAt ?? message.updatedAt).toISOString() } } };
}

/** messages.update for a vote on a poll: the poll's message and its tally now. */
export function pollVoteEvent(message: MessageRecord): CatalogueEvent<'messages.update'> {
  return { event: 'messages.update', data: { messageId: message.id, poll: tallyOf(message.poll as unknown as StoredPoll) as unknown as JsonValue } };
}

/** messages.delete: who deleted the message, and whether for everyone or only on their side. */
export function deleteEvent(message: Pick<MessageRecord, 'id'>, deletedBy: string, forEveryone: boolean): CatalogueEvent<'messages.delete'> {
  return { event: 'messages.delete', data: { messageId: message.id, deletedBy, forEveryone } };
}

/** messages.update for an attempt at keeping the message's media: stored (its hash and size), or why not and when it is tried again. */
export function mediaKeptEvent(messageId: string, media: MediaKeptData): CatalogueEvent<'messages.update'> {
  return { event: 'messages.update', data: { messageId, media } };
}
