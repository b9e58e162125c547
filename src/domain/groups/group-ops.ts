import { z } from 'zod';
import { GROUP_ID } from '../messages/send-kinds.input.js';

/** A group as the API shows it (docs/messaging.md "Groups and polls"). */
export interface GroupInfo {
  id: string;
  subject: string;
  description: string | null;
  /** The creator's phone digits; null when the network named it by LID alone. */
  owner: string | null;
  participants: Array<{ phone: string | null; lid?: string; admin: 'admin' | 'superadmin' | null }>;
  /** Only admins write (announcement-only). */
  announce: boolean;
  /** Only admins change the group's subject and description. */
  restrict: boolean;
  createdAt: string | null;
}

export const PARTICIPANT_ACTIONS = ['add', 'remove', 'promote', 'demote'] as const;
export type ParticipantAction = (typeof PARTICIPANT_ACTIONS)[number];

/** One group operation the instance's owner carries out on the network (it crosses nodes as JSON). */
export type GroupOp =
  | { op: 'list' }
  | { op: 'create'; subject: string; participants: string[]; description?: string }
  | { op: 'get'; group: string }
  | { op: 'update'; group: string; subject?: string; description?: string; announce?: boolean; restrict?: boolean }
  | { op: 'participants'; group: string; action: ParticipantAction; phones: string[] }
  | { op: 'invite'; group: string }
  | { op: 'leave'; group: string };

/** What a group operation answers. */
export interface GroupOpResult {
  group?: GroupInfo;
  groups?: GroupInfo[];
  /** Per phone, as the network answered: `ok`, or its reason. */
  participants?: Array<{ phone: string; status: string }>;
  code?: string;
}

const phone = z.string({ error: 'must be phone digits' }).regex(/^\d{7,15}$/, 'must be phone digits with the country code first (7-15 digits)');
const subject = z.string({ error: 'must be text' }).trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');
const description = z.string({ error: 'must be text' }).max(2048, 'must be at most 2048 characters');

export const groupIdInput = z.strictObject({ groupId: z.string().regex(GROUP_ID, 'must be a group id (<digits>@g.us or <digits>-<digits>@g.us)') });

export const createGroupInput = z.strictObject({
  subject,
  participants: z.array(phone, { error: 'must be a list of 1 to 256 phones' }).min(1, 'must name at least 1 phone').max(256, 'must name at most 256 phones'),
  description: description.optional(),
});

export const updateGroupInput = z
  .strictObject({ subject: subject.optional(), description: description.optional(), announce: z.boolean({ error: 'must be true or false' }).optional(), restrict: z.boolean({ error: 'must be true or false' }).optional() })
  .refine((value) => Object.keys(value).length > 0, 'must change at least one of subject, description, announce, restrict');

export const participantsInput = z.strictObject({
  action: z.enum(PARTICIPANT_ACTIONS, { error: 'must be add, remove, promote or demote' }),
  phones: z.array(phone, { error: 'must be a list of 1 to 256 phones' }).min(1, 'must name at least 1 phone').max(256, 'must name at most 256 phones'),
});
