import type { InboundMessage, Receipt } from '../../../domain/instances/engine.port.js';

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

/** The part of an inbound item that is not its type's own: the quoted message of a reply. */
function replyOf(item: Obj): Obj {
  const context = item.context;
  if (!isObject(context) || typeof context.id !== 'string') return {};
  return { replyTo: { networkMessageId: context.id, from: text(context.from) } };
}

const MEDIA = ['image', 'video', 'audio', 'document', 'sticker'] as const;

/** One `messages[]` item as the gateway stores it; null for what it does not keep (unsupported, system, order). */
function inboundOf(item: Obj, pushNames: Map<string, string>): InboundMessage | null {
  const from = text(item.from);
  const type = text(item.type);
  if (!from || !/^\d{6,15}$/.test(from) || !type) return null;
  const base = { networkMessageId: text(item.id), from, pushName: pushNames.get(from) ?? null, location: null };
  const reply = replyOf(item);
  const body = item[type];
  if (type === 'text' && isObject(body) && typeof body.body === 'string') {
    return { ...base, type: 'text', text: body.body, content: Object.keys(reply).length ? reply : null };
  }
  if ((MEDIA as readonly string[]).includes(type) && isObject(body) && typeof body.id === 'string') {
    // The media itself is fetched on demand with the instance's token (GET /<media-id>); its id is kept.
    const media = {
      mediaId: body.id,
      mimeType: text(body.mime_type),
      sha256: text(body.sha256),
      ...(typeof body.filename === 'string' ? { filename: body.filename } : {}),
      ...(typeof body.voice === 'boolean' ? { voice: body.voice } : {}),
      ...(typeof body.animated === 'boolean' ? { animated: body.animated } : {}),
    };
    return { ...base, type: type as (typeof MEDIA)[number], text: text(body.caption), content: { media, ...reply } };
  }
  if (type === 'location' && isObject(body) && typeof body.latitude === 'number' && typeof body.longitude === 'number') {
    const location = {
      latitude: body.latitude,
      longitude: body.longitude,
      ...(typeof body.name === 'string' ? { name: body.name } : {}),
      ...(typeof body.address === 'string' ? { address: body.address } : {}),
    };
    return { ...base, type: 'location', text: null, location, content: Object.keys(reply).length ? reply : null };
  }
  if (type === 'contacts' && Array.isArray(item.contacts)) {
    const names = item.contacts.flatMap((card) => (isObject(card) && isObject(card.name) && typeof card.name.formatted_name === 'string' ? [card.name.formatted_name] : []));
    return { ...base, type: 'contacts', text: names.join(', ') || null, content: { contacts: item.contacts, ...reply } };
  }
  if (type === 'reaction' && isObject(body) && typeof body.message_id === 'string') {
    // An empty emoji is how the network reports a removed reaction.
    return { ...base, type: 'reaction', text: text(body.emoji), content: { reaction: { networkMessageId: body.message_id, emoji: text(body.emoji) ?? '' } } };
  }
  if (type === 'button' && isObject(body)) {
    return { ...base, type: 'text', text: text(body.text), content: { button: body, ...reply } };
  }
  if (type === 'interactive' && isObject(body)) {
    const chosen = [body.button_reply, body.list_reply].find(isObject);
    return { ...base, type: 'text', text: chosen ? text(chosen.title) : null, content: { interactive: body, ...reply } };
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
 * A webhook body (notes §2) by number: every entry, every change and every message and status in it
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
