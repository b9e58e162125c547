import { createDecipheriv, createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type Agent, get } from 'node:https';
import { getMediaKeys, type MediaType } from 'baileys';
import { Unavailable } from '../../../domain/errors.js';
import { type MediaContent, MediaExpired, type MediaSource } from '../../../domain/messages/media.js';

/** Where the network keeps a received file, and the key to it: what the engine stores as a descriptor's source. */
export interface BaileysMediaSource {
  mediaType: MediaType;
  directPath: string | null;
  url: string | null;
  /** base64 */
  mediaKey: string;
  fileEncSha256: string | null;
  fileSha256: string | null;
}

/** The network's default media host, used for a direct path when the message carried no URL. */
const DEFAULT_HOST = 'mmg.whatsapp.net';
const MAC_LENGTH = 10;
const DOWNLOAD_TIMEOUT_MS = 30_000;

/** A file's download URL: the host of the message's URL (or the network's default) and its direct path. */
function downloadUrl(source: BaileysMediaSource): string {
  if (source.directPath) {
    let host = DEFAULT_HOST;
    try {
      if (source.url) host = new URL(source.url).host;
    } catch {
      // A URL that does not parse: the default host serves direct paths too.
    }
    return `https://${host}${source.directPath}`;
  }
  return source.url!;
}

function request(url: string, agent: Agent): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = get(url, { agent, headers: { Origin: 'https://web.whatsapp.com' }, timeout: DOWNLOAD_TIMEOUT_MS }, resolve);
    req.on('timeout', () => req.destroy(new Error('the media host did not answer in time')));
    req.on('error', reject);
  });
}

/**
 * The media host's encrypted file, decrypted as it streams (AES-256-CBC with keys derived from the
 * message's media key), its 10-byte MAC and the hashes the message carried checked at the end: a
 * file that does not match ends the stream with an error instead of completing.
 */
async function* decrypted(body: IncomingMessage, source: BaileysMediaSource): AsyncGenerator<Uint8Array> {
  const { iv, cipherKey, macKey } = await getMediaKeys(Buffer.from(source.mediaKey, 'base64'), source.mediaType);
  const aes = createDecipheriv('aes-256-cbc', cipherKey, iv);
  const mac = createHmac('sha256', macKey!).update(iv);
  const encHash = createHash('sha256');
  const plainHash = createHash('sha256');
  // The last 10 bytes are the MAC, not ciphertext: always hold them back until the next chunk.
  let tail = Buffer.alloc(0);
  for await (const chunk of body as AsyncIterable<Buffer>) {
    encHash.update(chunk);
    const joined = Buffer.concat([tail, chunk]);
    const cipherEnd = Math.max(0, joined.length - MAC_LENGTH);
    const ciphertext = joined.subarray(0, cipherEnd);
    tail = joined.subarray(cipherEnd);
    mac.update(ciphertext);
    const plain = aes.update(ciphertext);
    plainHash.update(plain);
    if (plain.length) yield plain;
  }
  if (tail.length !== MAC_LENGTH || !timingSafeEqual(mac.digest().subarray(0, MAC_LENGTH), tail)) throw new Error('the media file does not match its MAC');
  const last = aes.final();
  plainHash.update(last);
  if (source.fileEncSha256 && !encHash.digest().equals(Buffer.from(source.fileEncSha256, 'base64'))) throw new Error('the media file does not match its hash');
  if (source.fileSha256 && !plainHash.digest().equals(Buffer.from(source.fileSha256, 'base64'))) throw new Error('the decrypted media does not match its hash');
  if (last.length) yield last;
}

/** CHAT-BAILEYS's media source: any node downloads a received file from the network's media host with the stored key. */
export function baileysMediaSource(agent: Agent): MediaSource {
  return {
    async open(descriptor): Promise<MediaContent> {
      const source = descriptor.source as unknown as BaileysMediaSource;
      let response: IncomingMessage;
      try {
        response = await request(downloadUrl(source), agent);
      } catch (error) {
        throw new Unavailable(`The network's media host could not be reached (${(error as Error).message}).`);
      }
      const status = response.statusCode ?? 0;
      if (status !== 200) {
        response.resume();
        // The network answers 404 or 410 for files past their retention; the phone would ask the sender to upload it again.
        if (status === 404 || status === 410) throw new MediaExpired();
        throw new Unavailable(`The network's media host answered HTTP ${status}.`);
      }
      return { bytes: decrypted(response, source), size: descriptor.size };
    },
  };
}
