import { evolutionMessageType } from '../../domain/events/evolution-envelope.js';
import type { InstanceRecord } from '../../domain/instances/instances.ports.js';
import type { MessageRecord, SendResult } from '../../domain/messages/messages.ports.js';
import { jidOf } from './numbers.js';

/** Evolution's three connection states (docs/evolution.md, "Instances"). */
export type EvolutionState = 'open' | 'connecting' | 'close';

export function stateOf(instance: Pick<InstanceRecord, 'state'>): EvolutionState {
  if (instance.state === 'connected') return 'open';
  if (instance.state === 'created' || instance.state === 'qr' || instance.state === 'connecting') return 'connecting';
  return 'close';
}

const ownerJid = (instance: InstanceRecord) => (instance.phone ? jidOf(instance.phone) : null);

/** One entry of GET /instance/fetchInstances, with the fields of Evolution's instance row it has. */
export function presentInstanceRow(instance: InstanceRecord) {
  return {
    id: instance.id,
    name: instance.name,
    connectionStatus: stateOf(instance),
    ownerJid: ownerJid(instance),
    profileName: null,
    profilePicUrl: instance.profilePicUrl,
    integration: instance.engine,
    number: instance.phone ? instance.phone.replace(/\D/g, '') : null,
    businessId: null,
    token: null,
    clientName: null,
    disconnectionReasonCode: null,
    disconnectionObject: instance.lastDisconnectReason,
    disconnectionAt: instance.lastDisconnectAt?.toISOString() ?? null,
    createdAt: instance.createdAt.toISOString(),
    updatedAt: instance.updatedAt.toISOString(),
    _count: { Message: instance.messagesSent + instance.messagesReceived },
  };
}

/** A pairing's code as Evolution's connect answers it: the QR text and image, and the pairing code when one was asked. */
export function presentQr(qr: { code: string; dataUrl: string } | null, pairingCode: string | null = null) {
  return { pairingCode, code: qr?.code ?? null, base64: qr?.dataUrl ?? null, count: qr ? 1 : 0 };
}

export const messageTypeOf = evolutionMessageType;

/**
 * A message accepted for sending, as Evolution's send operations answer (its status PENDING until
 * the network takes it). The key's id is the gateway's message id: actions on the message take it.
 */
export function presentSent(instance: Pick<InstanceRecord, 'id'>, to: string, sent: SendResult, kind: string, message: Record<string, unknown>) {
  return {
    key: { remoteJid: jidOf(to), fromMe: true, id: sent.id },
    pushName: '',
    status: sent.status === 'failed' ? 'ERROR' : 'PENDING',
    message,
    messageType: messageTypeOf(kind),
    messageTimestamp: Math.floor(Date.parse(sent.timestamp) / 1000),
    instanceId: instance.id,
    source: 'unknown',
  };
}

/** A stored message as findMessages lists it. */
export function presentStored(message: MessageRecord) {
  const fromMe = message.direction === 'out';
  const chat = message.chatId ?? (fromMe ? message.to : (message.from ?? ''));
  const type = messageTypeOf(message.type);
  // A received file's type is in its descriptor; a sent one's in mediaType.
  const mimetype = message.mediaType ?? (message.media as { mimetype?: string } | null)?.mimetype;
  const body: Record<string, unknown> =
    message.type === 'text' ? { conversation: message.text ?? '' } : { [type]: { caption: message.caption ?? undefined, mimetype, text: message.text ?? undefined } };
  return {
    id: message.id,
    key: { remoteJid: jidOf(chat), fromMe, id: message.id },
    pushName: null,
    messageType: type,
    message: body,
    messageTimestamp: Math.floor(message.createdAt.getTime() / 1000),
    instanceId: message.instanceId,
    status: message.status.toUpperCase(),
  };
}
