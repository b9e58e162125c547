import type { InstanceVariant } from '../instances/state-machine.js';

export interface EnvelopeInstance {
  id: string;
  name: string;
  variant: InstanceVariant;
}

const MESSAGE_TYPES: Record<string, string> = {
  text: 'conversation',
  image: 'imageMessage',
  video: 'videoMessage',
  audio: 'audioMessage',
  document: 'documentMessage',
  location: 'locationMessage',
};

/**
 * The exact body of a webhook delivery, built once and stored: every retry sends these bytes.
 * v1 (spec 6.2): {event, instanceId, timestamp, data}. Session (spec 6.3): {event, instance:
 * {instanceName, instanceId}, data}, where message events carry key/message/messageType/pushName.
 */
export function webhookPayload(instance: EnvelopeInstance, event: string, data: Record<string, unknown>, at: Date, jidDomain: string): string {
  if (instance.variant === 'v1') {
    return JSON.stringify({ event, instanceId: instance.id, timestamp: at.toISOString(), data: v1Data(event, data) });
  }
  return JSON.stringify({ event, instance: { instanceName: instance.name, instanceId: instance.id }, data: sessionData(event, data, jidDomain) });
}

/** Fields events carry for other consumers (the session envelope's pushName, the media URL) that spec 6.2 does not list. */
const NOT_IN_V1_UPSERT = ['pushName', 'mediaUrl'];

function v1Data(event: string, data: Record<string, unknown>): Record<string, unknown> {
  if (event !== 'messages.upsert') return data;
  return Object.fromEntries(Object.entries(data).filter(([key]) => !NOT_IN_V1_UPSERT.includes(key)));
}

function sessionData(event: string, data: Record<string, unknown>, jidDomain: string): Record<string, unknown> {
  if (event === 'messages.upsert') {
    const fromMe = data.fromMe === true;
    const counterpart = String(fromMe ? data.to : data.from);
    return {
      key: { remoteJid: `${counterpart}@${jidDomain}`, fromMe, id: data.messageId },
      message: {
        conversation: String(data.text ?? ''),
        messageTimestamp: String(Math.floor(Date.parse(String(data.timestamp)) / 1000)),
        ...(data.location ? { location: data.location } : {}),
        ...(data.content ? { content: data.content } : {}),
      },
      messageType: MESSAGE_TYPES[String(data.type)] ?? String(data.type),
      pushName: String(data.pushName ?? ''),
    };
  }
  if (event === 'messages.update' || event === 'messages.delete') {
    const { messageId, ...rest } = data;
    return { key: { id: messageId }, ...rest };
  }
  return data;
}
