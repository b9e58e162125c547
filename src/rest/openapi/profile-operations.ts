import { z } from 'zod';
import { privacyInput, profileInput } from '../../domain/profile/profile.input.js';
import { PRIVACY_VALUES } from '../../domain/network/own-profile.js';
import type { Credential, Operation } from '../../http/operation.js';
import * as s from './schemas.js';

const OwnProfile = z
  .object({
    name: z.string().nullable().meta({ description: 'the name others see (push name)' }),
    about: z.string().nullable(),
    picture: z.string().nullable().meta({ description: "the picture's URL as the network serves it; null when there is none" }),
  })
  .meta({ id: 'OwnProfile' });

const Privacy = z
  .object({
    lastSeen: z.enum(PRIVACY_VALUES.lastSeen).optional(),
    online: z.enum(PRIVACY_VALUES.online).optional(),
    picture: z.enum(PRIVACY_VALUES.picture).optional(),
    about: z.enum(PRIVACY_VALUES.about).optional(),
    readReceipts: z.enum(PRIVACY_VALUES.readReceipts).optional(),
    groupsAdd: z.enum(PRIVACY_VALUES.groupsAdd).optional(),
  })
  .meta({ id: 'Privacy', description: 'the settings the network answers' });

/** The instance's own profile, privacy and block list (docs/settings.md "Profile and privacy"): the same under /v1 (key) and without it (cookie). */
export function profileOperations(prefix: string, auth: Credential[]): Operation[] {
  const errors = [400, 403, 404, 409, 422, 502] as const;
  const base = `${prefix}/:instanceId`;
  const tag = 'Profile and privacy';
  return [
    { method: 'get', path: `${base}/profile`, tag, summary: "The instance's own name, about text and picture, as the network shows them (capability own_profile)", auth, success: { status: 200, schema: s.okEnvelope(OwnProfile), description: 'the profile' }, errors: [...errors] },
    { method: 'put', path: `${base}/profile`, tag, summary: 'Set the name, about text or picture ({url} or {data, mimetype}; null removes it); fields not given stay', auth, body: profileInput, success: { status: 200, schema: s.okEnvelope(OwnProfile), description: 'the profile after the change' }, errors: [...errors] },
    { method: 'get', path: `${base}/privacy`, tag, summary: "The account's privacy settings (capability privacy)", auth, success: { status: 200, schema: s.okEnvelope(Privacy), description: 'the settings' }, errors: [...errors] },
    { method: 'put', path: `${base}/privacy`, tag, summary: 'Change privacy settings; those not given stay', auth, body: privacyInput, success: { status: 200, schema: s.okEnvelope(Privacy), description: 'the settings after the change' }, errors: [...errors] },
    { method: 'get', path: `${base}/contacts/blocked`, tag, summary: 'The phones the account blocked, as the network keeps its block list (capability block)', auth, success: { status: 200, schema: s.okEnvelope(z.array(z.object({ phone: z.string() }))), description: 'the block list' }, errors: [...errors] },
  ];
}
