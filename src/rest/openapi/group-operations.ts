import { z } from 'zod';
import { createGroupInput, participantsInput, updateGroupInput } from '../../domain/groups/group-ops.js';
import type { Credential, Operation } from '../../http/operation.js';
import * as s from './schemas.js';

export const Group = z
  .object({
    id: z.string().meta({ description: 'the group id, e.g. 120363012345678901@g.us' }),
    subject: z.string(),
    description: z.string().nullable(),
    owner: z.string().nullable().meta({ description: "the creator's phone digits" }),
    participants: z.array(z.object({ phone: z.string().nullable(), lid: z.string().optional(), admin: z.enum(['admin', 'superadmin']).nullable() })),
    announce: z.boolean().meta({ description: 'only admins write' }),
    restrict: z.boolean().meta({ description: "only admins change the group's info" }),
    createdAt: z.string().nullable(),
  })
  .meta({ id: 'Group' });

const ParticipantResult = z
  .object({ phone: z.string(), status: z.string().meta({ description: 'ok, or the network\'s reason: not_authorized, refused, not_found, already_member, …' }) })
  .meta({ id: 'GroupParticipantResult' });

/** Group management through one instance (docs/messaging.md "Groups and polls"): the same under /v1 (key) and without it (cookie). */
export function groupOperations(prefix: string, auth: Credential[]): Operation[] {
  const errors = [400, 403, 404, 409, 422, 502] as const;
  const base = `${prefix}/:instanceId/groups`;
  const tag = 'Groups';
  return [
    { method: 'get', path: base, tag, summary: 'The groups the instance\'s number is in', auth, success: { status: 200, schema: s.okEnvelope(z.array(Group)), description: 'the groups' }, errors: [...errors] },
    { method: 'post', path: base, tag, summary: 'Create a group with 1 to 256 participants', auth, body: createGroupInput, success: { status: 201, schema: s.okEnvelope(Group), description: 'the group' }, errors: [...errors] },
    { method: 'get', path: `${base}/:groupId`, tag, summary: 'One group', auth, success: { status: 200, schema: s.okEnvelope(Group), description: 'the group' }, errors: [...errors] },
    { method: 'patch', path: `${base}/:groupId`, tag, summary: 'Change the subject, description, announce or restrict', auth, body: updateGroupInput, success: { status: 200, schema: s.okEnvelope(Group), description: 'the group' }, errors: [...errors] },
    { method: 'post', path: `${base}/:groupId/participants`, tag, summary: 'Add, remove, promote or demote participants; one result per phone as the network answered', auth, body: participantsInput, success: { status: 200, schema: s.okEnvelope(z.array(ParticipantResult)), description: 'a result per phone' }, errors: [...errors] },
    { method: 'get', path: `${base}/:groupId/invite`, tag, summary: "The group's invite code and link", auth, success: { status: 200, schema: s.okEnvelope(z.object({ code: z.string(), url: z.string() })), description: 'the invite' }, errors: [...errors] },
    { method: 'post', path: `${base}/:groupId/leave`, tag, summary: 'The instance leaves the group', auth, success: { status: 200, schema: s.messageEnvelope, description: 'left' }, errors: [...errors] },
  ];
}
