import { SEND_MEDIA_TYPES } from '../../domain/messages/send-kinds.input.js';
import { builder } from '../builder.js';

/** The inputs of each kind a send through a named instance takes (docs/messaging.md): exactly one kind per send. */

export const SendMediaTypeEnum = builder.enumType('SendMediaType', { values: SEND_MEDIA_TYPES, description: 'What a file given with a send is.' });

export const MediaFileInput = builder.inputType('MediaFileInput', {
  description: 'A file: either `url` (fetched under the URL policy), or `data` (base64) with its `mimetype`.',
  fields: (t) => ({
    url: t.string({ description: 'https, on a public address; at most 16 MiB.' }),
    data: t.string({ description: 'The file as base64; at most 16 MiB decoded, and the whole request within GRAPHQL_MAX_BODY_BYTES (100 KiB by default): send larger files by url or through REST.' }),
    mimetype: t.string({ description: 'With data: its content type, e.g. image/png.' }),
    fileName: t.string({ description: 'With data: the name a document is shown with.' }),
  }),
});

export const LocationInput = builder.inputType('LocationInput', {
  description: 'A point on the map.',
  fields: (t) => ({
    latitude: t.float({ required: true, description: '-90 to 90.' }),
    longitude: t.float({ required: true, description: '-180 to 180.' }),
    name: t.string({ description: 'A place name.' }),
    address: t.string({ description: 'Its address.' }),
  }),
});

export const ContactCardInput = builder.inputType('ContactCardInput', {
  description: 'A contact card.',
  fields: (t) => ({
    displayName: t.string({ required: true, description: 'The name the card shows.' }),
    vcard: t.string({ required: true, description: 'A vCard (BEGIN:VCARD … END:VCARD), at most 64 KiB.' }),
  }),
});

export const ReactionInput = builder.inputType('ReactionInput', {
  description: 'A reaction to a message of the same chat.',
  fields: (t) => ({
    messageId: t.id({ required: true, description: "The gateway's id of the message reacted to." }),
    emoji: t.string({ required: true, description: 'The emoji; "" takes an earlier reaction back.' }),
  }),
});

export const PollInput = builder.inputType('PollInput', {
  description: 'A poll.',
  fields: (t) => ({
    name: t.string({ required: true, description: 'The question.' }),
    options: t.stringList({ required: true, description: '2 to 12 distinct options.' }),
    selectableCount: t.int({ description: 'How many options a voter may choose; 1 when omitted.' }),
  }),
});
