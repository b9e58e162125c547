import { Invalid } from '../../domain/errors.js';

const PERSON_JID = /^(\d+)(?::\d+)?@s\.whatsapp\.net$/;
const WRITTEN = /^\+?[\d\s().-]+$/;

/**
 * A `number` as Evolution takes it (docs/evolution.md, "Numbers"): digits with or without `+`,
 * spaces, dashes, dots or parentheses, a person's `…@s.whatsapp.net` jid or a group's `…@g.us`.
 * Gives what the domain's own inputs take: the digits, or the group id; the domain checks the rest.
 */
export function recipientOf(value: unknown, field = 'number'): string {
  if (typeof value !== 'string' || value.trim() === '') throw Invalid.at(field, 'is required: phone digits, a …@s.whatsapp.net jid or a group …@g.us');
  const text = value.trim();
  if (text.endsWith('@g.us')) return text;
  const person = PERSON_JID.exec(text);
  if (person) return person[1]!;
  if (text.endsWith('@lid')) throw Invalid.at(field, 'a …@lid recipient cannot be sent to: give the phone number or its …@s.whatsapp.net jid');
  if (WRITTEN.test(text)) return text.replace(/\D/g, '');
  throw Invalid.at(field, 'must be phone digits (with or without +, spaces or dashes), a …@s.whatsapp.net jid or a group …@g.us');
}

/** A chat as the domain's conversations name it: phone digits, a group id, or `<lid>@lid`. */
export function chatOf(value: unknown, field = 'remoteJid'): string {
  if (typeof value === 'string' && /^\d+@lid$/.test(value.trim())) return value.trim();
  return recipientOf(value, field);
}

/** The jid Evolution's answers carry for a chat the domain names by digits, group id or lid. */
export function jidOf(chat: string, domain = 's.whatsapp.net'): string {
  return chat.includes('@') ? chat : `${chat.replace(/\D/g, '')}@${domain}`;
}
