// Messages a user writes to the business, turned into the `messages[]` items and `contacts[]` of the
// webhook (the API's webhook reference and the WAJS `types.ts` shapes it points to). Media bytes go to the media store, so the
// gateway fetches them the documented way (`GET /<media-id>`, then the URL).
import { newWamid, unixSeconds } from './ids.js';
import type { MediaStore } from './media.js';
import type { BusinessNumber } from './numbers.js';
import type { InboundMessage } from './types.js';

type Obj = Record<string, unknown>;

const DEFAULT_MIME: Record<string, string> = {
  image: 'image/jpeg',
  video: 'video/mp4',
  sticker: 'image/webp',
  document: 'application/pdf',
};

export interface InboundItem {
  wamid: string;
  message: Obj;
  contact: Obj;
}

export function inboundItem(
  number: BusinessNumber,
  from: string,
  input: InboundMessage,
  media: MediaStore,
  options: { mediaUrlInWebhook: boolean; now?: number },
): InboundItem {
  if (!/^\d{6,15}$/.test(from)) throw new Error('from must be the user\'s number as 6 to 15 digits');
  const message: Exclude<InboundMessage, string> = typeof input === 'string' ? { type: 'text', text: input } : input;
  const wamid = newWamid(from);
  const item: Obj = {};
  if (message.replyTo !== undefined) {
    const quoted = typeof message.replyTo === 'string' ? { id: message.replyTo } : message.replyTo;
    // A reply names the quoted message and who sent it: the business number, for a reply to its message.
    item.context = { from: quoted.from ?? number.displayPhoneNumber, id: quoted.id };
  }
  Object.assign(item, { from, id: wamid, timestamp: unixSeconds(options.now ?? Date.now()), type: message.type });

  const stored = (bytes: Uint8Array, mimeType: string) => {
    const saved = media.put(number.phoneNumberId, bytes, mimeType);
    return {
      mime_type: saved.mimeType,
      sha256: saved.sha256Base64,
      id: saved.id,
      ...(options.mediaUrlInWebhook ? { url: media.downloadUrl(saved) } : {}),
    };
  };

  switch (message.type) {
    case 'text':
      if (typeof message.text !== 'string' || message.text === '') throw new Error('text must be a non-empty string');
      item.text = { body: message.text };
      break;
    case 'image':
    case 'video':
      item[message.type] = { ...(message.caption !== undefined ? { caption: message.caption } : {}), ...stored(message.data, message.mimeType ?? (DEFAULT_MIME[message.type] as string)) };
      break;
    case 'sticker':
      item.sticker = { ...stored(message.data, message.mimeType ?? 'image/webp'), animated: message.animated ?? false };
      break;
    case 'audio': {
      const voice = message.voice ?? false;
      item.audio = { ...stored(message.data, message.mimeType ?? (voice ? 'audio/ogg; codecs=opus' : 'audio/mpeg')), voice };
      break;
    }
    case 'document':
      if (!message.filename) throw new Error('a document needs a filename');
      item.document = {
        ...(message.caption !== undefined ? { caption: message.caption } : {}),
        filename: message.filename,
        ...stored(message.data, message.mimeType ?? (DEFAULT_MIME.document as string)),
      };
      break;
    case 'location':
      if (!Number.isFinite(message.latitude) || !Number.isFinite(message.longitude)) throw new Error('latitude and longitude must be numbers');
      item.location = {
        latitude: message.latitude,
        longitude: message.longitude,
        ...(message.name !== undefined ? { name: message.name } : {}),
        ...(message.address !== undefined ? { address: message.address } : {}),
        ...(message.url !== undefined ? { url: message.url } : {}),
      };
      break;
    case 'contacts':
      if (!Array.isArray(message.contacts) || message.contacts.length === 0) throw new Error('contacts must be a non-empty list');
      item.contacts = message.contacts;
      break;
    case 'reaction':
      // An empty emoji is how the network reports a removed reaction.
      item.reaction = { message_id: message.messageId, emoji: message.emoji };
      break;
    case 'interactive':
      if (message.buttonReply) item.interactive = { type: 'button_reply', button_reply: message.buttonReply };
      else if (message.listReply) item.interactive = { type: 'list_reply', list_reply: message.listReply };
      else throw new Error('an interactive reply needs buttonReply or listReply');
      break;
    case 'button':
      item.button = { payload: message.payload, text: message.text };
      break;
    case 'unsupported':
      item.errors = [
        {
          code: 131051,
          title: 'Message type unknown',
          message: 'Message type unknown',
          error_data: { details: 'Message type is currently not supported.' },
        },
      ];
      break;
    default:
      throw new Error(`unknown inbound message type "${String((message as { type: unknown }).type)}"`);
  }

  return { wamid, message: item, contact: { profile: { name: message.profileName ?? `Customer ${from}` }, wa_id: from } };
}
