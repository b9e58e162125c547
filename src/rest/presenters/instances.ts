import type { InstanceRecord } from '../../domain/instances/instances.ports.js';
import type { LiveQr } from '../../domain/instances/instances.service.js';
import { sessionStatusOf, v1StatusOf } from '../../domain/instances/state-machine.js';
import { lastDisconnectOf } from '../../domain/instances/last-disconnect.js';
import { restrictionOf } from '../../domain/instances/restriction.js';
import { historySyncOf } from '../../domain/conversations/history-sync.js';
import type { MediaPolicy } from '../../domain/media/keep-policy.js';
import type { z } from 'zod';
import type * as documented from '../openapi/schemas.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

function lastDisconnect(i: InstanceRecord): z.output<typeof documented.LastDisconnect> {
  const last = lastDisconnectOf(i);
  return last && { reason: last.reason, at: last.at.toISOString() };
}
function restricted(i: InstanceRecord): z.output<typeof documented.Restricted> {
  const restriction = restrictionOf(i);
  return restriction && { reason: restriction.reason, until: restriction.until.toISOString() };
}
const seconds = (qr: LiveQr) => Math.max(0, Math.ceil((qr.expiresAt.getTime() - Date.now()) / 1000));

// v1 variant: /v1/chat/instances, with an API key

export function presentV1ListItem(i: InstanceRecord): z.output<typeof documented.V1ListItem> {
  return {
    id: i.id,
    name: i.name,
    description: i.description,
    status: v1StatusOf(i.state),
    phoneNumber: i.phone,
    active: i.active,
    createdAt: i.createdAt.toISOString(),
    lastConnection: iso(i.lastConnection),
  };
}

export function presentV1Detail(i: InstanceRecord, media: MediaPolicy): z.output<typeof documented.V1Detail> {
  return {
    ...presentV1ListItem(i),
    integration: i.engine,
    webhookUrl: i.webhookUrl,
    webhookEvents: i.webhookEvents,
    statistics: { messagesSent: i.messagesSent, messagesReceived: i.messagesReceived, mediaSize: Number(i.mediaSize) },
    lastDisconnect: lastDisconnect(i),
    restricted: restricted(i),
    historySync: historySyncOf(i),
    media,
  };
}

export function presentV1Created(i: InstanceRecord, qr: LiveQr | null): z.output<typeof documented.V1Created> {
  return {
    id: i.id,
    name: i.name,
    status: v1StatusOf(i.state),
    qrCode: qr?.dataUrl ?? null,
    webhookUrl: i.webhookUrl,
    webhookSecret: i.webhookSecret,
    createdAt: i.createdAt.toISOString(),
  };
}

export function presentV1Qr(qr: LiveQr): z.output<typeof documented.V1Qr> {
  return { qrCode: qr.dataUrl, expiresAt: qr.expiresAt.toISOString() };
}

// session variant: /chat/instances, with the session cookie

function sessionQr(qr: LiveQr): z.output<typeof documented.SessionQr> {
  return { base64: qr.dataUrl, expiry: seconds(qr), attemptId: qr.attemptId };
}

export function presentSessionListItem(i: InstanceRecord): z.output<typeof documented.SessionListItem> {
  return {
    id: i.id,
    name: i.name,
    phone: i.phone,
    status: sessionStatusOf(i.state),
    webhookUrl: i.webhookUrl,
    active: i.active,
    createdAt: i.createdAt.toISOString(),
  };
}

export function presentSessionDetail(i: InstanceRecord, qr: LiveQr | null, media: MediaPolicy): z.output<typeof documented.SessionDetail> {
  return {
    id: i.id,
    name: i.name,
    phone: i.phone,
    status: sessionStatusOf(i.state),
    integration: i.engine,
    webhookUrl: i.webhookUrl,
    profilePicUrl: i.profilePicUrl,
    active: i.active,
    createdAt: i.createdAt.toISOString(),
    updatedAt: i.updatedAt.toISOString(),
    lastDisconnect: lastDisconnect(i),
    restricted: restricted(i),
    historySync: historySyncOf(i),
    media,
    ...(qr ? { qrCode: sessionQr(qr) } : {}),
  };
}

/** The create answer shows the webhook secret, once, so receivers of session instances can verify signatures too. */
export function presentSessionCreated(i: InstanceRecord): z.output<typeof documented.SessionCreated> {
  return {
    instanceId: i.id,
    instanceName: i.name,
    status: sessionStatusOf(i.state),
    integration: i.engine,
    webhookUrl: i.webhookUrl,
    webhookSecret: i.webhookSecret,
  };
}

export function presentSessionRegenerated(i: InstanceRecord, qr: LiveQr): z.output<typeof documented.SessionRegenerated> {
  return { id: i.id, status: sessionStatusOf(i.state), qrCode: sessionQr(qr) };
}

export function presentPairingCode(pairing: { code: string; expiresAt: Date }): z.output<typeof documented.PairingCode> {
  return { code: pairing.code, expiresAt: pairing.expiresAt.toISOString() };
}
