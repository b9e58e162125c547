import { digits } from '../phone.js';

/**
 * The one rule naming chats (docs/conversations.md): a group by its id, a person by their phone digits,
 * or by `<lid>@lid` while the network hides their number and no mapping is known.
 */

const LID_SUFFIX = '@lid';

export const isGroupChat = (chatId: string) => chatId.endsWith('@g.us');

export const lidChatId = (lid: string) => `${digits(lid)}${LID_SUFFIX}`;

/** The LID a `<lid>@lid` chat stands for, else null. */
export const lidOfChat = (chatId: string) => (chatId.endsWith(LID_SUFFIX) ? chatId.slice(0, -LID_SUFFIX.length) : null);

/** A recipient as an outbound message names it (digits, +digits or a group id) as a chat id. */
export const chatIdOfRecipient = (to: string) => (to.includes('@') ? to : digits(to));

/** The chat a message belongs to. */
export function chatIdOf(message: {
  direction: 'in' | 'out';
  to: string;
  from: string | null;
  fromLid?: string | null;
  group?: unknown;
}): string {
  const group = message.group as { id?: unknown } | null | undefined;
  if (group && typeof group.id === 'string') return group.id;
  if (message.direction === 'out') return chatIdOfRecipient(message.to);
  if (message.from) return digits(message.from);
  return message.fromLid ? lidChatId(message.fromLid) : '';
}
