import { isJidGroup, jidDecode, type proto, type WAMessage, type WAMessageKey } from 'baileys';
import type { MessageRef } from '../../domain/network/engine-messages.js';

/** A phone's user jid. */
export const phoneJid = (digits: string) => `${digits}@s.whatsapp.net`;

/** A chat as the library names it: a group id and a `<lid>@lid` as they are, phone digits as the phone's jid. */
export function chatJid(chat: string): string {
  return chat.includes('@') ? chat : phoneJid(chat);
}

/** The network's key of a message of a chat: what an edit, a delete, a read mark or a reaction names. */
export function keyOf(ref: MessageRef): WAMessageKey {
  const remoteJid = chatJid(ref.chat);
  return {
    remoteJid,
    fromMe: ref.fromMe,
    id: ref.networkMessageId,
    // In a group the key names whose message it is; a message of our own needs no participant.
    ...(isJidGroup(remoteJid) && !ref.fromMe && ref.participant ? { participant: chatJid(ref.participant) } : {}),
  };
}

/**
 * The message a reply quotes, as the library builds the reply's context from it: its key, and a
 * minimal copy of its content (its text, when it had one) that the receiving phone shows above the reply.
 */
export function quotedOf(ref: MessageRef): WAMessage {
  const key = keyOf(ref);
  const message: proto.IMessage = { conversation: ref.text ?? '' };
  return { key, message, ...(key.participant ? { participant: key.participant } : {}) };
}

/** The phone digits of a user jid (`<digits>[:device]@s.whatsapp.net`), or null for any other kind of jid. */
export function userJidDigits(jid: string | null | undefined): string | null {
  const decoded = jid ? jidDecode(jid) : undefined;
  return decoded && decoded.server === 's.whatsapp.net' && /^\d+$/.test(decoded.user) ? decoded.user : null;
}
