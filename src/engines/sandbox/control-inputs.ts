import { z } from 'zod';
import { PRESENCES } from '../../domain/network/network-events.js';
import { INBOUND_MEDIA_TYPES } from '../../domain/media/media-source.js';
import { GROUP_ID as ANY_GROUP_ID } from '../../domain/messages/send-kinds.input.js';
import { writtenPhone, writtenPhoneE164 } from '../../domain/phone.js';

/** The bodies the control API takes (docs/rest.md, "Sandbox control API"): its routes validate with them and the document shows them. */
export const scanInput = z.object({
  code: z.string({ error: 'is required' }).min(1).max(512).meta({ description: 'the text of the QR image' }),
  phone: writtenPhoneE164.meta({ description: 'the phone scanning it, country code first: digits, with or without + and single spaces or dashes' }),
});
export const pairInput = z.object({
  code: z.string({ error: 'is required' }).min(1).max(20).meta({ description: 'the pairing code as the phone user types it' }),
  phone: writtenPhoneE164.meta({ description: 'the phone entering it: the number the code was asked for, in any written form' }),
});
const sandboxMedia = z.object({
  data: z.base64({ error: 'must be the file as base64' }).min(1, 'must not be empty').meta({ description: 'the file, base64 (the request body is limited to 1 MiB)' }),
  mimetype: z.string({ error: 'is required' }).regex(/^[\w.+-]+\/[\w.+-]+$/, 'must be a MIME type like image/jpeg'),
  fileName: z.string().min(1).max(255).optional(),
});
const MEDIA_KINDS = INBOUND_MEDIA_TYPES as readonly string[];
export const inboundInput = z
  .object({
    from: writtenPhone,
    to: writtenPhone.meta({ description: "the instance's phone" }),
    type: z.enum(['text', 'location', 'contact', 'reaction', 'edit', 'poll_vote', ...INBOUND_MEDIA_TYPES]).default('text'),
    group: z
      .string()
      .regex(ANY_GROUP_ID, 'must be a group id (<digits>@g.us or <digits>-<digits>@g.us)')
      .nullish()
      .meta({ description: 'the phone writes into this sandbox group (it and the instance\'s phone must be participants); the instance gets a group message' }),
    text: z.string().max(4096).nullish(),
    pushName: z.string().max(100).nullish(),
    location: z.object({ name: z.string().max(200).optional(), latitude: z.number().optional(), longitude: z.number().optional() }).nullish(),
    media: sandboxMedia.nullish().meta({ description: 'the file of an image, video, audio, document or sticker' }),
    caption: z.string().max(1024).nullish(),
    voice: z.boolean().optional().meta({ description: 'an audio recorded as a voice note' }),
    contacts: z
      .array(z.object({ displayName: z.string().min(1).max(200), vcard: z.string().min(1).max(8192) }))
      .min(1)
      .max(20)
      .nullish()
      .meta({ description: 'the contact cards of a contact message' }),
    reaction: z.object({ messageId: z.string().min(1), emoji: z.string().max(16) }).nullish().meta({ description: "a reaction to a message the phone received (the gateway's id of it); emoji '' takes it back" }),
    mentions: z.array(writtenPhone).max(256).nullish().meta({ description: 'phones the text names as @<digits>' }),
    quotedMessageId: z.string().min(1).max(100).nullish().meta({ description: "the message this one replies to (the gateway's id of a message the phone received)" }),
    edit: z
      .object({ messageId: z.string({ error: 'is required' }).min(1).max(100), text: z.string({ error: 'is required' }).min(1, 'must not be empty').max(4096) })
      .nullish()
      .meta({ description: "type edit: the phone edits a message it sent to the instance (the gateway's id of it); the instance gets messages.update with edited" }),
    pollVote: z
      .object({
        messageId: z.string({ error: 'is required' }).min(1).max(100),
        options: z.array(z.string().min(1).max(255), { error: 'must be a list of option names' }).max(12),
      })
      .nullish()
      .meta({ description: "type poll_vote: the phone votes on a poll it received from the instance (the gateway's id of it), choosing these options by name (none withdraws its vote); it replaces the phone's earlier vote" }),
  })
  // What the checks below require, stated for the document: media exactly for the media types, contacts for a contact, reaction for a reaction.
  .meta({
    allOf: [
      { if: { required: ['type'], properties: { type: { enum: [...INBOUND_MEDIA_TYPES] } } }, then: { required: ['media'], properties: { media: { type: 'object' } } }, else: { properties: { media: { type: 'null' } } } },
      { if: { required: ['type'], properties: { type: { const: 'contact' } } }, then: { required: ['contacts'], properties: { contacts: { type: 'array' } } } },
      { if: { required: ['type'], properties: { type: { const: 'reaction' } } }, then: { required: ['reaction'], properties: { reaction: { type: 'object' } } } },
      { if: { required: ['type'], properties: { type: { const: 'edit' } } }, then: { required: ['edit'], properties: { edit: { type: 'object' } } }, else: { properties: { edit: { type: 'null' } } } },
      { if: { required: ['type'], properties: { type: { const: 'poll_vote' } } }, then: { required: ['pollVote'], properties: { pollVote: { type: 'object' } } }, else: { properties: { pollVote: { type: 'null' } } } },
      { if: { required: ['type'], properties: { type: { const: 'edit' } } }, then: { properties: { group: { type: 'null' } } } },
    ],
  })
  .superRefine((body, ctx) => {
    if (MEDIA_KINDS.includes(body.type) && !body.media) ctx.addIssue({ code: 'custom', path: ['media'], message: `is required for a ${body.type}` });
    if (!MEDIA_KINDS.includes(body.type) && body.media) ctx.addIssue({ code: 'custom', path: ['media'], message: `is only for ${MEDIA_KINDS.join(', ')}` });
    if (body.type === 'contact' && !body.contacts) ctx.addIssue({ code: 'custom', path: ['contacts'], message: 'is required for a contact' });
    if (body.type === 'reaction' && !body.reaction) ctx.addIssue({ code: 'custom', path: ['reaction'], message: 'is required for a reaction' });
    if (body.type === 'edit' && !body.edit) ctx.addIssue({ code: 'custom', path: ['edit'], message: 'is required for an edit: {messageId, text}' });
    if (body.type !== 'edit' && body.edit) ctx.addIssue({ code: 'custom', path: ['edit'], message: 'is only for type edit' });
    if (body.type === 'poll_vote' && !body.pollVote) ctx.addIssue({ code: 'custom', path: ['pollVote'], message: 'is required for a poll vote: {messageId, options}' });
    if (body.type !== 'poll_vote' && body.pollVote) ctx.addIssue({ code: 'custom', path: ['pollVote'], message: 'is only for type poll_vote' });
    // An edit names its message, which is in its chat already; a vote may name its poll's group (checked against the poll).
    if (body.type === 'edit' && body.group) ctx.addIssue({ code: 'custom', path: ['group'], message: 'is not for type edit' });
  });

export const GROUP_ID = /^\d{6,30}@g\.us$/;
const person = writtenPhone;
export const groupInput = z.object({
  subject: z.string({ error: 'is required' }).min(1).max(100),
  description: z.string().max(2048).nullish(),
  owner: person.optional().meta({ description: 'who created it (default: the first participant)' }),
  participants: z.array(person).min(1).max(256),
});
export const groupChangeInput = z
  .object({
    author: person.optional(),
    subject: z.string().min(1).max(100).optional(),
    description: z.string().max(2048).nullable().optional(),
    announce: z.boolean().optional(),
    restrict: z.boolean().optional(),
    participants: z.object({ action: z.enum(['add', 'remove', 'promote', 'demote']), phones: z.array(person).min(1).max(256) }).optional(),
  })
  .meta({ anyOf: ['subject', 'description', 'announce', 'restrict', 'participants'].map((field) => ({ required: [field] })) })
  .refine((body) => ['subject', 'description', 'announce', 'restrict', 'participants'].some((field) => body[field as keyof typeof body] !== undefined), {
    message: 'give at least one of subject, description, announce, restrict, participants',
  });
export const contactChangeInput = z
  .object({ phone: person, pushName: z.string().min(1).max(100).optional(), picture: z.enum(['changed', 'removed']).optional() })
  .meta({ anyOf: [{ required: ['pushName'] }, { required: ['picture'] }] })
  .refine((body) => body.pushName !== undefined || body.picture !== undefined, { message: 'give pushName or picture' });
export const presenceInput = z.object({
  phone: person,
  presence: z.enum(PRESENCES),
  lastSeen: z.iso.datetime({ error: 'must be an ISO 8601 instant' }).nullish(),
  group: z.string().regex(GROUP_ID, 'must be a group id like 120363012345678901@g.us').optional(),
});

export const readInput = z.object({ messageId: z.string({ error: 'is required' }) });
export const deleteInput = z.object({ forEveryone: z.boolean().default(true), deletedBy: writtenPhone.optional() });

export const callInput = z.object({
  from: writtenPhone.meta({ description: 'the phone calling' }),
  to: writtenPhone.meta({ description: "the instance's phone" }),
  video: z.boolean({ error: 'must be true or false' }).default(false),
});
export const endCallInput = z.object({
  outcome: z.enum(['accept', 'reject', 'timeout', 'hangup'], { error: "must be accept or reject (the number's owner takes or declines it on the phone), timeout (nobody does) or hangup (the caller gives up: a missed call)" }),
});
