import { createDecipheriv, createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Agent, IncomingMessage } from 'node:http';
import { get } from 'node:https';
import { isIP } from 'node:net';
import { getMediaKeys, type MediaType } from 'baileys';
import { Unavailable } from '../../domain/errors.js';
import { type MediaContent, MediaExpired, MediaInvalid, type MediaSource } from '../../domain/media/media-source.js';
import { MAX_MEDIA_BYTES } from '../../domain/media/limits.js';
import { isForbiddenAddress } from '../../domain/webhooks/address-policy.js';
import { BlockedAddress, guardedLookup } from '../../infra/outbound-http.js';
import type { MediaHosts } from './media-hosts.js';

/** Where the network keeps a received file, and the key to it: what the engine stores as a descriptor's source. */
export interface BaileysMediaSource {
  mediaType: MediaType;
  /** The sender's word, like everything below but `hosts`: only ever used as a path on a host the network named. */
  directPath: string | null;
  url: string | null;
  /** base64 */
  mediaKey: string;
  fileEncSha256: string | null;
  fileSha256: string | null;
  /** The media hosts the network itself announced (its media connection info) when the message arrived. */
  hosts?: string[];
}

const MAC_LENGTH = 10;
const AES_BLOCK = 16;
/** The largest encrypted file a 16 MiB one becomes: padding to the block, then the MAC. */
const MAX_ENCRYPTED_BYTES = MAX_MEDIA_BYTES + AES_BLOCK + MAC_LENGTH;
const DOWNLOAD_TIMEOUT_MS = 30_000;

/**
 * The path of the file on a media host: the message's direct path, or the path of its URL when that
 * URL is on one of the network's media hosts. Never a host of the sender's choosing (docs/architecture.md,
 * "Received media").
 */
function filePath(source: BaileysMediaSource, hosts: readonly string[]): string {
  if (source.directPath) {
    // One leading slash: "//host/…" or "@host/…" would name another host once put after ours.
    if (!/^\/(?![/\\])/.test(source.directPath)) throw new MediaInvalid('its direct path is not a path');
    return source.directPath;
  }
  let url: URL;
  try {
    url = new URL(source.url ?? '');
  } catch {
    throw new MediaInvalid('it names no file');
  }
  if (url.protocol !== 'https:' || !hosts.includes(url.host)) throw new MediaInvalid("its URL is not on the network's media hosts");
  return `${url.pathname}${url.search}`;
}

/** `https://<host><path>`, refused unless the parsed URL still names that host (no user part, no authority in the path). */
function fileUrl(host: string, path: string): URL {
  let url: URL;
  try {
    url = new URL(`https://${host}${path}`);
  } catch {
    throw new MediaInvalid('its direct path is not a path');
  }
  if (url.host !== host || url.username || url.password) throw new MediaInvalid('its direct path is not a path');
  return url;
}

function request(url: URL, agent: Agent, allowInsecure: boolean): Promise<IncomingMessage> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  // An IP literal never goes through DNS, so the lookup guard would not see it.
  if (!allowInsecure && isIP(hostname) && isForbiddenAddress(hostname)) return Promise.reject(new BlockedAddress(hostname));
  return new Promise((resolve, reject) => {
    const req = get(
      url,
      { agent, headers: { Origin: 'https://web.whatsapp.com' }, timeout: DOWNLOAD_TIMEOUT_MS, ...(allowInsecure ? {} : { lookup: guardedLookup }) },
      resolve,
    );
    req.on('timeout', () => req.destroy(new Error('the media host did not answer in time')));
    req.on('error', reject);
  });
}

/** The encrypted file, read whole (up to the cap) before anything of it is trusted. */
async function readEncrypted(body: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_ENCRYPTED_BYTES) {
      body.destroy();
      throw new MediaInvalid(`it is larger than ${MAX_MEDIA_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/**
 * The file decrypted, once the MAC over IV and ciphertext and both hashes the message carried match
 * (AES-256-CBC with keys derived from the message's media key): no byte leaves before all of it verified.
 */
export async function verifiedPlaintext(encrypted: Buffer, source: BaileysMediaSource): Promise<Buffer> {
  if (encrypted.length < AES_BLOCK + MAC_LENGTH) throw new MediaInvalid('the file is too short');
  const { iv, cipherKey, macKey } = await getMediaKeys(Buffer.from(source.mediaKey, 'base64'), source.mediaType);
  if (source.fileEncSha256 && !createHash('sha256').update(encrypted).digest().equals(Buffer.from(source.fileEncSha256, 'base64'))) {
    throw new MediaInvalid('the file does not match its hash');
  }
  const ciphertext = encrypted.subarray(0, encrypted.length - MAC_LENGTH);
  const mac = createHmac('sha256', macKey!).update(iv).update(ciphertext).digest().subarray(0, MAC_LENGTH);
  if (!timingSafeEqual(mac, encrypted.subarray(encrypted.length - MAC_LENGTH))) throw new MediaInvalid('the file does not match its MAC');
  let plaintext: Buffer;
  try {
    const aes = createDecipheriv('aes-256-cbc', cipherKey, iv);
    plaintext = Buffer.concat([aes.update(ciphertext), aes.final()]);
  } catch {
    throw new MediaInvalid('the file does not decrypt');
  }
  if (source.fileSha256 && !createHash('sha256').update(plaintext).digest().equals(Buffer.from(source.fileSha256, 'base64'))) {
    throw new MediaInvalid('the decrypted file does not match its hash');
  }
  return plaintext;
}

async function* once(bytes: Uint8Array) {
  yield bytes;
}

/**
 * CHAT-BAILEYS's media source: any node downloads a received file by its path, from the media hosts
 * the network announced (never the host a message names), through the same address guard as every
 * outbound call, and serves it only once it verified. An instance with a proxy downloads through it.
 */
export function baileysMediaSource(deps: { agent: Agent; hosts: MediaHosts; allowInsecure: boolean; agentOf: (instanceId: string) => Promise<Agent | null> }): MediaSource {
  return {
    async open(descriptor, instanceId): Promise<MediaContent> {
      const source = descriptor.source as unknown as BaileysMediaSource;
      const hosts = deps.hosts.forFile(source.hosts);
      if (!hosts.length) throw new Unavailable("The network's media hosts are not known on this node yet (no connection to the network has announced them).");
      const path = filePath(source, hosts);
      const agent = (instanceId ? await deps.agentOf(instanceId) : null) ?? deps.agent;
      let response: IncomingMessage | undefined;
      let failure: unknown;
      // The next announced host when one cannot be reached, as the network's own apps do.
      for (const host of hosts) {
        try {
          response = await request(fileUrl(host, path), agent, deps.allowInsecure);
          break;
        } catch (error) {
          if (error instanceof MediaInvalid) throw error;
          failure = error;
        }
      }
      if (!response) throw new Unavailable(`The network's media host could not be reached (${(failure as Error).message}).`);
      const status = response.statusCode ?? 0;
      if (status !== 200) {
        response.resume();
        // The network answers 404 or 410 for files past their retention; the phone would ask the sender to upload it again.
        if (status === 404 || status === 410) throw new MediaExpired();
        throw new Unavailable(`The network's media host answered HTTP ${status}.`);
      }
      let encrypted: Buffer;
      try {
        encrypted = await readEncrypted(response);
      } catch (error) {
        if (error instanceof MediaInvalid) throw error;
        throw new Unavailable(`The network's media host broke off the download (${(error as Error).message}).`);
      }
      const plaintext = await verifiedPlaintext(encrypted, source);
      return { bytes: once(plaintext), size: plaintext.length };
    },
  };
}
