/**
 * The Evolution API v2 webhook body (docs/evolution.md, "Webhooks"), for instances whose webhook
 * format is `evolution`: the receivers written for Evolution read `event`, `instance` and `data`
 * (`data.key.remoteJid`, `data.message.conversation`) as Evolution sends them.
 */

export interface EvolutionEnvelopeInstance {
  id: string;
  name: string;
  /** The linked phone (+digits), its jid is the body's `sender`. */
  phone?: string | null;
  webhookUrl?: string | null;
}

/** The gateway's events in the names Evolution's bodies give them. */
const EVENT_NAMES: Record<string, string> = { 'qr.update': 'qrcode.updated' };

/** The gateway's message types in the names Evolution's bodies and answers give them (one table for both). */
const MESSAGE_TYPES: Record<string, string> = {
  text: 'conversation',
  image: 'imageMessage',
  video: 'videoMessage',
  audio: 'audioMessage',
  document: 'documentMessage',
  location: 'locationMessage',
  sticker: 'stickerMessage',
  contact: 'contactMessage',
  contacts: 'contactMessage',
  reaction: 'reactionMessage',
  poll: 'pollCreationMessage',
};

export const evolutionMessageType = (type: string) => MESSAGE_TYPES[type] ?? type;

/** A status in Evolution's words (its message-update statuses). */
const STATUSES: Record<string, string> = { queued: 'PENDING', pending: 'PENDING', sent: 'SERVER_ACK', delivered: 'DELIVERY_ACK', read: 'READ', failed: 'ERROR' };

const CONNECTION_STATES: Record<string, string> = { connected: 'open', connecting: 'connecting', qr_code: 'connecting', initializing: 'connecting', qr: 'connecting', created: 'connecting' };

/** People as Evolution's receivers parse them, `<digits>@s.whatsapp.net`, whatever network the instance is on. */
const jid = (chat: string) => (chat.includes('@') ? chat : `${chat.replace(/\D/g, '')}@s.whatsapp.net`);

export function evolutionPayload(instance: EvolutionEnvelopeInstance, event: string, data: Record<string, unknown>, at: Date, publicUrl: string): string {
  return JSON.stringify({
    event: EVENT_NAMES[event] ?? event,
    instance: instance.name,
    data: evolutionData(instance, event, data),
    destination: instance.webhookUrl ?? null,
    date_time: at.toISOString(),
    sender: instance.phone ? jid(instance.phone) : null,
    server_url: publicUrl || null,
    apikey: null,
  });
}

function evolutionData(instance: EvolutionEnvelopeInstance, event: string, data: Record<string, unknown>): Record<string, unknown> {
  if (event === 'messages.upsert') return upsert(instance, data);
  if (event === 'messages.update' && typeof data.status === 'string') {
    return { keyId: data.messageId, messageId: data.messageId, status: STATUSES[data.status] ?? data.status.toUpperCase(), instanceId: instance.id };
  }
  if (event === 'messages.update' || event === 'messages.delete') return { key: { id: data.messageId }, ...withoutId(data), instanceId: instance.id };
  if (event === 'connection.update') {
    const status = String(data.status);
    return { instance: instance.name, wuid: data.phoneNumber ? jid(String(data.phoneNumber)) : null, state: CONNECTION_STATES[status] ?? 'close', statusReason: data.reason ?? null };
  }
  // qr.update carries the code as an image (a data: URL), which is Evolution's `base64`.
  if (event === 'qr.update') return { qrcode: { instance: instance.name, pairingCode: null, base64: data.qrCode, expiresAt: data.expiresAt } };
  return data;
}

const withoutId = ({ messageId: _, ...rest }: Record<string, unknown>) => rest;

/** What a received or sent message carries beyond its text, inside `message`, keyed as Evolution keys them. */
function messageOf(data: Record<string, unknown>): Record<string, unknown> {
  const type = String(data.type);
  const text = String(data.text ?? '');
  if (type === 'text') return { conversation: text };
  const media = data.media as Record<string, unknown> | undefined;
  const key = MESSAGE_TYPES[type] ?? `${type}Message`;
  if (type === 'location') {
    const location = (data.location ?? {}) as Record<string, unknown>;
    return { [key]: { degreesLatitude: location.latitude, degreesLongitude: location.longitude, name: location.name, address: location.address } };
  }
  if (type === 'reaction') {
    const reaction = (data.reaction ?? {}) as Record<string, unknown>;
    return { [key]: { key: { id: reaction.messageId }, text: reaction.emoji } };
  }
  if (type === 'contacts' || type === 'contact') return { [key]: data.contacts };
  if (type === 'poll') return { [key]: data.poll };
  return { [key]: { caption: text || undefined, mimetype: media?.mimetype, url: data.mediaUrl ?? media?.url, fileLength: media?.size, fileName: media?.fileName } };
}

function upsert(instance: EvolutionEnvelopeInstance, data: Record<string, unknown>): Record<string, unknown> {
  const fromMe = data.fromMe === true;
  const group = (data.group as { id?: string } | undefined)?.id;
  const counterpart = String((fromMe ? data.to : data.from) ?? '');
  const person = !fromMe && !data.from && data.fromLid ? `${String(data.fromLid)}@lid` : jid(counterpart);
  const key = group ? { remoteJid: group, fromMe, id: data.messageId, ...(fromMe ? {} : { participant: person }) } : { remoteJid: person, fromMe, id: data.messageId };
  return {
    key,
    pushName: String(data.pushName ?? ''),
    status: fromMe ? 'PENDING' : 'DELIVERY_ACK',
    message: messageOf(data),
    messageType: MESSAGE_TYPES[String(data.type)] ?? String(data.type),
    messageTimestamp: Math.floor(Date.parse(String(data.timestamp)) / 1000),
    instanceId: instance.id,
    source: 'unknown',
  };
}
