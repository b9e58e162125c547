import { Invalid } from '../errors.js';
import { bytesMismatch, isOggOpus, type MediaKind, mediaTypeAllows } from './content-types.js';
import { MAX_MEDIA_BYTES } from './limits.js';
import type { MediaProbe } from './media-probe.js';

/** A file a send names by URL, accepted only when it serves a type `kind` allows and its bytes show that type (docs/messaging.md, "Media checks"). */
export async function acceptMediaUrl(probe: MediaProbe, url: string, kind: MediaKind, field: string) {
  const { contentType, bytes, sniffed } = await probe.probe(url, MAX_MEDIA_BYTES, field);
  if (!mediaTypeAllows(kind, contentType)) throw Invalid.at(field, `serves ${contentType || 'no content type'}, which is not a supported ${kind}`);
  const mismatch = bytesMismatch(kind, contentType, sniffed);
  if (mismatch) throw Invalid.at(field, `serves ${contentType}, but ${mismatch}`);
  return { contentType, bytes, sniffed };
}

/** A file a send carries as base64 (`media.data`), accepted by the same rules as one named by URL. */
export async function acceptMediaUpload(probe: MediaProbe, fileBytes: Buffer, kind: MediaKind, mimetype: string) {
  if (fileBytes.length > MAX_MEDIA_BYTES) throw Invalid.at('media.data', `must be at most ${MAX_MEDIA_BYTES} bytes once decoded`);
  if (!mediaTypeAllows(kind, mimetype)) throw Invalid.at('media.mimetype', `${mimetype} is not a supported ${kind}`);
  const sniffed = await probe.sniff(fileBytes);
  const mismatch = bytesMismatch(kind, mimetype, sniffed);
  if (mismatch) throw Invalid.at('media.data', `is declared ${mimetype}, but ${mismatch}`);
  return { sniffed };
}

/** A voice note is Ogg/Opus on the network: other audio would arrive as a voice note no app can play. */
export function acceptVoiceNote(sniffed: string | null, mediaType: string) {
  if (!isOggOpus(sniffed)) throw Invalid.at('voice', `needs an Ogg/Opus file (audio/ogg; codecs=opus); this one is ${sniffed ?? mediaType}`);
}
