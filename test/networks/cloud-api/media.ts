// Media (the API's media reference): `GET /<version>/<media-id>` answers a short-lived download URL; `GET <url>` with the same
// bearer token answers the bytes. Inbound media from users and uploads from the business both live here.
import { createHash, randomBytes } from 'node:crypto';
import { invalidParameter, invalidToken, unknownObject, type ApiError } from './errors.js';
import { numericId, unixSeconds } from './ids.js';
import type { Numbers } from './numbers.js';

export const DOWNLOAD_PATH = '/whatsapp_business/attachments/';

export interface StoredMedia {
  id: string;
  ownerPhoneNumberId: string;
  mimeType: string;
  bytes: Buffer;
  /** Hex in `GET /<media-id>` (Meta media reference example)… */
  sha256Hex: string;
  /** …and base64 in inbound message webhooks (the API's webhook reference, image item). */
  sha256Base64: string;
  deleted: boolean;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** Objects are answered as JSON. */
  body: Buffer | string | object;
}

const apiAnswer = (error: ApiError): Answer => ({ status: error.status, body: error.body });

export class MediaStore {
  private readonly media = new Map<string, StoredMedia>();
  /** Download links by their `hash`, each with its own expiry (so a test can shorten the lifetime). */
  private readonly links = new Map<string, { mediaId: string; expiresAt: number }>();

  constructor(
    private readonly numbers: Numbers,
    private readonly baseUrl: () => string,
    private readonly urlTtlMs: number,
    private readonly fileSizeAsNumber: boolean,
  ) {}

  put(ownerPhoneNumberId: string, bytes: Uint8Array, mimeType: string): StoredMedia {
    const buffer = Buffer.from(bytes);
    const digest = createHash('sha256').update(buffer).digest();
    const stored: StoredMedia = {
      id: numericId(16),
      ownerPhoneNumberId,
      mimeType,
      bytes: buffer,
      sha256Hex: digest.toString('hex'),
      sha256Base64: digest.toString('base64'),
      deleted: false,
    };
    this.media.set(stored.id, stored);
    return stored;
  }

  get(id: string): StoredMedia | undefined {
    const stored = this.media.get(id);
    return stored && !stored.deleted ? stored : undefined;
  }

  /** A fresh download URL, valid for the configured lifetime (5 minutes by default, the API's media reference). */
  downloadUrl(stored: StoredMedia, now = Date.now()): string {
    const hash = randomBytes(18).toString('base64url');
    const expiresAt = now + this.urlTtlMs;
    this.links.set(hash, { mediaId: stored.id, expiresAt });
    return `${this.baseUrl()}${DOWNLOAD_PATH}?mid=${stored.id}&ext=${unixSeconds(expiresAt)}&hash=${hash}`;
  }

  /** `GET /<version>/<media-id>[?phone_number_id=…]`, the token already authenticated. */
  info(token: string, id: string, phoneNumberId: string | null): Answer {
    const stored = this.get(id);
    if (!stored || !this.numbers.canAccess(token, stored.ownerPhoneNumberId)) return apiAnswer(unknownObject('GET', id));
    if (phoneNumberId !== null && phoneNumberId !== stored.ownerPhoneNumberId) return apiAnswer(unknownObject('GET', id));
    return {
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        url: this.downloadUrl(stored),
        mime_type: stored.mimeType,
        sha256: stored.sha256Hex,
        file_size: this.fileSizeAsNumber ? stored.bytes.length : String(stored.bytes.length),
        id: stored.id,
      },
    };
  }

  /** `DELETE /<version>/<media-id>` → `{"success":true}`. */
  remove(token: string, id: string): Answer {
    const stored = this.get(id);
    if (!stored || !this.numbers.canAccess(token, stored.ownerPhoneNumberId)) return apiAnswer(unknownObject('DELETE', id));
    stored.deleted = true;
    return { status: 200, body: { success: true } };
  }

  /**
   * `GET <url>`: the bytes with their content type, only with a bearer token that may see the media.
   * No or a wrong token: 401; an unknown, expired or deleted link: 404.
   */
  download(query: URLSearchParams, token: string | undefined, now = Date.now()): Answer {
    const authError = this.numbers.authenticate(token);
    if (authError) return apiAnswer(authError);
    const link = this.links.get(query.get('hash') ?? '');
    const notFound: Answer = { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not Found' };
    if (!link || link.mediaId !== query.get('mid')) return notFound;
    const stored = this.get(link.mediaId);
    if (!stored) return notFound;
    if (!this.numbers.canAccess(token as string, stored.ownerPhoneNumberId)) return apiAnswer(invalidToken());
    if (now >= link.expiresAt) {
      this.links.delete(query.get('hash') ?? '');
      return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'URL signature expired' };
    }
    return {
      status: 200,
      headers: { 'content-type': stored.mimeType, 'content-length': String(stored.bytes.length), 'cache-control': 'no-store' },
      body: stored.bytes,
    };
  }

  /** `POST /<version>/<phone-number-id>/media`, multipart with `file`, `type` and `messaging_product=whatsapp`. */
  async upload(phoneNumberId: string, contentType: string | undefined, raw: Buffer, version: string): Promise<Answer> {
    if (!contentType?.toLowerCase().startsWith('multipart/form-data')) return apiAnswer(invalidParameter('The request must be multipart/form-data.', version));
    let form: FormData;
    try {
      form = await new Request('http://upload.invalid/', { method: 'POST', headers: { 'content-type': contentType }, body: new Uint8Array(raw) }).formData();
    } catch {
      return apiAnswer(invalidParameter('The multipart body could not be read.', version));
    }
    if (form.get('messaging_product') === null) return apiAnswer(invalidParameter('The parameter messaging_product is required.', version));
    if (form.get('messaging_product') !== 'whatsapp') return apiAnswer(invalidParameter('Param messaging_product must be one of {WHATSAPP}.', version));
    const file = form.get('file');
    if (file === null || typeof file === 'string') return apiAnswer(invalidParameter('The parameter file is required.', version));
    const type = form.get('type');
    const mimeType = (typeof type === 'string' && type) || file.type;
    if (!mimeType) return apiAnswer(invalidParameter('The parameter type is required.', version));
    const stored = this.put(phoneNumberId, new Uint8Array(await file.arrayBuffer()), mimeType);
    return { status: 200, body: { id: stored.id } };
  }
}
