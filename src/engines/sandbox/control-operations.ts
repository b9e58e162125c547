import { z } from 'zod';
import { type HttpSurface, type Operation, okEnvelope } from '../../http/operation.js';
import { pastOperations } from './past-operations.js';
import { callInput, contactChangeInput, deleteInput, endCallInput, groupChangeInput, groupInput, inboundInput, pairInput, presenceInput, readInput, scanInput } from './control-inputs.js';

const instant = z.iso.datetime({ offset: true }).meta({ description: 'an instant, ISO 8601 in UTC' });
const uuid = z.uuid();

const PhoneRef = z.object({ messageId: uuid.nullable(), text: z.string().nullable() });
const PhoneMessage = z.object({
  id: uuid,
  from: z.string(),
  type: z.string(),
  text: z.string().nullable().meta({ description: 'as received (an edit shows in `edited`)' }),
  mediaUrl: z.string().optional(),
  caption: z.string().optional(),
  media: z
    .object({ mimetype: z.string().nullable(), fileName: z.string().nullable(), voice: z.boolean(), size: z.number().int().optional(), sha256: z.string().optional() })
    .optional()
    .meta({ description: 'a media message: its type, name, whether it is a voice note; size and SHA-256 of an uploaded file' }),
  mentions: z.array(z.string()).optional(),
  quoted: PhoneRef.optional().meta({ description: "a reply: the gateway's id and text of the message it quotes" }),
  reaction: PhoneRef.extend({ emoji: z.string() }).optional().meta({ description: "a reaction: the message reacted to, and the emoji ('' takes it back)" }),
  location: z.object({ latitude: z.number(), longitude: z.number(), name: z.string().optional(), address: z.string().optional() }).optional(),
  contacts: z.array(z.object({ displayName: z.string(), vcard: z.string() })).optional(),
  poll: z.object({ name: z.string(), options: z.array(z.string()), selectableCount: z.number().int() }).optional().meta({ description: 'a poll: its question, options and how many a voter may pick (0: any number)' }),
  group: z.object({ id: z.string(), subject: z.string().nullable() }).optional().meta({ description: 'a message the phone received in a sandbox group: the group and its subject now' }),
  edited: z.object({ text: z.string(), at: instant }).optional().meta({ description: 'the sender edited it: the latest text' }),
  deleted: z.object({ at: instant }).optional().meta({ description: 'the sender deleted it for everyone' }),
  receivedAt: instant,
});
const PhoneRead = z.object({ messageId: uuid.nullable(), from: z.string().meta({ description: "the instance's phone digits" }), at: instant });
const PhonePresence = z.object({ from: z.string().meta({ description: "the instance's phone digits" }), state: z.string().meta({ description: 'composing, recording, paused, available or unavailable' }), at: instant });

const Paired = z.object({ instanceId: uuid });
const PlacedCall = z.object({
  id: z.string(),
  from: z.string(),
  to: z.string().meta({ description: "the instance's phone digits" }),
  video: z.boolean(),
  status: z.enum(['ringing', 'rejected', 'accepted', 'timeout', 'missed']).meta({ description: 'rejected: the instance rejected it by its settings (docs/settings.md, "Calls")' }),
  at: instant,
});
const InboundAnswer = z.union([z.object({ messageId: uuid }), z.object({ messageId: z.null() }).meta({ description: "taken, and kept by no instance: already received, or of a chat the instance's settings ignore" }), z.object({ held: z.literal(true), message: z.string() }), z.object({ messageId: uuid, edited: z.literal(true) }), z.object({ messageId: uuid, options: z.array(z.string()).meta({ description: "the phone's vote now" }) })]);
const RaisedAnswer = z.object({ event: z.string() }).catchall(z.unknown()).meta({ description: 'the event raised and what it carries' });
const MediaExpiredAnswer = z.object({ messageId: z.string(), expired: z.literal(true) });
const ReadAnswer = z.object({ messageId: z.string(), status: z.literal('read') });
const DeletedAnswer = z.object({ messageId: z.string(), forEveryone: z.boolean() });
const NetworkEventAnswer = (status: string) => z.object({ instanceId: z.string(), status: z.literal(status) });

const tag = 'Sandbox network';

/** The control API's operations (docs/rest.md, "Sandbox control API"), in the order the document lists them. */
export const controlOperations = {
  scan: { method: 'post', path: '/sandbox/scan', tag, summary: 'A phone scans a QR code (its text)', auth: [], body: scanInput, success: { status: 200, schema: okEnvelope(Paired), description: 'paired' }, errors: [400, 404] },
  pair: { method: 'post', path: '/sandbox/pair', tag, summary: 'A phone enters a pairing code', auth: [], body: pairInput, success: { status: 200, schema: okEnvelope(Paired), description: 'paired' }, errors: [400, 404, 409] },
  inbound: { method: 'post', path: '/sandbox/messages', tag, summary: "A phone sends a message to an instance's number (or into a group they are in), edits one it sent, or votes on a poll", auth: [], body: inboundInput, success: { status: 200, schema: okEnvelope(InboundAnswer), description: 'received, held while the instance is offline, edited, or voted' }, errors: [400, 404, 409] },
  phoneMessages: { method: 'get', path: '/sandbox/phones/:number/messages', tag, summary: 'What a phone received: one entry per hand-off', auth: [], success: { status: 200, schema: okEnvelope(z.array(PhoneMessage)), description: 'oldest first' }, errors: [400] },
  phonePresence: { method: 'get', path: '/sandbox/phones/:number/presence', tag, summary: 'The presence states instances told a phone (typing, recording, online)', auth: [], success: { status: 200, schema: okEnvelope(z.array(PhonePresence)), description: 'oldest first' }, errors: [400] },
  phoneReads: { method: 'get', path: '/sandbox/phones/:number/reads', tag, summary: 'The read marks instances put on messages a phone sent them', auth: [], success: { status: 200, schema: okEnvelope(z.array(PhoneRead)), description: 'oldest first' }, errors: [400] },
  phoneRead: { method: 'post', path: '/sandbox/phones/:number/read', tag, summary: 'The phone reads a message (read receipt)', auth: [], body: readInput, success: { status: 200, schema: okEnvelope(ReadAnswer), description: 'read' }, errors: [400, 404] },
  deleteMessage: { method: 'post', path: '/sandbox/messages/:messageId/delete', tag, summary: 'A phone deletes a message', auth: [], body: deleteInput, success: { status: 200, schema: okEnvelope(DeletedAnswer), description: 'deleted' }, errors: [400, 404] },
  expireMedia: { method: 'post', path: '/sandbox/messages/:messageId/media-expiry', tag, summary: 'The network lets the file of a received media message expire (its media answers 410 from then on)', auth: [], success: { status: 200, schema: okEnvelope(MediaExpiredAnswer), description: 'expired' }, errors: [404] },
  raiseGroup: { method: 'post', path: '/sandbox/instances/:instanceId/groups', tag, summary: "A phone makes a group with the instance's number in it: groups.upsert (session instances)", auth: [], body: groupInput, success: { status: 200, schema: okEnvelope(RaisedAnswer), description: 'raised' }, errors: [400, 404, 409] },
  changeGroup: { method: 'post', path: '/sandbox/instances/:instanceId/groups/:groupId', tag, summary: 'A group the instance is in changes: groups.update (session instances)', auth: [], body: groupChangeInput, success: { status: 200, schema: okEnvelope(RaisedAnswer), description: 'raised' }, errors: [400, 404, 409] },
  changeContact: { method: 'post', path: '/sandbox/instances/:instanceId/contacts', tag, summary: "A contact's push name or picture changes: contacts.update (session instances)", auth: [], body: contactChangeInput, success: { status: 200, schema: okEnvelope(RaisedAnswer), description: 'raised' }, errors: [400, 404, 409] },
  raisePresence: { method: 'post', path: '/sandbox/instances/:instanceId/presence', tag, summary: 'A contact comes online, goes offline or types: presence.update (session instances)', auth: [], body: presenceInput, success: { status: 200, schema: okEnvelope(RaisedAnswer), description: 'raised' }, errors: [400, 404, 409] },
  placeCall: { method: 'post', path: '/sandbox/calls', tag, summary: "A phone calls an instance's number: it rings, or the instance rejects it at once (its settings' calls.reject)", auth: [], body: callInput, success: { status: 201, schema: okEnvelope(PlacedCall), description: 'placed' }, errors: [400, 409] },
  endCall: { method: 'post', path: '/sandbox/calls/:callId/end', tag, summary: 'A ringing call ends: taken or declined on the phone, unanswered, or given up by the caller', auth: [], body: endCallInput, success: { status: 200, schema: okEnvelope(PlacedCall), description: 'ended' }, errors: [400, 404] },
  phoneCalls: { method: 'get', path: '/sandbox/phones/:number/calls', tag, summary: 'The calls a phone placed and how each went', auth: [], success: { status: 200, schema: okEnvelope(z.array(PlacedCall)), description: 'oldest first' }, errors: [400] },
  drop: { method: 'post', path: '/sandbox/instances/:instanceId/drop', tag, summary: "The instance's connection drops (it comes back by itself)", auth: [], success: { status: 200, schema: okEnvelope(NetworkEventAnswer('dropped')), description: 'dropped' }, errors: [404, 409] },
  ban: { method: 'post', path: '/sandbox/instances/:instanceId/ban', tag, summary: "The network bans the instance's number", auth: [], success: { status: 200, schema: okEnvelope(NetworkEventAnswer('banned')), description: 'banned' }, errors: [404, 409] },
} satisfies Record<string, Operation>;

/** How the sandbox's routes appear in the OpenAPI document. */
export const controlSurface: HttpSurface = {
  tags: [{ name: tag, description: 'The simulated outside world; only with ENGINE=sandbox.' }],
  overview: 'The `Sandbox network` operations are the control API of the simulated chat network (ENGINE=sandbox only): they stand for phones, not for tenants.',
  operations: [...Object.values(controlOperations), ...Object.values(pastOperations)],
};
