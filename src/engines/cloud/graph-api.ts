import type { CloudCredentials } from './credentials-input.js';
import { type ApiFailure, failureOf } from './api-errors.js';

export interface GraphSettings {
  /** CLOUD_API_URL, e.g. https://graph.facebook.com */
  url: string;
  /** CLOUD_API_VERSION, e.g. v23.0 */
  version: string;
  timeoutMs: number;
}

export type GraphResult<T> = { ok: true; value: T } | { ok: false; failure: ApiFailure };

/** Answers are small JSON documents; anything larger is not the API. */
const MAX_ANSWER_BYTES = 256 * 1024;

/** Where the API's documented download URLs live (notes: media download), beside the API's own host. */
const DOCUMENTED_MEDIA_HOSTS = ['lookaside.fbsbx.com'];

export type GraphApi = ReturnType<typeof createGraphApi>;

/**
 * The business API over HTTP (undici, kept-alive connections): the number's details and the messages
 * endpoint. The token travels only in the Authorization header, never in a URL that could be logged.
 */
export function createGraphApi(settings: GraphSettings) {
  // undici loads on the first call, not at the gateway's start (docs/benchmarks.md, "Start"): most
  // deployments never create an instance of this engine.
  let loaded: Promise<{ undici: typeof import('undici'); agent: import('undici').Agent }> | undefined;
  const client = () =>
    (loaded ??= import('undici').then((undici) => ({
      undici,
      agent: new undici.Agent({
        connect: { timeout: settings.timeoutMs },
        headersTimeout: settings.timeoutMs,
        bodyTimeout: settings.timeoutMs,
        keepAliveTimeout: 30_000,
        connections: 64,
      }),
    })));
  const base = settings.url.replace(/\/+$/, '');
  const api = new URL(base);
  const mayCarryToken = (url: string) => {
    const target = new URL(url);
    if (target.username || target.password) return false;
    if (target.protocol === api.protocol && target.host === api.host) return true;
    return target.protocol === 'https:' && DOCUMENTED_MEDIA_HOSTS.includes(target.host);
  };

  /** A JSON body, or a multipart form (an upload: undici writes its content type with the boundary). */
  async function call<T>(method: 'GET' | 'POST', path: string, token: string, body?: unknown): Promise<GraphResult<T>> {
    let status: number;
    let text: string;
    const { undici, agent } = await client();
    const form = body instanceof undici.FormData;
    try {
      const answer = await undici.request(`${base}/${settings.version}/${path}`, {
        method,
        dispatcher: agent,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined || form ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : form ? body : JSON.stringify(body),
      });
      status = answer.statusCode;
      const bytes = Buffer.from(await answer.body.arrayBuffer());
      text = bytes.subarray(0, MAX_ANSWER_BYTES).toString('utf8');
    } catch (error) {
      // No answer: refused, reset, timed out. Its message names the address only (never the token).
      return { ok: false, failure: { status: null, code: null, message: `the API could not be reached (${(error as Error).message})` } };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (status === 200 && parsed !== undefined) return { ok: true, value: parsed as T };
    return { ok: false, failure: failureOf(status, parsed) };
  }

  return {
    /** `GET /<version>/<phone-number-id>`: the number, if the token may act for it. */
    async number(credentials: CloudCredentials): Promise<GraphResult<{ phone: string }>> {
      const answer = await call<{ display_phone_number?: unknown }>('GET', encodeURIComponent(credentials.phoneNumberId), credentials.accessToken);
      if (!answer.ok) return answer;
      const digits = typeof answer.value.display_phone_number === 'string' ? answer.value.display_phone_number.replace(/\D/g, '') : '';
      if (!/^[1-9]\d{6,14}$/.test(digits)) {
        return { ok: false, failure: { status: 200, code: null, message: 'the API answered no usable display_phone_number for the number' } };
      }
      return { ok: true, value: { phone: `+${digits}` } };
    },
    /** `POST /<version>/<phone-number-id>/messages`: the network's id of the accepted message (its wamid). */
    async send(credentials: CloudCredentials, body: Record<string, unknown>): Promise<GraphResult<{ wamid: string }>> {
      const answer = await call<{ messages?: Array<{ id?: unknown }> }>('POST', `${encodeURIComponent(credentials.phoneNumberId)}/messages`, credentials.accessToken, body);
      if (!answer.ok) return answer;
      const wamid = answer.value.messages?.[0]?.id;
      if (typeof wamid !== 'string' || wamid === '') return { ok: false, failure: { status: 200, code: null, message: 'the API accepted the message without an id' } };
      return { ok: true, value: { wamid } };
    },
    /**
     * `POST /<version>/<phone-number-id>/media` (the API's reference, upload): the file as multipart `file`, with
     * `type` and `messaging_product`; the API's id of it, sent in place of a link.
     */
    async upload(credentials: CloudCredentials, file: { bytes: Buffer; mimeType: string; fileName: string }): Promise<GraphResult<{ id: string }>> {
      const form = new (await client()).undici.FormData();
      form.set('messaging_product', 'whatsapp');
      form.set('type', file.mimeType);
      form.set('file', new Blob([new Uint8Array(file.bytes)], { type: file.mimeType }), file.fileName);
      const answer = await call<{ id?: unknown }>('POST', `${encodeURIComponent(credentials.phoneNumberId)}/media`, credentials.accessToken, form);
      if (!answer.ok) return answer;
      if (typeof answer.value.id !== 'string' || answer.value.id === '') return { ok: false, failure: { status: 200, code: null, message: 'the API took the file without an id' } };
      return { ok: true, value: { id: answer.value.id } };
    },
    /**
     * `POST /<version>/<phone-number-id>/messages` with `status: read`: a received message (and those
     * before it) marked read; with `typing: true` the user also sees the typing indicator.
     */
    async markRead(credentials: CloudCredentials, messageId: string, typing: boolean): Promise<GraphResult<unknown>> {
      return call('POST', `${encodeURIComponent(credentials.phoneNumberId)}/messages`, credentials.accessToken, {
        messaging_product: 'whatsapp',
        status: 'read',
        message_id: messageId,
        ...(typing ? { typing_indicator: { type: 'text' } } : {}),
      });
    },
    /**
     * `GET /<version>/<phone-number-id>/whatsapp_business_profile` (the API's reference, business
     * profiles): its about text and picture URL; and the number's verified name, the one it shows.
     */
    async businessProfile(credentials: CloudCredentials): Promise<GraphResult<{ name: string | null; about: string | null; picture: string | null }>> {
      const id = encodeURIComponent(credentials.phoneNumberId);
      const [profile, number] = await Promise.all([
        call<{ data?: Array<{ about?: unknown; profile_picture_url?: unknown }> }>('GET', `${id}/whatsapp_business_profile?fields=about,profile_picture_url`, credentials.accessToken),
        call<{ verified_name?: unknown }>('GET', `${id}?fields=verified_name`, credentials.accessToken),
      ]);
      if (!profile.ok) return profile;
      if (!number.ok) return number;
      const shown = profile.value.data?.[0] ?? {};
      const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
      return { ok: true, value: { name: text(number.value.verified_name), about: text(shown.about), picture: text(shown.profile_picture_url) } };
    },
    /** `POST /<version>/<phone-number-id>/whatsapp_business_profile`: changes the fields given. */
    async setBusinessProfile(credentials: CloudCredentials, fields: { about?: string }): Promise<GraphResult<unknown>> {
      return call('POST', `${encodeURIComponent(credentials.phoneNumberId)}/whatsapp_business_profile`, credentials.accessToken, { messaging_product: 'whatsapp', ...fields });
    },
    /** `GET /<version>/<media-id>`: where a received file can be downloaded now (a short-lived URL). */
    async mediaUrl(credentials: CloudCredentials, mediaId: string): Promise<GraphResult<{ url: string }>> {
      const answer = await call<{ url?: unknown }>('GET', encodeURIComponent(mediaId), credentials.accessToken);
      if (!answer.ok) return answer;
      if (typeof answer.value.url !== 'string') return { ok: false, failure: { status: 200, code: null, message: 'the API answered no download URL for the media' } };
      return { ok: true, value: { url: answer.value.url } };
    },
    /**
     * The file at a download URL the API gave, fetched with the same token (it is refused without) when
     * the URL is on the API's own host or the media host it documents; any other host gets no token.
     */
    async download(credentials: CloudCredentials, url: string) {
      const headers: Record<string, string> = mayCarryToken(url) ? { authorization: `Bearer ${credentials.accessToken}` } : {};
      const { undici, agent } = await client();
      const answer = await undici.request(url, { method: 'GET', dispatcher: agent, headers });
      if (answer.statusCode !== 200) {
        await answer.body.dump();
        return { status: answer.statusCode, bytes: null, size: null };
      }
      const length = Number(answer.headers['content-length']);
      return { status: 200, bytes: answer.body as AsyncIterable<Uint8Array>, size: Number.isFinite(length) ? length : null };
    },
    close: async () => {
      if (loaded) await (await loaded).agent.close();
    },
  };
}
