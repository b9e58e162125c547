import { z } from 'zod';
import { MAX_MEDIA_BODY_BYTES, MAX_MEDIA_BYTES } from '../media/limits.js';
import { messageText, phoneNumber, PHONE_DIGITS, templateInput, urlText } from './messages.input.js';

/**
 * An object's own error only when the value is not that object: an unknown key keeps zod's own
 * message, which names the key (a custom object error would otherwise replace it).
 */
export const notAnObject = (text: string) => ({ error: (issue: { code?: string }) => (issue.code === 'invalid_type' ? text : undefined) });

/** A group's id on the network: `<digits>@g.us`, or the older `<creator digits>-<time>@g.us`. */
export const GROUP_ID = /^[0-9]{5,20}(-[0-9]{5,20})?@g\.us$/;

/** Largest vCard of a contact card, as the network's apps accept them. */
export const MAX_VCARD_BYTES = 64 * 1024;

/** A chat a message goes to: phone digits (the spec's `to`) or a group id. */
export const chatId = z
  .string({ error: 'is required and must be phone digits or a group id' })
  .refine((value) => PHONE_DIGITS.test(value) || GROUP_ID.test(value), {
    error: 'must be phone digits with the country code first (7-15 digits, e.g. 5511999990001) or a group id (<digits>@g.us)',
  });

const messageId = z.string({ error: 'must be a message id' }).uuid('must be a message id');

/** A content type with optional parameters (`audio/ogg; codecs=opus`), as RFC 9110 writes them. */
const CONTENT_TYPE = /^[a-z]+\/[a-z0-9.+-]+(\s*;\s*[a-z0-9!#$&^_.+-]+=("[^"\\]*"|[a-z0-9!#$&^_.+-]+))*$/i;

/** What `media` carries: a URL to fetch, or the file itself as base64. */
const mediaSource = z.union(
  [
    z.object({ url: urlText }, notAnObject('must be {url} or {data, mimetype, fileName?}')).strict(),
    z
      .object({
        data: z
          .string({ error: 'must be base64 text' })
          .min(1, 'must not be empty')
          .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64 text')
          .meta({ description: `the file as base64: at most ${MAX_MEDIA_BYTES} bytes (16 MiB) once decoded; the request body may then be up to ${MAX_MEDIA_BODY_BYTES} bytes (413 payload_too_large beyond)` }),
        mimetype: z
          .string({ error: 'is required with data' })
          .max(255, 'must be at most 255 characters')
          .regex(CONTENT_TYPE, 'must be a content type such as image/png or audio/ogg; codecs=opus'),
        fileName: z.string().min(1).max(255, 'must be at most 255 characters').optional(),
      })
      .strict(),
  ],
  { error: 'must be {url} or {data, mimetype, fileName?}' },
);

export const SEND_MEDIA_TYPES = ['image', 'video', 'audio', 'document', 'sticker'] as const;

const location = z
  .object(
    {
      latitude: z.number({ error: 'must be a number' }).min(-90, 'must be between -90 and 90').max(90, 'must be between -90 and 90'),
      longitude: z.number({ error: 'must be a number' }).min(-180, 'must be between -180 and 180').max(180, 'must be between -180 and 180'),
      name: z.string().max(256, 'must be at most 256 characters').optional(),
      address: z.string().max(512, 'must be at most 512 characters').optional(),
    },
    notAnObject('must be an object {latitude, longitude, name?, address?}'),
  )
  .strict();

const contactCard = z
  .object(
    {
      displayName: z.string({ error: 'is required' }).min(1, 'must not be empty').max(256, 'must be at most 256 characters'),
      vcard: z
        .string({ error: 'is required' })
        .refine((text) => Buffer.byteLength(text) <= MAX_VCARD_BYTES, `must be at most ${MAX_VCARD_BYTES} bytes`)
        .refine((text) => /^BEGIN:VCARD\r?\n[\s\S]*END:VCARD\s*$/.test(text), 'must be a vCard (BEGIN:VCARD … END:VCARD)'),
    },
    notAnObject('must be an object {displayName, vcard}'),
  )
  .strict();

const reaction = z
  .object({ messageId, emoji: z.string({ error: 'must be an emoji, or "" to take a reaction back' }).max(16, 'must be one emoji') }, notAnObject('must be an object {messageId, emoji}'))
  .strict();

const pollOption = z.string({ error: 'must be text' }).min(1, 'must not be empty').max(100, 'must be at most 100 characters');
const poll = z
  .object(
    {
      name: z.string({ error: 'is required' }).min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
      options: z
        .array(pollOption, { error: 'must be a list of 2 to 12 options' })
        .min(2, 'must have at least 2 options')
        .max(12, 'must have at most 12 options')
        .refine((list) => new Set(list).size === list.length, 'must not repeat an option'),
      selectableCount: z.number().int('must be a whole number').min(1, 'must be at least 1').optional(),
    },
    notAnObject('must be an object {name, options, selectableCount?}'),
  )
  .strict()
  .refine((value) => (value.selectableCount ?? 1) <= value.options.length, { path: ['selectableCount'], message: 'must be at most the number of options' });

/** The kinds a send carries exactly one of (docs/messaging.md). */
export const SEND_KINDS = ['text', 'media', 'location', 'contacts', 'reaction', 'poll', 'template'] as const;
export type SendKind = (typeof SEND_KINDS)[number];

/**
 * A send through a named instance: `to` and exactly one kind, each with what may go with it. Which
 * kinds and options the instance's engine carries is checked after this, against its capabilities.
 */
export const sendKindsInput = z
  .object({
    to: chatId,
    text: messageText.optional(),
    mentions: z.array(z.string().regex(PHONE_DIGITS, 'must be phone digits'), { error: 'must be a list of phone digits' }).max(256, 'must name at most 256 phones').optional(),
    linkPreview: z.literal(false, { error: 'can only be false (link previews are never fetched)' }).optional(),
    media: mediaSource.optional(),
    mediaType: z.enum(SEND_MEDIA_TYPES, { error: `must be one of ${SEND_MEDIA_TYPES.join(', ')}` }).optional(),
    caption: z.string({ error: 'must be text' }).max(1024, 'must be at most 1024 characters').optional(),
    voice: z.boolean({ error: 'must be true or false' }).optional(),
    location: location.optional(),
    contacts: z.array(contactCard, { error: 'must be a list of 1 to 10 cards' }).min(1, 'must have at least 1 card').max(10, 'must have at most 10 cards').optional(),
    reaction: reaction.optional(),
    poll: poll.optional(),
    template: templateInput.optional(),
    quotedMessageId: messageId.optional(),
  }, notAnObject('must be a JSON object'))
  .strict()
  .superRefine((data, context) => {
    const kinds = SEND_KINDS.filter((kind) => data[kind] !== undefined);
    if (kinds.length === 0) context.addIssue({ code: 'custom', path: ['text'], message: `give one of ${SEND_KINDS.join(', ')}` });
    if (kinds.length > 1) context.addIssue({ code: 'custom', path: [kinds[1]!], message: `give only one of ${kinds.join(', ')}` });
    const only = (field: 'mentions' | 'linkPreview' | 'mediaType' | 'caption' | 'voice', kind: SendKind) => {
      if (data[field] !== undefined && data[kind] === undefined) context.addIssue({ code: 'custom', path: [field], message: `goes only with ${kind}` });
    };
    only('mentions', 'text');
    only('linkPreview', 'text');
    only('mediaType', 'media');
    only('caption', 'media');
    only('voice', 'media');
    if (data.media !== undefined && data.mediaType === undefined) context.addIssue({ code: 'custom', path: ['mediaType'], message: `is required with media: one of ${SEND_MEDIA_TYPES.join(', ')}` });
    if (data.voice && data.mediaType !== undefined && data.mediaType !== 'audio') context.addIssue({ code: 'custom', path: ['voice'], message: 'goes only with mediaType audio' });
    if (data.reaction !== undefined && data.quotedMessageId !== undefined) context.addIssue({ code: 'custom', path: ['quotedMessageId'], message: 'a reaction quotes nothing' });
    if (data.mentions && data.text !== undefined) {
      for (const [index, phone] of data.mentions.entries()) {
        if (!data.text.includes(`@${phone}`)) context.addIssue({ code: 'custom', path: ['mentions', index], message: `is not named in the text as @${phone}` });
      }
    }
  });

export type SendKindsInput = z.output<typeof sendKindsInput>;

/** `/v1/messages/send`: the spec's body, and optionally the instance it goes through. */
export { phoneNumber };
