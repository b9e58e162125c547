// Validation of a `POST …/messages` body, rule by rule as the notes (§1) and the clients they cite
// (WAJS messages/*.ts, PYWA api.py) describe it. Returns what the endpoint needs, or the detail of a code-100 error.

export const TEXT_MAX = 4096;
export const CAPTION_MAX = 1024;

const MESSAGE_TYPES = ['text', 'image', 'video', 'audio', 'document', 'sticker', 'template', 'location', 'contacts', 'reaction', 'interactive'] as const;
const MEDIA_TYPES = new Set(['image', 'video', 'audio', 'document', 'sticker']);
/** Media that takes no caption (WAJS `messages/media.ts`: audio and sticker have none). */
const NO_CAPTION = new Set(['audio', 'sticker']);

export type ValidSend =
  | { kind: 'message'; to: string; waId: string; type: string; template: boolean; bizOpaque?: string }
  /** Marking an inbound message read (optionally with a typing indicator): answered `{success:true}`. */
  | { kind: 'read'; messageId: string };

export type Validation = { ok: true; send: ValidSend } | { ok: false; details: string };

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0;

class Invalid extends Error {}
const fail = (details: string): never => {
  throw new Invalid(details);
};
const required = (name: string) => fail(`The parameter ${name} is required.`);

function requireObject(parent: Obj, key: string, name = key): Obj {
  const value = parent[key];
  if (value === undefined || value === null) return required(name);
  if (!isObject(value)) return fail(`Param ${name} must be a JSON object.`);
  return value;
}

function optionalString(parent: Obj, key: string, name: string): string | undefined {
  const value = parent[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return fail(`Param ${name} must be a string.`);
  return value;
}

/** `+1 (650) 555-1234` → `16505551234`; anything else than digits and those separators is refused. */
export function toWaId(to: string): string | undefined {
  const digits = to.replace(/[\s+\-().]/g, '');
  return /^\d{6,15}$/.test(digits) ? digits : undefined;
}

function validateMedia(type: string, media: Obj): void {
  const hasLink = media.link !== undefined;
  const hasId = media.id !== undefined;
  if (hasLink === hasId) fail(`Param ${type} must contain exactly one of link or id.`);
  if (hasLink) {
    if (typeof media.link !== 'string' || !/^https?:\/\/\S+$/i.test(media.link)) fail(`Param ${type}['link'] must be a valid http(s) URL.`);
  } else if (!nonEmptyString(media.id) || !/^\d+$/.test(media.id)) {
    fail(`Param ${type}['id'] must be a valid media id.`);
  }
  if (NO_CAPTION.has(type) && media.caption !== undefined) fail(`Unexpected key "caption" on param "${type}".`);
  const caption = optionalString(media, 'caption', `${type}['caption']`);
  if (caption !== undefined && caption.length > CAPTION_MAX) fail(`Param ${type}['caption'] must be at most ${CAPTION_MAX} characters long.`);
  if (type === 'document') {
    const filename = optionalString(media, 'filename', "document['filename']");
    if (filename !== undefined && filename.trim() === '') fail("Param document['filename'] must be a non-empty string.");
  } else if (media.filename !== undefined) {
    fail(`Unexpected key "filename" on param "${type}".`);
  }
  if (type === 'audio' && media.voice !== undefined && typeof media.voice !== 'boolean') fail("Param audio['voice'] must be a boolean.");
}

function validateTemplate(template: Obj): void {
  if (!nonEmptyString(template.name)) required("template['name']");
  const language = requireObject(template, 'language', "template['language']");
  if (!nonEmptyString(language.code)) required("template['language']['code']");
  if (language.policy !== undefined && language.policy !== 'deterministic') {
    fail(`Param template['language']['policy'] must be one of {DETERMINISTIC} - got "${String(language.policy)}".`);
  }
  if (template.components === undefined) return;
  if (!Array.isArray(template.components)) fail("Param template['components'] must be an array.");
  (template.components as unknown[]).forEach((component, i) => {
    const name = `template['components'][${i}]`;
    if (!isObject(component)) return fail(`Param ${name} must be a JSON object.`);
    if (!nonEmptyString(component.type)) return required(`${name}['type']`);
    if (component.parameters !== undefined && !Array.isArray(component.parameters)) fail(`Param ${name}['parameters'] must be an array.`);
  });
}

function validateMessage(body: Obj, type: string): void {
  if (type === 'template') return validateTemplate(requireObject(body, 'template'));
  if (MEDIA_TYPES.has(type)) return validateMedia(type, requireObject(body, type));
  switch (type) {
    case 'text': {
      const text = requireObject(body, 'text');
      if (text.body === undefined) return required("text['body']");
      if (typeof text.body !== 'string' || text.body.length === 0) return fail("Param text['body'] must be a non-empty string.");
      // Counted in UTF-16 units as WAJS `messages/text.ts` does: the stricter of the two readings of "4096 characters".
      if (text.body.length > TEXT_MAX) return fail(`Param text['body'] must be at most ${TEXT_MAX} characters long.`);
      if (text.preview_url !== undefined && typeof text.preview_url !== 'boolean') return fail("Param text['preview_url'] must be a boolean.");
      return;
    }
    case 'reaction': {
      const reaction = requireObject(body, 'reaction');
      if (!nonEmptyString(reaction.message_id)) return required("reaction['message_id']");
      if (typeof reaction.emoji !== 'string') return required("reaction['emoji']");
      return;
    }
    case 'location': {
      const location = requireObject(body, 'location');
      for (const key of ['latitude', 'longitude']) {
        const value = location[key];
        if (value === undefined) return required(`location['${key}']`);
        if (typeof value !== 'number' && !(typeof value === 'string' && Number.isFinite(Number(value)))) return fail(`Param location['${key}'] must be a number.`);
      }
      return;
    }
    case 'contacts': {
      const contacts = body.contacts;
      if (!Array.isArray(contacts) || contacts.length === 0) return required('contacts');
      if (!contacts.every((c) => isObject(c) && isObject(c.name) && nonEmptyString(c.name.formatted_name))) return required("contacts[]['name']['formatted_name']");
      contacts.forEach((contact: Obj, i) => {
        if (contact.phones === undefined) return;
        if (!Array.isArray(contact.phones)) return fail(`Param contacts[${i}]['phones'] must be an array.`);
        (contact.phones as unknown[]).forEach((entry, j) => {
          if (!isObject(entry) || (entry.phone !== undefined && typeof entry.phone !== 'string') || (entry.wa_id !== undefined && typeof entry.wa_id !== 'string')) {
            fail(`Param contacts[${i}]['phones'][${j}] must be an object with string phone and wa_id.`);
          }
        });
      });
      return;
    }
    case 'interactive': {
      const interactive = requireObject(body, 'interactive');
      if (!nonEmptyString(interactive.type)) return required("interactive['type']");
      if (!isObject(interactive.action)) return required("interactive['action']");
      return;
    }
  }
}

export function validateSend(body: unknown): Validation {
  try {
    if (!isObject(body)) return fail('The request body must be a JSON object.');
    if (body.messaging_product === undefined) required('messaging_product');
    if (body.messaging_product !== 'whatsapp') fail(`Param messaging_product must be one of {WHATSAPP} - got "${String(body.messaging_product)}".`);

    // Marking a received message read (optionally showing a typing indicator) goes to the same endpoint.
    if (body.status !== undefined) {
      if (body.status !== 'read') fail(`Param status must be one of {READ} - got "${String(body.status)}".`);
      if (!nonEmptyString(body.message_id)) required('message_id');
      if (body.typing_indicator !== undefined) {
        // The one documented indicator: `{"type": "text"}` (typing…), shown until the reply or 25 s.
        if (!isObject(body.typing_indicator)) fail('Param typing_indicator must be a JSON object.');
        const kind = (body.typing_indicator as Obj).type;
        if (kind === undefined) required("typing_indicator['type']");
        if (kind !== 'text') fail(`Param typing_indicator['type'] must be one of {TEXT} - got "${String(kind)}".`);
      }
      return { ok: true, send: { kind: 'read', messageId: body.message_id as string } };
    }

    if (body.recipient_type !== undefined && body.recipient_type !== 'individual') {
      fail(`Param recipient_type must be one of {INDIVIDUAL} - got "${String(body.recipient_type)}".`);
    }
    if (body.to === undefined || body.to === null || body.to === '') required('to');
    if (typeof body.to !== 'string' && typeof body.to !== 'number') fail('Param to must be a string.');
    const to = String(body.to);
    const waId = toWaId(to) ?? fail(`Param to is not a valid phone number - got "${to}".`);

    // "type" is optional and defaults to text.
    const type = body.type === undefined ? 'text' : body.type;
    if (typeof type !== 'string' || !(MESSAGE_TYPES as readonly string[]).includes(type)) {
      fail(`Param type must be one of {${MESSAGE_TYPES.map((t) => t.toUpperCase()).join(', ')}} - got "${String(type)}".`);
    }
    validateMessage(body, type as string);

    if (body.context !== undefined) {
      const context = requireObject(body, 'context');
      if (!nonEmptyString(context.message_id)) required("context['message_id']");
    }
    const bizOpaque = optionalString(body, 'biz_opaque_callback_data', 'biz_opaque_callback_data');
    return {
      ok: true,
      send: { kind: 'message', to, waId, type: type as string, template: type === 'template', ...(bizOpaque !== undefined ? { bizOpaque } : {}) },
    };
  } catch (error) {
    if (error instanceof Invalid) return { ok: false, details: error.message };
    throw error;
  }
}
