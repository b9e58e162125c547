import type { AuthenticationCreds, WAMessage, WASocket } from 'baileys';
import type { GroupSubjects } from './group-subjects.js';
import type { OpenedVote } from './poll-votes.js';
import type { NetworkEvent } from '../../domain/network/network-events.js';
import type { Logger } from '../../infra/logger.js';
import { chatKindOf, fromUpdates, fromUpsert, inboundOf, isChat, type NetworkReports, withPhones } from './inbound.js';
import { userJidDigits } from './message-refs.js';
import type { MediaHosts } from './media-hosts.js';
import type { OwnChange } from './actions.js';
import type { BaileysMediaSource } from './media-source.js';
import { contactInfos, historyReports, keyMappings, knownPhones, mappedContact } from './history-reports.js';
import type { HistorySyncPolicy } from '../../domain/network/engine-history.js';
import type { MediaSource } from '../../domain/media/media-source.js';
import { CallSteps, callReports } from './calls.js';
import type { OnlinePresence } from './online-presence.js';
import { contactsUpdated, groupsUpdated, groupsUpserted, participantsChanged, type PhoneOfLid, presenceUpdated } from './session-events.js';

/** One socket of the link: what it is for, and what it waits for. */
export interface Live {
  sock: WASocket;
  mode: 'pairing' | 'session';
  /** The pairing it shows codes for (its instance's pairingSince). */
  pairingSince?: number;
  creds: AuthenticationCreds;
  qrShown: number;
  paired: boolean;
  openedAt?: number;
  /** Hand-offs waiting for the network's acknowledgement, by the network's message id. */
  acks: Map<string, (error: string | null) => void>;
  /** Gives back the handshake slot the socket holds until it is open or closed. */
  releaseHandshake?: () => void;
  /** The subjects of the groups this session receives messages from. */
  subjects: GroupSubjects;
  /** The account shown online while the session is open (alwaysOnline). */
  online?: OnlinePresence;
}

/** What the wiring of a socket's reports needs from its link. */
export interface ReportHooks {
  /** Whether the socket is still the link's current one (a retired socket's events are dropped). */
  isCurrent(): boolean;
  /** Whether the instance keeps group, contact and presence events (its link terms). */
  networkEvents(): boolean;
  forward(reports: NetworkReports): void;
  /** Reports still being worked out keep their place in the order they came. */
  forwardLater(reports: Promise<NetworkReports>): void;
  pushNameChanged(jid: string, name: string): boolean;
  /** Whether a change the library reports is one this instance just made itself (reported once, by its action). */
  isOwnEcho(change: OwnChange, networkMessageId: string): boolean;
  /** The votes among received messages on polls this instance sent, opened with each poll's secret. */
  votesIn(messages: WAMessage[]): Promise<OpenedVote[]>;
  mediaHosts: MediaHosts;
  /** Where history chunks are downloaded from (the engine's media source), and the instance's history policy. */
  media: MediaSource;
  historyPolicy(): HistorySyncPolicy;
  /** The instance's settings the device carries out itself (its link terms, docs/settings.md). */
  rejectsCalls(): boolean;
  autoRead(): boolean;
  log: Logger;
}

/**
 * The socket's events that carry what the network reports: messages, receipts and deletes, and the
 * group, contact and presence changes, each turned into the engine's reports (inbound.ts,
 * session-events.ts) in the order they came.
 */
export function wireReports(live: Live, hooks: ReportHooks) {
  const { ev } = live.sock;
  const mappedLids = new Set<string>();
  ev.on('messages.upsert', ({ messages, type }) => {
    if (!hooks.isCurrent()) return;
    if (type === 'notify' && hooks.autoRead()) readAtOnce(live, messages, hooks.log);
    // The LID look-up is async: its result is forwarded in the order the upserts came.
    const lids = live.sock.signalRepository.lidMapping;
    const resolved = withPhones(messages, (jid) => lids.getPNForLID(jid));
    const history = { sock: live.sock, media: hooks.media, policy: hooks.historyPolicy, hosts: () => announcedHosts(live, hooks), log: hooks.log };
    // A sender named by LID with the number beside it: the library keeps the pair silently, the address book takes it once.
    const mapped = keyMappings(messages, mappedLids);
    hooks.forwardLater(
      resolved
        .then(async (withPhoneJids) => {
          const { history: batches, contacts = [] } = await historyReports(messages, history);
          return { ...fromUpsert(withPhoneJids), votes: await hooks.votesIn(withPhoneJids), history: batches, contacts: [...mapped, ...contacts] };
        })
        .then((reports) => live.subjects.fill(reports))
        .then((reports) => withMediaHosts(live, reports, hooks)),
    );
  });
  ev.on('messages.update', (updates) => {
    if (hooks.isCurrent()) hooks.forward(fromUpdates(updates, userJidDigits(live.creds.me?.id), (change, id) => hooks.isOwnEcho(change, id)));
  });
  // Group, contact and presence changes are kept only where the instance's terms say so: otherwise the work is skipped.
  const phoneOfLid: PhoneOfLid = Object.assign((jid: string) => live.sock.signalRepository.lidMapping.getPNForLID(jid), {
    learn: (lid: string, pn: string) => {
      if (hooks.isCurrent()) live.sock.signalRepository.lidMapping.storeLIDPNMappings([{ lid, pn }]).catch(() => {});
    },
  });
  const raise = (events: () => Promise<NetworkEvent[]>) => {
    if (!hooks.isCurrent() || !hooks.networkEvents()) return;
    hooks.forwardLater(events().then((list) => ({ inbound: [], receipts: [], deletes: [], events: list })));
  };
  // A group's subject is learnt from the network's own changes, not asked again for each message.
  ev.on('groups.upsert', (groups) => {
    for (const group of groups) if (group.id && typeof group.subject === 'string') live.subjects.learn(group.id, group.subject);
    raise(() => groupsUpserted(groups, phoneOfLid));
  });
  ev.on('groups.update', (updates) => {
    for (const update of updates) if (update.id && typeof update.subject === 'string') live.subjects.learn(update.id, update.subject);
    raise(() => groupsUpdated(updates, phoneOfLid));
  });
  ev.on('group-participants.update', (update) => raise(() => participantsChanged(update, phoneOfLid)));
  // The address book the read model keeps (every variant): names, and LIDs whose number became known.
  const people = (work: () => Promise<NetworkReports['contacts']>) => {
    if (hooks.isCurrent()) hooks.forwardLater(work().then((contacts) => ({ inbound: [], receipts: [], deletes: [], contacts })));
  };
  ev.on('contacts.upsert', (contacts) => people(() => contactInfos(contacts, knownPhones(live.sock))));
  ev.on('lid-mapping.update', (update) => people(async () => mappedContact(update)));
  ev.on('contacts.update', (updates) => {
    // A push name repeated with every message is news once; both the event and the address book take only news.
    const news = new Set(updates.flatMap((update) => (update.id && update.notify && hooks.pushNameChanged(update.id, update.notify) ? [update.id] : [])));
    people(() => contactInfos(updates.filter((update) => update.id && news.has(update.id)).map(({ id, notify, phoneNumber }) => ({ id, notify, phoneNumber })), knownPhones(live.sock)));
    raise(() => contactsUpdated(updates, (jid) => news.has(jid), phoneOfLid));
  });
  ev.on('presence.update', (update) => raise(() => presenceUpdated(update, phoneOfLid)));
  // Calls are the account's, every variant: each step reported in order, an offer rejected at once when the settings say so.
  const steps = new CallSteps();
  ev.on('call', (calls) => {
    if (!hooks.isCurrent()) return;
    const reports = callReports(calls, { sock: live.sock, steps, rejects: () => hooks.rejectsCalls(), log: hooks.log });
    hooks.forwardLater(reports.then((list) => ({ inbound: [], receipts: [], deletes: [], calls: list })));
  });
}

/**
 * autoRead: what contacts just sent is marked read as it arrives, as a phone open on the chat does
 * (docs/settings.md); the sender's phone sees the read receipt. A mark the network refuses is only logged.
 */
function readAtOnce(live: Live, messages: WAMessage[], log: Logger) {
  // A status update read would tell its poster the account viewed it: those are left for the phone.
  const keys = messages.filter((message) => !message.key.fromMe && isChat(message.key.remoteJid) && chatKindOf(message.key.remoteJid) !== 'status' && inboundOf(message)).map((message) => message.key);
  if (keys.length) live.sock.readMessages(keys).catch((error: unknown) => log.warn({ err: error }, 'received messages could not be marked read'));
}

/**
 * Received files get the media hosts the network announced (its media connection info, asked over
 * this authenticated connection and cached by the library for its lifetime): the only hosts they
 * are ever fetched from, whatever host the sender wrote into the message.
 */
async function withMediaHosts(live: Live, reports: NetworkReports, hooks: ReportHooks): Promise<NetworkReports> {
  const withMedia = reports.inbound.filter((message) => message.media);
  if (!withMedia.length) return reports;
  const announced = await announcedHosts(live, hooks);
  for (const message of withMedia) (message.media!.source as unknown as BaileysMediaSource).hosts = announced;
  return reports;
}

/** The media hosts the network announced to this connection (asked once, cached by the library). */
function announcedHosts(live: Live, hooks: ReportHooks): Promise<string[]> {
  return live.sock.refreshMediaConn(false).then(
    (conn) => hooks.mediaHosts.learn(conn.hosts.map((host) => host.hostname)),
    (error: unknown) => {
      hooks.log.warn({ err: error }, "the network did not say its media hosts; received files will be fetched from the hosts known so far");
      return [];
    },
  );
}
