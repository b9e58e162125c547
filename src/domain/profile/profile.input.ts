import { z } from 'zod';
import { urlText } from '../messages/messages.input.js';
import { PRIVACY_KEYS, PRIVACY_VALUES, type PrivacyKey } from '../network/own-profile.js';

/** Largest picture taken as base64 (the network shows a 640×640 JPEG; phones send a few hundred KB). */
export const MAX_PICTURE_BYTES = 5 * 1024 * 1024;
export const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

const picture = z.union(
  [
    z.strictObject({ url: urlText }),
    z.strictObject({
      data: z
        .string({ error: 'must be base64 text' })
        .min(1, 'must not be empty')
        .max(Math.ceil(MAX_PICTURE_BYTES / 3) * 4, `must be at most ${MAX_PICTURE_BYTES} bytes once decoded`)
        .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64 text'),
      mimetype: z.enum(PICTURE_TYPES, { error: `must be one of ${PICTURE_TYPES.join(', ')}` }),
    }),
  ],
  { error: 'must be {url} or {data, mimetype}, or null to remove the picture' },
);

/** PUT …/profile: each field given replaces that part of the profile; `picture: null` removes it. */
export const profileInput = z
  .strictObject({
    // The network's limits: a name of 25 characters, an about text of 139.
    name: z.string({ error: 'must be text' }).trim().min(1, 'must not be empty').max(25, 'must be at most 25 characters').optional(),
    about: z.string({ error: 'must be text' }).max(139, 'must be at most 139 characters').optional(),
    picture: picture.nullable().optional(),
  })
  .refine((value) => value.name !== undefined || value.about !== undefined || value.picture !== undefined, { error: 'give at least one of name, about, picture' });
export type ProfileInput = z.output<typeof profileInput>;

const setting = <K extends PrivacyKey>(key: K) => z.enum(PRIVACY_VALUES[key], { error: `must be one of ${PRIVACY_VALUES[key].join(', ')}` }).optional();

/** PUT …/privacy: each setting given replaces that one; the others stay. */
export const privacyInput = z
  .strictObject({
    lastSeen: setting('lastSeen'),
    online: setting('online'),
    picture: setting('picture'),
    about: setting('about'),
    readReceipts: setting('readReceipts'),
    groupsAdd: setting('groupsAdd'),
  })
  .refine((value) => Object.values(value).some((one) => one !== undefined), { error: `give at least one of ${PRIVACY_KEYS.join(', ')}` });
