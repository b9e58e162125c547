import type { InboundContact, InboundMessage, Receipt } from '../../domain/network/engine-messages.js';
import type { MediaDescriptor } from '../../domain/media/media-source.js';

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** What one webhook POST carries for one of its numbers: every change's messages and statuses, in order. */
export interface NumberUpdate {
  phoneNumberId: string;
  inbound: InboundMessage[];
  receipts: Receipt[];
  /** Out-of-band errors (`value.errors[]`), e.g. 130429, which concern no one message. */
  errors: Array<{ code: string; message: string }>;
}

/** The network's id of the message an inbound item replies to, if it is a reply. */
function quotedOf(item: Obj): string | null {
  const context = item.context;
  return isObject(context) && typeof context.id === 'string' ? context.id : null;
}

const MEDIA = ['image', 'video', 'audio', 'document', 'sticker'] as const;

/** A vCard text value (RFC 6350 §3.4): backslash, comma and semicolon escaped, every line break one `\\n`. */
export const escapeVcard = (value: string) => value.replace(/\\/g, '\\\\').replace(/\r\n|\r|\n/g, '\\n').replace(/([,;])/g, '\\$1');

/** A contact card as the API sends it (structured), written as the vCard 3.0 other engines carry. */
function contactOf(card: Obj): InboundContact {
  const name = isObject(card.name) ? card.name : {};
  const displayName = text(name.formatted_name) ?? [text(name.first_name), text(name.last_name)].filter(Boolean).join(' ');
  const lines = ['BEGIN:VCARD', 'VERSION:3.0', `FN:${escapeVcard(displayName)}`];
  for (const phone of list(card.phones)) {
    if (!isObject(phone) || typeof phone.phone !== 'string') continue;
    // Parameters cannot be escaped in vCard 3.0: only a plain type word and a digits-only waid are kept.
    const type = text(phone.type);
    const waid = typeof phone.wa_id === 'string' && /^\d{1,20}$/.test(phone.wa_id) ? `;waid=${phone.wa_id}` : '';
    lines.push(`TEL;type=${type && /^[A-Za-z-]{1,20}$/.test(type) ? type : 'CELL'}${waid}:${escapeVcard(phone.phone)}`);
  }
  for (const email of list(card.emails)) if (isObject(email) && typeof email.email === 'string') lines.push(`EMAIL:${escapeVcard(email.email)}`);
  if (isObject(card.org) && typeof card.org.company === 'string') lines.push(`ORG:${escapeVcard(card.org.company)}`);
  lines.push('END:VCARD');
  return { displayName, vcard: lines.join('\n') };
}

/** One `messages[]` item as the gateway stores it; null for what it does not keep (unsupported, system, order). */
function inboundOf(item: Obj, pushNames: Map<string, string>): InboundMessage | null {
  const from = text(item.from);
  const type = text(item.type);
  if (!from || !/^\d{6,15}$/.test(from) || !type) return null;
  const base = { networkMessageId: text(item.id), from, pushName: pushNames.get(from) ?? null, location: null, quotedNetworkId: quotedOf(item) };
  const body = item[type];
  if (type === 'text' && isObject(body) && typeof body.body === 'string') {
    return { ...base, type: 'text', text: body.body };
  }
  if ((MEDIA as readonly string[]).includes(type) && isObject(body) && typeof body.id === 'string') {
    // The bytes stay with the API: fetched on demand with the instance's token (GET /<media-id>).
    const media: MediaDescriptor = {
      type: type as (typeof MEDIA)[number],
      mimetype: text(body.mime_type) ?? 'application/octet-stream',
      size: null,
      fileName: text(body.filename),
      ...(typeof body.voice === 'boolean' ? { voice: body.voice } : {}),
      source: { mediaId: body.id, sha256: text(body.sha256) },
    };
    return { ...base, type: media.type, text: null, caption: text(body.caption), media };
  }
  if (type === 'location' && isObject(body) && typeof body.latitude === 'number' && typeof body.longitude === 'number') {
    const location = {
      latitude: body.latitude,
      longitude: body.longitude,
      ...(typeof body.name === 'string' ? { name: body.name } : {}),
      ...(typeof body.address === 'string' ? { address: body.address } : {}),
    };
    return { ...base, type: 'location', text: null, location };
  }
  if (type === 'contacts' && Array.isArray(item.contacts)) {
    const contacts = item.contacts.filter(isObject).map(contactOf);
    return { ...base, type: 'contact', text: contacts.map((c) => c.displayName).filter(Boolean).join(', ') || null, contacts };
  }
  if (type === 'reaction' && isObject(body) && typeof body.message_id === 'string') {
    // An empty emoji is how the network reports a removed reaction.
    return { ...base, type: 'reaction', text: text(body.emoji), reaction: { networkMessageId: body.message_id, emoji: text(body.emoji) ?? '' } };
  }
  if (type === 'button' && isObject(body)) {
    return { ...base, type: 'text', text: text(body.text), content: { button: body } };
  }
  if (type === 'interactive' && isObject(body)) {
    const chosen = [body.button_reply, body.list_reply].find(isObject);
    return { ...base, type: 'text', text: chosen ? text(chosen.title) : null, content: { interactive: body } };
  }
  return null;
}

/** One `statuses[]` item as a receipt; `sent` is already known from the API's answer to the send. */
function receiptOf(item: Obj): Receipt | null {
  const id = text(item.id);
  const status = text(item.status);
  if (!id) return null;
  if (status === 'delivered') return { networkMessageId: id, status: 'delivered' };
  // `played` (a voice message) counts as read.
  if (status === 'read' || status === 'played') return { networkMessageId: id, status: 'read' };
  if (status === 'failed') {
    const error = list(item.errors).find(isObject);
    const code = error && typeof error.code === 'number' ? String(error.code) : 'failed';
    const message = (error && (text(error.title) ?? text(error.message))) ?? 'The network reported the message failed.';
    return { networkMessageId: id, status: 'failed', error: { code, message: message.slice(0, 500) } };
  }
  return null;
}

/**
 * A webhook body (the API's webhook reference) by number: every entry, every change and every message and status in it
 * (not only the first). Null when it is not the network's envelope at all.
 */
export function readWebhook(body: unknown): NumberUpdate[] | null {
  if (!isObject(body) || !Array.isArray(body.entry)) return null;
  const byNumber = new Map<string, NumberUpdate>();
  for (const entry of body.entry) {
    if (!isObject(entry)) continue;
    for (const change of list(entry.changes)) {
      if (!isObject(change) || change.field !== 'messages' || !isObject(change.value)) continue;
      const value = change.value;
      const phoneNumberId = isObject(value.metadata) ? text(value.metadata.phone_number_id) : null;
      if (!phoneNumberId) continue;
      let update = byNumber.get(phoneNumberId);
      if (!update) byNumber.set(phoneNumberId, (update = { phoneNumberId, inbound: [], receipts: [], errors: [] }));
      const pushNames = new Map(
        list(value.contacts).flatMap((contact) =>
          isObject(contact) && typeof contact.wa_id === 'string' && isObject(contact.profile) && typeof contact.profile.name === 'string'
            ? [[contact.wa_id, contact.profile.name] as const]
            : [],
        ),
      );
      for (const item of list(value.messages)) {
        const message = isObject(item) ? inboundOf(item, pushNames) : null;
        if (message) update.inbound.push(message);
      }
      for (const item of list(value.statuses)) {
        const receipt = isObject(item) ? receiptOf(item) : null;
        if (receipt) update.receipts.push(receipt);
      }
      for (const item of list(value.errors)) {
        if (isObject(item)) update.errors.push({ code: String(item.code ?? 'unknown'), message: String(item.title ?? item.message ?? '') });
      }
    }
  }
  return [...byNumber.values()];
}
