import type { MediaType } from '../messages/message-values.js';

/** The kinds of file a message carries. */
export type MediaKind = MediaType | 'sticker';

/** A content type with optional parameters (`audio/ogg; codecs=opus`), as RFC 9110 writes them. */
export const CONTENT_TYPE = /^[a-z]+\/[a-z0-9.+-]+(\s*;\s*[a-z0-9!#$&^_.+-]+=("[^"\\\r\n]*"|[a-z0-9!#$&^_.+-]+))*$/i;

const MEDIA_CONTENT_TYPES: Record<MediaKind, RegExp> = {
  image: /^image\/(jpeg|png)$/,
  sticker: /^image\/webp$/,
  video: /^video\/mp4$/,
  audio: /^audio\/(mpeg|mp3|ogg)$/,
  document: /^application\/(pdf|msword|vnd\.openxmlformats-officedocument\..+|vnd\.ms-.+|vnd\.oasis\.opendocument\..+|rtf)$|^text\/(plain|csv)$/,
};

/** Other names of one type, as senders and sniffers write them. */
const ALIASES: Record<string, string> = { 'audio/mp3': 'audio/mpeg', 'audio/x-m4a': 'audio/mp4', 'image/jpg': 'image/jpeg' };

/** A content type without its parameters, lower-cased, under its usual name. */
export function essenceOf(contentType: string): string {
  const essence = contentType.split(';')[0]!.trim().toLowerCase();
  return ALIASES[essence] ?? essence;
}

/** Whether a served content type is one the media type allows (spec 4.3); checked at accept and again when an engine fetches the bytes. */
export function mediaTypeAllows(kind: MediaKind, contentType: string): boolean {
  return MEDIA_CONTENT_TYPES[kind].test(contentType.split(';')[0]!.trim().toLowerCase());
}

/**
 * Why a file's bytes do not match its declared type, or null when they do (docs/messaging.md, "Media
 * checks"). Documents are any bytes, and are served so that no browser runs them (servedAs).
 */
export function bytesMismatch(kind: MediaKind, declared: string, sniffed: string | null): string | null {
  if (kind === 'document') return null;
  if (!sniffed) return `its bytes are not ${essenceOf(declared)} (nor any ${kind} type known)`;
  if (essenceOf(sniffed) !== essenceOf(declared)) return `its bytes are ${essenceOf(sniffed)}, not ${essenceOf(declared)}`;
  return null;
}

/** What the network's apps play as a voice note: Ogg with Opus in it, as its bytes say. */
export function isOggOpus(sniffed: string | null): boolean {
  return sniffed !== null && essenceOf(sniffed) === 'audio/ogg' && /;\s*codecs="?opus"?\s*$/i.test(sniffed);
}

/** Types a download is served as, each with the file name extensions that go with it; any other is octet-stream. */
const SERVED_TYPES: Record<string, string[]> = {
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/webp': ['webp'],
  'image/gif': ['gif'],
  'video/mp4': ['mp4', 'm4v'],
  'video/3gpp': ['3gp'],
  'audio/ogg': ['ogg', 'oga', 'opus'],
  'audio/mpeg': ['mp3'],
  'audio/mp4': ['m4a', 'mp4'],
  'audio/aac': ['aac'],
  'audio/amr': ['amr'],
  'application/pdf': ['pdf'],
  'text/plain': ['txt'],
  'text/csv': ['csv'],
  'application/rtf': ['rtf'],
  'application/msword': ['doc'],
  'application/vnd.ms-excel': ['xls'],
  'application/vnd.ms-powerpoint': ['ppt'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['docx'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['xlsx'],
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': ['pptx'],
  'application/vnd.oasis.opendocument.text': ['odt'],
  'application/vnd.oasis.opendocument.spreadsheet': ['ods'],
  'application/vnd.oasis.opendocument.presentation': ['odp'],
};
export const OCTET_STREAM = 'application/octet-stream';

/**
 * The type and name a file is downloaded with: a type on the list above, else octet-stream, and a
 * name ending in one of that type's extensions, so no saved file opens as something else.
 */
export function servedAs(declared: string, name: string): { mimetype: string; fileName: string } {
  const essence = essenceOf(declared);
  const known = SERVED_TYPES[essence];
  const mimetype = !known ? OCTET_STREAM : CONTENT_TYPE.test(declared.trim()) && essence === declared.split(';')[0]!.trim().toLowerCase() ? declared.trim() : essence;
  const extensions = known ?? ['bin'];
  const extension = /\.([A-Za-z0-9]{1,10})$/.exec(name)?.[1]?.toLowerCase();
  return { mimetype, fileName: extension && extensions.includes(extension) ? name : `${name}.${extensions[0]}` };
}
