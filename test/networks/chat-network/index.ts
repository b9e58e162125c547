import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { WebSocketServer } from 'ws';
import { quietSignalConsole } from '../../../src/engines/baileys/quiet-signal.js';
import type { ChatNetwork, ChatNetworkOptions } from './api.js';
import { createControlHandler } from './control/handler.js';
import { notFound } from './errors.js';
import { MediaHost } from './state/media-host.js';
import { NetworkCore } from './network.js';
import { testRootKeyPair } from './protocol/certificates.js';
import { normalizePhone } from './protocol/jids.js';

export { ChatNetworkError } from './errors.js';
export type { GroupSettings, GroupSummary, ParticipantAction } from './state/groups.js';
export type { DeliveredStanza, IssuedToken, PhoneReceipt, ReceivedStanza } from './state/journal.js';
export type { ChatState, PresenceState } from './handlers/presence.js';
export type { PollVote } from './handlers/phones.js';
export type { HistoryRequest } from './handlers/history.js';
export type { PastChat, PastMessage, PhonePast } from './state/history.js';
export type { ProfileChange } from './state/profiles.js';
export type * from './types.js';
export type { ChatNetwork, ChatNetworkOptions, NetworkPeer } from './api.js';

const DEFAULT_WAIT_MS = 15_000;

/** Starts a local chat network: WebSocket for clients, HTTPS media host, HTTP control API. */
export async function startChatNetwork(options: ChatNetworkOptions = {}): Promise<ChatNetwork> {
  const host = options.host ?? '127.0.0.1';
  const logger = options.logger ?? pino({ level: 'silent' });
  // The phones' signal library prints whole session records to the console: kept out of the output.
  quietSignalConsole(logger);
  const media = await MediaHost.start(host, logger);
  const core = new NetworkCore(media, logger, {
    qrRefs: options.qrRefs ?? 6,
    qrTimeoutMs: options.qrTimeoutMs,
    autoDeliveryReceipts: options.autoDeliveryReceipts ?? false,
    certificateFlaw: options.certificateFlaw,
  });

  const ownCaFile = !options.caFile;
  const caFile = options.caFile ?? join(await mkdtemp(join(tmpdir(), 'chat-network-')), 'ca.pem');
  await writeFile(caFile, media.caPem);

  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 32 * 1024 * 1024 });
  wss.on('connection', (ws) => core.accept(ws));
  let network!: ChatNetwork;
  const control = createControlHandler(() => network, logger);
  const server = createServer((req, res) => control(req, res));
  const socketPeers: Array<{ address: string; at: Date }> = [];
  server.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/ws/chat') {
      socket.destroy();
      return;
    }
    socketPeers.push({ address: (socket as Socket).remoteAddress ?? '', at: new Date() });
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const base = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const journal = core.journal;
  const waitFor = <T>(probe: () => T | undefined | null | false, timeoutMs = DEFAULT_WAIT_MS, what = 'a condition') =>
    journal.waitFor(probe, timeoutMs, what);

  network = {
    url: `ws://${base}/ws/chat`,
    rootKey: Buffer.from(testRootKeyPair().public).toString('base64'),
    caPem: media.caPem,
    caFile,
    mediaHost: media.hostname,
    mediaTls: media.tls,
    controlUrl: `http://${base}`,
    scan: (qrText, phone) => core.pairing.scan(qrText, phone),
    enterPairingCode: (code, phone) => core.pairing.enterPairingCode(code, phone),
    inbox: (phone) => core.inboxes.list(normalizePhone(phone)),
    waitForInbox: (phone, count, timeoutMs) => {
      const digits = normalizePhone(phone);
      return waitFor(() => {
        const list = core.inboxes.list(digits);
        return list.length >= count && list;
      }, timeoutMs, `${count} message(s) in the inbox of ${digits}`);
    },
    receipts: (phone) => [...(journal.phoneReceipts.get(normalizePhone(phone)) ?? [])],
    send: (from, to, content, sendOptions) => core.phones.send(from, to, content, sendOptions),
    receipt: async (phone, messageId, type) => core.phones.receipt(phone, messageId, type),
    revoke: (phone, messageId, to) => core.phones.revoke(phone, messageId, to),
    edit: (phone, messageId, to, text) => core.phones.edit(phone, messageId, to, text),
    vote: (phone, pollMessageId, to, options, voteOptions) => core.phones.vote(phone, pollMessageId, to, options, voteOptions),
    setRegistered: (phone, registered) => {
      core.accounts.get(normalizePhone(phone)).registered = registered;
      journal.changed();
    },
    expireMedia: (phone, messageId) => {
      const sent = core.accounts.find(normalizePhone(phone))?.sentMessage(messageId);
      const content = sent && Object.values(sent.message).find((value) => value && typeof value === 'object' && 'directPath' in value);
      const directPath = (content as { directPath?: string } | undefined)?.directPath;
      if (!directPath || !media.expire(directPath)) throw notFound('unknown_media', `${phone} sent no media message ${messageId}`);
    },
    forgetSessions: (phone) => core.accounts.get(normalizePhone(phone)).signal.forgetSessions(),
    lidOf: (phone) => core.accounts.get(normalizePhone(phone)).lid,
    shareLidMapping: (phone, contacts) => core.phones.shareLidMapping(phone, contacts),
    setHistory: (phone, past) => core.history.set(phone, past),
    historyAgain: (phone) => core.history.again(phone),
    historyRequests: (phone) => core.history.requests.filter((request) => request.phone === normalizePhone(phone)),
    blocked: (phone) => [...core.accounts.get(normalizePhone(phone)).blocked],
    groupCreate: (owner, subject, participants) => core.groups.create(owner, subject, participants).jid,
    groupAddParticipants: (actor, group, participants) => void core.groups.addParticipants(actor, group, participants),
    groupRemoveParticipants: (actor, group, participants) => void core.groups.removeParticipants(actor, group, participants),
    groupSetSubject: (actor, group, subject) => core.groups.setSubject(actor, group, subject),
    groupSetDescription: (actor, group, description) => core.groups.setDescription(actor, group, description),
    groupParticipants: (actor, group, action, phones) =>
      core.groups.changeParticipants(actor, group, action, phones).map(({ phone, status }) => ({ phone, status })),
    groupSetSettings: (actor, group, settings) => core.groups.setSettings(actor, group, settings),
    groupRevokeInvite: (actor, group) => core.groups.revokeInvite(actor, group),
    groupJoin: (phone, code) => core.groups.join(phone, code).jid,
    groupLeave: (phone, group) => core.groups.leave(phone, group),
    group: (jid) => core.groups.summary(core.groups.find(jid)),
    setAcceptsGroupAdds: (phone, accepts) => {
      core.accounts.get(normalizePhone(phone)).acceptsGroupAdds = accepts;
    },
    presence: (from, to, type) => core.presence.fromPhone(from, to, type),
    presenceOf: (phone) => core.presence.of(phone),
    chatStates: (phone) => core.presence.chatStatesSeenBy(phone),
    setProfile: (phone, change) => core.profiles.change(phone, change),
    streamError: (phone, code, streamOptions) => core.sessions.streamError(phone, code, streamOptions?.deviceId),
    unban: (phone) => core.sessions.unban(phone),
    devices: () =>
      core.accounts.all().flatMap((account) =>
        [...account.devices.values()].map((device) => ({
          phone: account.phone,
          deviceId: device.id,
          jid: device.jid('pn'),
          lid: device.jid('lid'),
          platform: device.identity.platform,
          connected: device.connected,
          loggedOut: device.loggedOut,
          pending: device.pendingCount,
          linkedAt: new Date(device.linkedAt),
        })),
      ),
    loginAttempts: (phone) => [...(journal.loginAttempts.get(normalizePhone(phone)) ?? [])],
    tokensIssued: (phone) => journal.tokensIssued.filter((token) => token.phone === normalizePhone(phone)),
    received: () => [...journal.received],
    deliveries: () => [...journal.delivered],
    resetHandshakePeak: () => {
      journal.maxHandshakesInFlight = journal.handshakesInFlight;
    },
    stats: () => ({
      connections: core.connections.size,
      handshakesInFlight: journal.handshakesInFlight,
      maxHandshakesInFlight: journal.maxHandshakesInFlight,
      logins: journal.logins,
      hellos: journal.hellos,
      handshakesFinished: journal.handshakesFinished,
    }),
    peers: () =>
      [...socketPeers.map((peer) => ({ service: 'socket' as const, ...peer })), ...media.peers.map((peer) => ({ service: 'media' as const, ...peer }))].sort(
        (a, b) => a.at.getTime() - b.at.getTime(),
      ),
    waitFor,
    close: async () => {
      core.close();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await media.close();
      if (ownCaFile) await rm(join(caFile, '..'), { recursive: true, force: true });
    },
  };
  return network;
}
