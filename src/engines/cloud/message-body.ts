import type { EngineMessage } from '../../domain/network/engine-messages.js';
import { contactOfVcard } from './vcard-contact.js';

/** A kind the API documents no body for (polls, and what the domain should have refused already). */
export class NoApiBody extends Error {
  constructor(readonly kind: string) {
    super(`the business API has no message of kind ${kind}`);
  }
}

const MEDIA = new Set(['image', 'video', 'audio', 'document', 'sticker']);

/** The name a document is shown with: the upload's own, else the URL's last segment. */
function documentName(message: EngineMessage): string {
  if (message.fileName) return message.fileName;
  if (!message.mediaUrl) return 'document';
  try {
    return decodeURIComponent(new URL(message.mediaUrl).pathname.split('/').pop() ?? '') || 'document';
  } catch {
    return 'document';
  }
}

/**
 * The media object of a media message (the API's reference): `link` for a URL, `id` for a file uploaded first.
 * Audio and stickers take no caption; only documents take a file name; `voice` only goes with audio.
 */
function mediaObject(message: EngineMessage, mediaId: string | undefined): Record<string, unknown> {
  const source = mediaId !== undefined ? { id: mediaId } : { link: message.mediaUrl };
  const caption = message.caption && message.type !== 'audio' && message.type !== 'sticker' ? { caption: message.caption } : {};
  if (message.type === 'document') return { ...source, ...caption, filename: documentName(message) };
  if (message.type === 'audio') return { ...source, ...(message.voice ? { voice: true } : {}) };
  return { ...source, ...caption };
}

/** The kind's own part of the body: `type` and the object of that name. */
function kindPart(message: EngineMessage, mediaId: string | undefined): Record<string, unknown> {
  switch (message.type) {
    case 'text':
      return { type: 'text', text: { preview_url: false, body: message.text ?? '' } };
    case 'template': {
      const template = message.template!;
      return {
        type: 'template',
        template: { name: template.name, language: { code: template.language }, ...(template.components ? { components: template.components } : {}) },
      };
    }
    case 'location': {
      const { latitude, longitude, name, address } = message.location!;
      return { type: 'location', location: { latitude, longitude, ...(name ? { name } : {}), ...(address ? { address } : {}) } };
    }
    case 'contact':
      return { type: 'contacts', contacts: (message.contacts ?? []).map(contactOfVcard) };
    case 'reaction':
      // An empty emoji takes the reaction back, as the network reports a removed one.
      return { type: 'reaction', reaction: { message_id: message.reaction!.target.networkMessageId, emoji: message.reaction!.emoji } };
    default:
      if (MEDIA.has(message.type)) return { type: message.type, [message.type]: mediaObject(message, mediaId) };
      throw new NoApiBody(message.type);
  }
}

/**
 * The documented body of `POST …/messages` for a message (the API's reference). `mediaId` is the API's id of
 * the file when it was uploaded first (`mediaData`); otherwise media goes by link. A reply carries
 * `context.message_id`, the network's id of the quoted message (a reaction names its own target).
 */
export function messageBody(message: EngineMessage, mediaId?: string): Record<string, unknown> {
  const quoted = message.type !== 'reaction' && message.quoted ? { context: { message_id: message.quoted.networkMessageId } } : {};
  return { messaging_product: 'whatsapp', recipient_type: 'individual', to: message.to, ...quoted, ...kindPart(message, mediaId) };
}
