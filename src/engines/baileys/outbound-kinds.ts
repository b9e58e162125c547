import { basename } from 'node:path';
import type { AnyMessageContent, MiscMessageGenerationOptions } from 'baileys';
import type { EngineMessage } from '../../domain/network/engine-messages.js';
import { mediaTypeAllows } from '../../domain/media/content-types.js';
import { chatJid, keyOf, phoneJid, quotedOf } from './message-refs.js';
import { type mediaFetcher, MediaUnavailable } from './outbound.js';

/** What the network's apps play as a voice note: Ogg with Opus in it. */
const VOICE_MIMETYPE = 'audio/ogg; codecs=opus';

/**
 * The file of a media message: the bytes uploaded with it (checked against its type once more), or
 * those the gateway fetches itself from its URL. The library is only ever handed bytes.
 */
async function mediaOf(message: EngineMessage, fetchMedia: ReturnType<typeof mediaFetcher>): Promise<{ bytes: Buffer; contentType: string }> {
  if (message.mediaUrl === null) {
    const contentType = message.mediaType ?? '';
    if (!message.mediaData?.length) throw new MediaUnavailable('the uploaded file is no longer kept', true);
    if (!mediaTypeAllows(message.type as 'image', contentType)) throw new MediaUnavailable(`${contentType || 'no content type'} is not a ${message.type}`, true);
    return { bytes: message.mediaData, contentType };
  }
  return fetchMedia(message);
}

/** The name a document is shown with: the upload's own, else the last segment of its URL. */
function documentName(message: EngineMessage): string {
  if (message.fileName) return message.fileName;
  const fromUrl = message.mediaUrl ? decodeURIComponent(basename(new URL(message.mediaUrl).pathname)) : '';
  return fromUrl || 'document';
}

/** A message as the library sends it (docs/messaging.md: each kind as the network's apps send it). */
export async function contentOf(message: EngineMessage, fetchMedia: ReturnType<typeof mediaFetcher>): Promise<AnyMessageContent> {
  switch (message.type) {
    case 'text':
      // `linkPreview: null`: the library would otherwise fetch the first URL of the text for a preview
      // (whenever a preview package is installed), a request to a tenant-chosen address behind their back.
      return { text: message.text ?? '', linkPreview: null, ...(message.mentions?.length ? { mentions: message.mentions.map(phoneJid) } : {}) };
    case 'location': {
      const place = message.location!;
      return {
        location: {
          degreesLatitude: place.latitude,
          degreesLongitude: place.longitude,
          ...(place.name ? { name: place.name } : {}),
          ...(place.address ? { address: place.address } : {}),
        },
      };
    }
    case 'contact': {
      const cards = message.contacts ?? [];
      // One card is a contact message, more a list; the list's name as the network's apps title it.
      const displayName = cards.length === 1 ? cards[0]!.displayName : `${cards.length} contacts`;
      return { contacts: { displayName, contacts: cards.map((card) => ({ displayName: card.displayName, vcard: card.vcard })) } };
    }
    case 'reaction': {
      const { target, emoji } = message.reaction!;
      return { react: { text: emoji, key: keyOf(target) } };
    }
    case 'poll': {
      const poll = message.poll!;
      // The secret the gateway made and kept for this poll: its votes are encrypted with keys drawn from it.
      return {
        poll: { name: poll.name, values: poll.options, selectableCount: poll.selectableCount, ...(poll.secret ? { messageSecret: new Uint8Array(poll.secret) } : {}) },
      };
    }
    case 'image':
    case 'video':
    case 'audio':
    case 'document':
    case 'sticker':
      return mediaContent(message, await mediaOf(message, fetchMedia));
    default:
      // The dispatcher hands an engine only what its capabilities say it carries.
      throw new Error(`CHAT-BAILEYS does not send ${message.type} messages`);
  }
}

function mediaContent(message: EngineMessage, { bytes, contentType }: { bytes: Buffer; contentType: string }): AnyMessageContent {
  const caption = message.caption ?? undefined;
  switch (message.type) {
    case 'image':
      return { image: bytes, mimetype: contentType, caption };
    case 'video':
      return { video: bytes, mimetype: contentType, caption };
    case 'audio':
      // A voice note is played in the chat, with its waveform, not offered as a file.
      return message.voice ? { audio: bytes, mimetype: VOICE_MIMETYPE, ptt: true } : { audio: bytes, mimetype: contentType };
    case 'sticker':
      return { sticker: bytes, mimetype: contentType };
    default:
      return { document: bytes, mimetype: contentType, caption, fileName: documentName(message) };
  }
}

/** Where a message goes, and the message it replies to. */
export function addressOf(message: EngineMessage): { jid: string; options: MiscMessageGenerationOptions } {
  return { jid: chatJid(message.to), options: message.quoted ? { quoted: quotedOf(message.quoted) } : {} };
}
