import type { InstanceVariant } from '../instances/state-machine.js';
import { type EventData, type EventName, type MessageUpsertData, TEST_EVENT } from './catalogue.js';
import { evolutionPayload } from './evolution-envelope.js';

export interface EnvelopeInstance {
  id: string;
  name: string;
  variant: InstanceVariant;
  /** `evolution`: Evolution API's body instead of the variant's (docs/evolution.md, "Webhooks"). */
  webhookFormat?: string;
  phone?: string | null;
  webhookUrl?: string | null;
}

const MESSAGE_TYPES: Record<string, string> = {
  text: 'conversation',
  image: 'imageMessage',
  video: 'videoMessage',
  audio: 'audioMessage',
  document: 'documentMessage',
  location: 'locationMessage',
  sticker: 'stickerMessage',
  contact: 'contactMessage',
  reaction: 'reactionMessage',
};

/** A v1 delivery's `data` (spec 6.2): the event's own, a message without the fields only other consumers read. */
export type V1Data = { [E in EventName]: E extends 'messages.upsert' ? Omit<MessageUpsertData, (typeof NOT_IN_V1_UPSERT)[number]> : EventData[E] };

/** A session delivery's `data` (spec 6.3): a message keyed as the network keys it, its updates by `key.id`. */
export type SessionData = {
  [E in EventName]: E extends 'messages.upsert'
    ? { key: { remoteJid: string; fromMe: boolean; id: string; participant?: string }; message: Record<string, unknown>; messageType: string; pushName: string; fromLid?: string }
    : E extends 'messages.update' | 'messages.delete'
      ? { key: { id: string } } & Record<string, unknown>
      : EventData[E];
};

export type V1Envelope<E extends EventName = EventName> = { event: E; instanceId: string; timestamp: string; data: V1Data[E] };
export type SessionEnvelope<E extends EventName = EventName> = { event: E; instance: { instanceName: string; instanceId: string }; data: SessionData[E] };

/**
 * The exact body of a webhook delivery (V1Envelope or SessionEnvelope), built once and stored: every
 * retry sends these bytes.
 */
export function webhookPayload(instance: EnvelopeInstance, event: string, data: Record<string, unknown>, at: Date, jidDomain: string, publicUrl = ''): string {
  data = withAbsoluteMediaUrl(data, publicUrl);
  if (instance.webhookFormat === 'evolution') return evolutionPayload(instance, event, data, at, publicUrl);
  if (instance.variant === 'v1') {
    return JSON.stringify({ event, instanceId: instance.id, timestamp: at.toISOString(), data: v1Data(event, data) });
  }
  return JSON.stringify({ event, instance: { instanceName: instance.name, instanceId: instance.id }, data: sessionData(event, data, jidDomain) });
}

/** Events store the media download's path; a gateway that knows its public address (PUBLIC_URL) sends it whole. */
function withAbsoluteMediaUrl(data: Record<string, unknown>, publicUrl: string): Record<string, unknown> {
  const media = data.media as { url?: unknown } | undefined;
  if (!publicUrl || !media || typeof media.url !== 'string' || !media.url.startsWith('/')) return data;
  return { ...data, media: { ...media, url: `${publicUrl}${media.url}` } };
}

/** Fields events carry for other consumers (the session envelope's pushName, the media URL) that spec 6.2 does not list. */
const NOT_IN_V1_UPSERT = ['pushName', 'mediaUrl'] as const;

function v1Data(event: string, data: Record<string, unknown>): Record<string, unknown> {
  if (event !== 'messages.upsert') return data;
  return Object.fromEntries(Object.entries(data).filter(([key]) => !(NOT_IN_V1_UPSERT as readonly string[]).includes(key)));
}

/** What a received message carries beyond its text, inside the session envelope's `message`. */
const SESSION_MESSAGE_EXTRAS = ['location', 'media', 'contacts', 'reaction', 'quoted', 'content', 'mentions', 'poll', 'group', 'edited'];

function sessionData(event: string, data: Record<string, unknown>, jidDomain: string): Record<string, unknown> {
  if (event === 'messages.upsert') {
    const fromMe = data.fromMe === true;
    const counterpart = String(fromMe ? data.to : data.from);
    // A sender known only by its LID is addressed as the network does: <lid>@lid.
    const person = !fromMe && !data.from && data.fromLid ? `${String(data.fromLid)}@lid` : counterpart.includes('@') ? counterpart : `${counterpart}@${jidDomain}`;
    // A group message is the group's, as the network keys it: the chat is the group, the participant who wrote it.
    const group = (data.group as { id?: string } | undefined)?.id;
    const sender = fromMe ? null : person;
    const key = group ? { remoteJid: group, fromMe, id: data.messageId, ...(sender ? { participant: sender } : {}) } : { remoteJid: person, fromMe, id: data.messageId };
    const extras = Object.fromEntries(SESSION_MESSAGE_EXTRAS.filter((field) => data[field] !== undefined).map((field) => [field, data[field]]));
    return {
      key,
      message: {
        conversation: String(data.text ?? ''),
        messageTimestamp: String(Math.floor(Date.parse(String(data.timestamp)) / 1000)),
        ...extras,
      },
      messageType: MESSAGE_TYPES[String(data.type)] ?? String(data.type),
      pushName: String(data.pushName ?? ''),
      ...(data.fromLid ? { fromLid: data.fromLid } : {}),
    };
  }
  if (event === 'messages.update' || event === 'messages.delete') {
    const { messageId, ...rest } = data;
    return { key: { id: messageId }, ...rest };
  }
  return data;
}

/** The body of a webhook.test, in the v1 envelope whatever the instance's variant. */
export function testPayload(instanceId: string, at: Date): string {
  return JSON.stringify({ event: TEST_EVENT, instanceId, timestamp: at.toISOString(), data: {} });
}
