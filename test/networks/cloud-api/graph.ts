// The Graph-style routes: `/<version>/<id>[/<edge>]`. Graph checks the token before it looks at the object,
// then answers an object the token may not see exactly like one that does not exist.
import type { IncomingMessage } from 'node:http';
import { invalidParameter, unknownObject, unknownPath, type ApiError } from './errors.js';
import { BodyTooLarge, bearerToken, readBody } from './http.js';
import type { Answer, MediaStore } from './media.js';
import type { MessagesEndpoint } from './messages-endpoint.js';
import { formatPhone, type BusinessNumber, type Numbers } from './numbers.js';

const VERSION = /^v\d+\.\d+$/;
const MESSAGE_BODY_LIMIT = 3 * 1024 * 1024;
const UPLOAD_LIMIT = 100 * 1024 * 1024;

export interface GraphDeps {
  numbers: Numbers;
  media: MediaStore;
  messages: MessagesEndpoint;
  /** The one accepted version, or any `vNN.N`. */
  version: string | undefined;
}

export interface GraphResult {
  answer: Answer;
  phoneNumberId?: string;
}

const fromError = (error: ApiError): Answer => ({ status: error.status, body: error.body });

/** Fields `GET /<phone-number-id>` answers by default; `?fields=` picks among them. */
function numberFields(number: BusinessNumber): Record<string, unknown> {
  return {
    verified_name: number.verifiedName,
    code_verification_status: 'VERIFIED',
    display_phone_number: formatPhone(number.displayPhoneNumber),
    quality_rating: 'GREEN',
    platform_type: 'CLOUD_API',
    throughput: { level: 'STANDARD' },
    id: number.phoneNumberId,
  };
}

function numberInfo(number: BusinessNumber, fields: string | null): Answer {
  const all = numberFields(number);
  if (fields === null) return { status: 200, body: all };
  const picked: Record<string, unknown> = {};
  for (const field of fields.split(',').map((f) => f.trim()).filter(Boolean)) {
    if (!(field in all)) {
      return fromError(invalidParameter(`Tried accessing nonexisting field (${field}) on node type (WhatsAppBusinessPhoneNumber)`));
    }
    picked[field] = all[field];
  }
  picked.id = number.phoneNumberId;
  return { status: 200, body: picked };
}

/** Largest `about` the API takes (the reference: 1 to 139 characters). */
const MAX_ABOUT = 139;

/**
 * `GET /<phone-number-id>/whatsapp_business_profile` answers `{data: [profile]}`; a POST with
 * `messaging_product: whatsapp` changes the fields it gives and answers `{success: true}`.
 */
async function businessProfile(req: IncomingMessage, number: BusinessNumber, version: string): Promise<Answer> {
  const shown = () => ({
    about: number.profile.about,
    description: number.profile.description,
    ...(number.profile.profilePictureUrl ? { profile_picture_url: number.profile.profilePictureUrl } : {}),
    messaging_product: 'whatsapp',
  });
  if (req.method === 'GET') return { status: 200, body: { data: [shown()] } };
  if (req.method !== 'POST') return fromError(unknownObject(req.method ?? 'GET', number.phoneNumberId));
  let body: Record<string, unknown>;
  try {
    body = JSON.parse((await readBody(req, MESSAGE_BODY_LIMIT)).toString('utf8')) as Record<string, unknown>;
  } catch {
    return fromError(invalidParameter('The request body is not JSON.', version));
  }
  if (body.messaging_product !== 'whatsapp') return fromError(invalidParameter('The parameter messaging_product is required.', version));
  if (body.about !== undefined && (typeof body.about !== 'string' || body.about.length < 1 || body.about.length > MAX_ABOUT)) {
    return fromError(invalidParameter(`Param about must be 1 to ${MAX_ABOUT} characters long.`, version));
  }
  if (typeof body.about === 'string') number.profile.about = body.about;
  if (typeof body.description === 'string') number.profile.description = body.description;
  return { status: 200, body: { success: true } };
}

export async function handleGraph(req: IncomingMessage, url: URL, deps: GraphDeps, at: number): Promise<GraphResult> {
  const method = req.method ?? 'GET';
  const segments = url.pathname.split('/').filter(Boolean);
  const [version, id, edge, ...rest] = segments;
  if (!version || !VERSION.test(version) || (deps.version !== undefined && version !== deps.version)) {
    return { answer: fromError(unknownPath(url.pathname)) };
  }
  if (!id || rest.length > 0) return { answer: fromError(unknownPath(url.pathname)) };

  const token = bearerToken(req, url);
  const authError = deps.numbers.authenticate(token);
  const number = deps.numbers.get(id);
  const phoneNumberId = number ? { phoneNumberId: id } : {};
  if (authError) return { answer: fromError(authError), ...phoneNumberId };
  const bearer = token as string;

  if (number) {
    if (!deps.numbers.canAccess(bearer, id)) return { answer: fromError(unknownObject(method, id)), phoneNumberId: id };
    if (edge === undefined) {
      if (method !== 'GET') return { answer: fromError(unknownObject(method, id)), phoneNumberId: id };
      return { answer: numberInfo(number, url.searchParams.get('fields')), phoneNumberId: id };
    }
    if (edge === 'whatsapp_business_profile') return { answer: await businessProfile(req, number, version), phoneNumberId: id };
    if (edge !== 'messages' && edge !== 'media') return { answer: fromError(unknownPath(`/${edge}`)), phoneNumberId: id };
    if (method !== 'POST') return { answer: fromError(unknownObject(method, id)), phoneNumberId: id };
    let raw: Buffer;
    try {
      raw = await readBody(req, edge === 'media' ? UPLOAD_LIMIT : MESSAGE_BODY_LIMIT);
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) throw error;
      return { answer: { ...fromError(invalidParameter('The request body is too large.', version)), status: 413 }, phoneNumberId: id };
    }
    if (edge === 'media') return { answer: await deps.media.upload(id, req.headers['content-type'], raw, version), phoneNumberId: id };
    return { answer: deps.messages.handle(number, version, raw.toString('utf8'), at), phoneNumberId: id };
  }

  if (edge === undefined && deps.media.get(id)) {
    if (method === 'GET') return { answer: deps.media.info(bearer, id, url.searchParams.get('phone_number_id')) };
    if (method === 'DELETE') return { answer: deps.media.remove(bearer, id) };
  }
  return { answer: fromError(unknownObject(method, id)) };
}
