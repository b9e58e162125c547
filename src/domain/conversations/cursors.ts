import { Invalid } from '../errors.js';
import type { ChatPosition, MessagePosition } from './conversations.ports.js';

/**
 * Page cursors are opaque to clients: base64url JSON of the last row's sort key. One that does not
 * decode to a position is refused naming its field.
 */

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function decode(field: string, cursor: string): unknown[] {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value)) return value;
  } catch {
    // refused below
  }
  throw Invalid.at(field, 'must be a cursor from an earlier page');
}

const time = (field: string, value: unknown) => {
  const at = typeof value === 'string' ? new Date(value) : null;
  if (!at || Number.isNaN(at.getTime())) throw Invalid.at(field, 'must be a cursor from an earlier page');
  return at;
};
const text = (field: string, value: unknown) => {
  if (typeof value !== 'string' || value === '') throw Invalid.at(field, 'must be a cursor from an earlier page');
  return value;
};

export const chatCursor = (chat: ChatPosition) => encode(['c', chat.pinned ? 1 : 0, chat.activityAt.toISOString(), chat.id]);

export function chatPosition(field: string, cursor: string): ChatPosition {
  const [tag, pinned, at, id] = decode(field, cursor);
  if (tag !== 'c' || (pinned !== 0 && pinned !== 1)) throw Invalid.at(field, 'must be a cursor from an earlier page');
  return { pinned: pinned === 1, activityAt: time(field, at), id: text(field, id) };
}

export const messageCursor = (message: MessagePosition) => encode(['m', message.createdAt.toISOString(), message.id]);

export function messagePosition(field: string, cursor: string): MessagePosition {
  const [tag, at, id] = decode(field, cursor);
  if (tag !== 'm' || typeof id !== 'string' || !/^[0-9a-f-]{36}$/.test(id)) throw Invalid.at(field, 'must be a cursor from an earlier page');
  return { createdAt: time(field, at), id };
}

export const contactCursor = (contactId: string) => encode(['k', contactId]);

export function contactPosition(field: string, cursor: string): string {
  const [tag, id] = decode(field, cursor);
  if (tag !== 'k') throw Invalid.at(field, 'must be a cursor from an earlier page');
  return text(field, id);
}
