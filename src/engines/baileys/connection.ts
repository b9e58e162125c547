import { type AuthenticationCreds, initAuthCreds, jidDecode, type WAMessage, type WASocket } from 'baileys';
import { GroupSubjects } from './group-subjects.js';
import { type OpenedVote, openVote, sealedVotes } from './poll-votes.js';
import type { DisconnectReason, EngineEvents, LinkTerms } from '../../domain/network/engine.port.js';
import type { EngineMessage, SendOutcome } from '../../domain/network/engine-messages.js';
import type { InstanceRecord } from '../../domain/instances/instances.ports.js';
import { type Lease, LeaseLost } from '../../domain/ownership/lease.js';
import { Conflict, NotFound } from '../../domain/errors.js';
import { untilStored } from '../../domain/retry.js';
import type { Logger } from '../../infra/logger.js';
import type { EngineStateStore } from './auth-state.js';
import { backoffMs, type Close, closeOf, REPLACED_RETRIES, REPLACED_WAIT_MS } from './close-policy.js';
import type { NetworkReports } from './inbound.js';
import type { HandshakeGate } from './handshake-gate.js';
import type { mediaFetcher } from './outbound.js';
import { libraryLogger, type SocketFactory } from './socket.js';
import type { MediaHosts } from './media-hosts.js';
import type { MediaSource } from '../../domain/media/media-source.js';
import type { PushNames } from './session-events.js';
import { type Live, wireReports } from './link-socket.js';
import { listenForAcks, relayWithAck, sendWithAcks } from './link-sender.js';
import type { ActionSession, OwnChange } from './actions.js';

/** How long the library's report of a change this instance made itself (an edit, a delete) is awaited, to be dropped. */
const ECHO_MS = 60_000;

/** A connection open this long has proved itself: the next drop starts the backoff from the beginning. */
const STABLE_MS = 60_000;
/** The library's own QR lifetimes (first code, the rest), when CHAT_QR_TIMEOUT_S does not set one. */
const FIRST_QR_MS = 60_000;
const NEXT_QR_MS = 20_000;
/** Codes per pairing the network issues (an estimate of how long a pairing code can be entered). */
const QR_CODES_PER_PAIRING = 6;

export interface LinkDeps {
  instanceId: string;
  events: EngineEvents;
  store: EngineStateStore;
  openSocket: SocketFactory;
  fetchMedia: ReturnType<typeof mediaFetcher>;
  /** The media hosts the network announced to this node's connections. */
  mediaHosts: MediaHosts;
  /** The engine's media source: history chunks are downloaded through it. */
  media: MediaSource;
  /** The text of a message the instance sent, for the library to send again on a retry receipt. */
  sentText: (networkMessageId: string) => Promise<string | null>;
  /** A poll the instance sent: its secret and options, to open the votes on it; null for anything else. */
  pollOf: (networkMessageId: string) => Promise<{ secret: Buffer; options: string[] } | null>;
  qrTimeoutMs: number | undefined;
  /** Push names already reported, shared by the node's links. */
  pushNames: PushNames;
  /** The node's bound on handshakes in flight: a session connection is opened with a slot of it. */
  handshakes: HandshakeGate;
  /** A close after which the link connects again (metrics: reconnects by reason). */
  onReconnect: (reason: DisconnectReason) => void;
  logger: Logger;
  /** Reports the gateway could not store; the engine carries on. */
  report: (error: unknown, what: string) => void;
  stopped: () => boolean;
}

/**
 * One instance's link on its owning node: the socket that pairs it or carries its session, under the
 * connection policy of docs/operating.md. Everything is under the owner's lease: a write or a hand-off
 * after the lease moved is refused, and the socket is closed at once.
 */
export class InstanceLink {
  private lease: Lease;
  private instance: InstanceRecord;
  private live: Live | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  /** Failed connection attempts since the last stable connection (the backoff's step). */
  private attempts = 0;
  private replacedTries = 0;
  /** The pairing code registered with the current pairing socket. */
  private registeredCode: string | undefined;
  private closed = false;
  /**
   * What the link is for since the last sync or pairing: the row it was given says "pairing" until a
   * phone linked the instance, a session from then on (its copy of the row is older than that).
   */
  private purpose: 'pairing' | 'session' | 'none' = 'none';
  /** Work on the link runs one piece at a time: syncs, closes and reconnects never interleave. */
  private queue: Promise<unknown> = Promise.resolve();
  /** What the network reports goes to the gateway in the order it came. */
  private reports: Promise<unknown> = Promise.resolve();
  /** The credentials being written, and whether newer ones wait: written one after the other, the newest last. */
  private credsWrite: Promise<void> | undefined;
  private credsDirty = false;
  /** Edits and deletes this instance made itself, until the library reports them back (see `session`). */
  private readonly ownChanges = new Map<string, number>();
  private readonly log: Logger;

  constructor(
    private readonly deps: LinkDeps,
    instance: InstanceRecord,
    lease: Lease,
    private terms: LinkTerms,
  ) {
    this.instance = instance;
    this.lease = lease;
    this.log = deps.logger.child({ instanceId: deps.instanceId });
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => {});
    return run;
  }

  /** The instance's row (and lease) as they are now: pair, connect, log out, or let go, as they say. */
  sync(instance: InstanceRecord, lease: Lease, terms: LinkTerms): Promise<void> {
    return this.serial(async () => {
      if (this.closed) return;
      if (lease.token !== this.lease.token) this.deps.store.forget(this.deps.instanceId);
      // Another proxy: the open socket goes, and the one below connects through the new one (docs/settings.md, "Proxy").
      // A pairing the phone already completed keeps its socket: the session after its restart uses the new proxy.
      if (terms.proxy !== this.terms.proxy && this.live && !(this.live.mode === 'pairing' && this.live.paired)) this.retire();
      this.instance = instance;
      this.terms = terms;
      this.lease = lease;
      if (instance.logoutPending) {
        this.purpose = 'none';
        return this.logout();
      }
      if (instance.pairingSince !== null) {
        this.purpose = 'pairing';
        const since = instance.pairingSince.getTime();
        if (this.live?.mode !== 'pairing' || this.live.pairingSince !== since) await this.startPairing(since);
        return this.registerPairingCode();
      }
      if (instance.phone !== null && ['connecting', 'connected', 'disconnected'].includes(instance.state)) {
        // Already connected or on its way (just linked and about to restart, a retry scheduled, replaced
        // tries used up): nothing new to do.
        this.purpose = 'session';
        if (this.live?.mode === 'session' || this.live?.paired || this.retryTimer || this.replacedTries > REPLACED_RETRIES) return;
        return this.connect();
      }
      this.purpose = 'none';
      this.retire();
    });
  }

  /** Let go for good (detached, or it found another node holds the instance): a new lease needs a new link. */
  get detached(): boolean {
    return this.closed;
  }

  /** Open and carrying the session. */
  get connected(): boolean {
    return this.live?.mode === 'session' && this.live.openedAt !== undefined;
  }

  /** This node no longer owns the instance: the socket goes at once, without logging out. */
  detach() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.retire();
    this.deps.store.forget(this.deps.instanceId);
  }

  /** Best effort, before the instance is deleted: the network forgets the linked device. */
  async forget() {
    const live = this.live;
    if (live?.mode === 'session' && live.openedAt) await live.sock.logout().catch(() => {});
    this.detach();
  }

  /** Ends the current socket on purpose: what it reports from now on is ignored. */
  private retire() {
    const live = this.live;
    this.live = undefined;
    this.registeredCode = undefined;
    if (!live) return;
    live.releaseHandshake?.();
    for (const settle of live.acks.values()) settle('connection closed');
    live.acks.clear();
    live.sock.end(undefined).catch(() => {});
  }

  private isCurrent(live: Live) {
    return this.live === live && !this.closed;
  }

  /** A report the gateway must keep, retried while the database is away; refused for good (lease moved, instance gone or moved on): false. */
  private async report(what: string, work: () => Promise<unknown>): Promise<boolean> {
    try {
      await untilStored(work, { stopped: () => this.closed || this.deps.stopped() });
      return true;
    } catch (error) {
      if (error instanceof LeaseLost) this.leaseLost();
      else if (!(error instanceof Conflict) && !(error instanceof NotFound)) this.deps.report(error, `${what} of instance ${this.deps.instanceId}`);
      return false;
    }
  }

  /** A write was refused because another node took the instance: stop acting for it at once. */
  private leaseLost() {
    this.log.warn('another lease holds the instance now; closing its connection here');
    this.detach();
  }

  /**
   * The lease was not current when looked at: nothing is handed over under it, but the link stays and
   * tries again later (a lease can lapse for a moment and be renewed with the same token; one another
   * node took ends this link through placement).
   */
  private notHeldNow() {
    this.log.warn('the lease was not current; connecting again later');
    this.later(backoffMs(this.attempts++));
  }

  private keys() {
    return this.deps.store.keysFor(this.deps.instanceId, this.lease, () => this.leaseLost());
  }

  private socket(mode: Live['mode'], creds: AuthenticationCreds, pairingSince?: number): Live {
    this.retire();
    const live: Live = {
      mode,
      pairingSince,
      creds,
      qrShown: 0,
      paired: false,
      acks: new Map(),
      sock: undefined as unknown as WASocket,
      subjects: new GroupSubjects((jid) => live.sock.groupMetadata(jid)),
    };
    live.sock = this.deps.openSocket({
      creds,
      keys: this.keys(),
      logger: libraryLogger(this.log),
      fullHistory: this.terms.history.mode === 'full',
      proxy: this.terms.proxy,
      getMessage: async (key) => {
        const text = key.id ? await this.deps.sentText(key.id) : null;
        return text === null ? undefined : { conversation: text };
      },
    });
    this.live = live;
    const { ev } = live.sock;
    ev.on('connection.update', (update) => {
      if (!this.isCurrent(live)) return;
      if (update.qr) void this.qrCode(live, update.qr).catch((error: unknown) => this.deps.report(error, 'a QR code'));
      if (update.connection === 'open') void this.opened(live).catch((error: unknown) => this.deps.report(error, 'an open connection'));
      if (update.connection === 'close') {
        const error = update.lastDisconnect?.error as { output?: { statusCode?: number }; message?: string } | undefined;
        const close = closeOf(error?.output?.statusCode, error?.message ?? '', live.mode === 'pairing' && !live.paired);
        if (close.reason === 'untrusted_network') this.log.warn({ why: error?.message }, 'refused the server: it failed the network certificate checks');
        void this.serial(() => this.onClose(live, close)).catch((failure: unknown) => this.deps.report(failure, 'a closed connection'));
      }
    });
    ev.on('creds.update', (update) => {
      if (!this.isCurrent(live)) return;
      Object.assign(live.creds, update);
      // Kept from the moment a phone linked the device: everything before is a pairing that may not happen.
      if (live.creds.me && live.creds.account) this.saveCreds(live.creds);
      if (live.mode === 'pairing' && !live.paired && live.creds.account && live.creds.me) void this.paired(live);
    });
    wireReports(live, {
      isCurrent: () => this.isCurrent(live),
      networkEvents: () => this.terms.networkEvents,
      forward: (reports) => this.forward(reports),
      forwardLater: (reports) => this.forwardLater(reports),
      pushNameChanged: (jid, name) => this.deps.pushNames.changed(this.deps.instanceId, jid, name),
      isOwnEcho: (change, id) => this.isOwnEcho(change, id),
      votesIn: (messages) => this.votesIn(live, messages),
      mediaHosts: this.deps.mediaHosts,
      // History chunks come down through the instance's proxy, as its other media does.
      media: { open: (descriptor) => this.deps.media.open(descriptor, this.deps.instanceId) },
      historyPolicy: () => this.terms.history,
      log: this.log,
    });
    listenForAcks(live);
    return live;
  }

  /** Writes the credentials as they are, after any write in progress; a burst of changes is one more write. */
  private saveCreds(creds: AuthenticationCreds) {
    if (this.credsWrite) {
      this.credsDirty = true;
      return;
    }
    this.credsWrite = (async () => {
      do {
        this.credsDirty = false;
        await this.report('its credentials', () => this.deps.store.writeCreds(this.deps.instanceId, this.lease, creds));
      } while (this.credsDirty && !this.closed);
    })().finally(() => (this.credsWrite = undefined));
  }

  private async startPairing(since: number) {
    this.retire();
    // A new pairing starts from nothing: what an earlier one (or an earlier phone) left is gone.
    if (!(await this.report('clearing its engine state', () => this.deps.store.erase(this.deps.instanceId, this.lease)))) return;
    this.attempts = 0;
    this.socket('pairing', initAuthCreds(), since);
  }

  private async qrCode(live: Live, text: string) {
    const ttl = this.deps.qrTimeoutMs ?? (live.qrShown === 0 ? FIRST_QR_MS : NEXT_QR_MS);
    live.qrShown++;
    const kept = await this.report('a QR code', () => this.deps.events.qrCode(this.deps.instanceId, this.lease, { text, expiresAt: new Date(Date.now() + ttl) }));
    // The instance stopped pairing (linked elsewhere, logged out, a new pairing): this socket has no purpose.
    if (!kept) {
      return this.serial(async () => {
        if (this.live === live) this.retire();
      });
    }
    await this.serial(() => this.registerPairingCode());
  }

  /** A pairing code asked for is registered with the network on the pairing socket, once it shows codes. */
  private async registerPairingCode() {
    const live = this.live;
    const { pairingCode, pairingPhone, pairingCodeExpiresAt } = this.instance;
    if (live?.mode !== 'pairing' || live.qrShown === 0 || !pairingCode || !pairingPhone || pairingCodeExpiresAt) return;
    if (this.registeredCode === pairingCode) return;
    this.registeredCode = pairingCode;
    await live.sock.requestPairingCode(pairingPhone.replace(/\D/g, ''), pairingCode);
    const first = this.deps.qrTimeoutMs ?? FIRST_QR_MS;
    const next = this.deps.qrTimeoutMs ?? NEXT_QR_MS;
    const endsAt = (live.pairingSince ?? Date.now()) + first + next * (QR_CODES_PER_PAIRING - 1);
    await this.report('a pairing code', () => this.deps.events.pairingCodeReady(this.deps.instanceId, this.lease, pairingCode, new Date(Math.max(endsAt, Date.now() + next))));
  }

  private async paired(live: Live) {
    live.paired = true;
    this.purpose = 'session';
    const user = jidDecode(live.creds.me!.id)?.user;
    if (!user) return;
    await this.report('its pairing', () => this.deps.events.paired(this.deps.instanceId, this.lease, `+${user}`));
  }

  private async opened(live: Live) {
    live.openedAt = Date.now();
    live.releaseHandshake?.();
    await this.report('its connection', () => this.deps.events.connected(this.deps.instanceId, this.lease));
  }

  /** Opens the session socket from the stored state (or the credentials a pairing just got): the instance is paired. */
  private async connect(linked?: AuthenticationCreds) {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    // Through the node's bound on handshakes: a restart with many paired instances opens them a few at a
    // time, and what each reads to log in is read in its turn, not all at once ahead of the requests.
    const release = await this.deps.handshakes.acquire();
    let creds: AuthenticationCreds | null;
    try {
      // While it waited the link may have been let go, or another node may have taken the instance.
      if (this.closed || this.live) return release();
      // A node frozen past its lease must not log the device in again (it would knock the new owner's connection off).
      if (!(await this.deps.store.holds(this.lease))) {
        release();
        return this.notHeldNow();
      }
      creds = linked ?? (await this.deps.store.readCreds(this.deps.instanceId));
    } catch (error) {
      release();
      throw error;
    }
    if (!creds) {
      release();
      // Paired, yet nothing kept to log in with (erased elsewhere): it has to pair again.
      this.log.warn('no engine state to log in with; the instance has to be paired again');
      await this.report('its logout', () => this.deps.events.closed(this.deps.instanceId, this.lease, 'logged_out'));
      return;
    }
    this.socket('session', creds).releaseHandshake = release;
  }

  private later(ms: number) {
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.serial(async () => {
        if (this.closed || this.live) return;
        if (this.purpose === 'pairing' && this.instance.pairingSince !== null) return this.startPairing(this.instance.pairingSince.getTime());
        if (this.purpose === 'session') return this.connect();
      }).catch((error: unknown) => this.deps.report(error, 'a reconnect'));
    }, ms);
  }

  private async onClose(live: Live, close: Close) {
    if (!this.isCurrent(live)) return;
    this.live = undefined;
    live.releaseHandshake?.();
    // A connection that stayed open a while proved itself: the backoff starts again from its first step.
    if (live.openedAt && Date.now() - live.openedAt >= STABLE_MS) {
      this.attempts = 0;
      this.replacedTries = 0;
    }
    if (live.mode === 'session' && close.action !== 'stop') this.deps.onReconnect(close.reason);
    for (const settle of live.acks.values()) settle('connection closed');
    live.acks.clear();
    const closeReported = (reason: DisconnectReason) => this.report('a closed connection', () => this.deps.events.closed(this.deps.instanceId, this.lease, reason));
    // Linked by the phone: the network asks for a restart, and the session begins (once the credentials are kept).
    if (live.mode === 'pairing' && live.paired && close.action === 'restart') {
      await this.credsWrite;
      return this.connect(live.creds);
    }
    if (live.mode === 'pairing' && !live.paired) {
      if (close.reason === 'pairing_expired') return void (await closeReported('pairing_expired'));
      // The pairing socket fell for another reason: a new one shows new codes, after a pause.
      await closeReported(close.reason);
      return this.later(backoffMs(this.attempts++));
    }
    switch (close.action) {
      case 'restart':
        return this.connect();
      case 'stop':
        this.purpose = 'none';
        if (close.reason === 'logged_out') {
          await this.report('clearing its engine state', () => this.deps.store.erase(this.deps.instanceId, this.lease));
        }
        return void (await closeReported(close.reason));
      case 'replaced':
        await closeReported('replaced');
        // Another connection uses this device's state: a few slow tries, never a loop of knocking each other off.
        if (++this.replacedTries <= REPLACED_RETRIES) this.later(REPLACED_WAIT_MS + backoffMs(this.attempts++));
        else this.log.warn('replaced by another connection again; not reconnecting until the instance is taken over or the gateway restarts');
        return;
      case 'reconnect':
        await closeReported(close.reason);
        return this.later(backoffMs(this.attempts++));
    }
  }

  /** The logout a tenant asked for: the network is told (when connected), the state erased, the instance told. */
  private async logout() {
    const live = this.live;
    this.live = undefined;
    if (live?.mode === 'session' && live.openedAt) await live.sock.logout().catch(() => {});
    live?.sock.end(undefined).catch(() => {});
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    if (!(await this.report('clearing its engine state', () => this.deps.store.erase(this.deps.instanceId, this.lease)))) return;
    await this.report('its logout', () => this.deps.events.closed(this.deps.instanceId, this.lease, 'logged_out'));
  }

  private forward(reports: NetworkReports) {
    this.forwardLater(Promise.resolve(reports));
  }

  /** Reports still being worked out keep their place: each waits for the ones before it. */
  private forwardLater(reports: Promise<NetworkReports>) {
    this.reports = this.reports.then(async () => this.reported(await reports)).catch((error: unknown) => this.deps.report(error, 'network reports'));
  }

  private async reported(reports: NetworkReports) {
    const { events, instanceId } = this.deps;
    for (const message of reports.inbound) await this.report('a received message', () => events.inbound(instanceId, message));
    if (reports.receipts.length) await this.report('receipts', () => events.receipts(instanceId, reports.receipts));
    for (const { networkMessageId, text, at, byInstance } of reports.edits ?? []) {
      await this.report('an edit', () => events.edited(instanceId, networkMessageId, text, at, byInstance));
    }
    for (const { networkMessageId, deletedBy, forEveryone } of reports.deletes) {
      await this.report('a delete', () => events.deleted(instanceId, networkMessageId, deletedBy, forEveryone));
    }
    for (const vote of reports.votes ?? []) {
      await this.report('a poll vote', () => events.pollVote(instanceId, vote.pollNetworkMessageId, vote.voter, vote.options, vote.at));
    }
    for (const event of reports.events ?? []) await this.report(event.event, () => events.network(instanceId, event));
    // People first: a LID's number known before the history naming it is stored.
    if (reports.contacts?.length) await this.report('contacts', () => events.contacts(instanceId, reports.contacts!));
    for (const batch of reports.history ?? []) await this.report('a history batch', () => events.history(instanceId, batch));
  }

  /** The votes among received messages on polls this instance sent, opened with each poll's secret. */
  private async votesIn(live: Live, messages: WAMessage[]): Promise<OpenedVote[]> {
    const opened: OpenedVote[] = [];
    for (const sealed of sealedVotes(messages)) {
      const poll = await this.deps.pollOf(sealed.pollNetworkMessageId).catch((error: unknown) => {
        this.deps.report(error, 'reading a poll');
        return null;
      });
      if (!poll) continue;
      const vote = openVote(sealed, poll, [live.creds.me?.id, live.creds.me?.lid], () => null);
      if (vote) opened.push(vote);
      else this.log.warn({ poll: sealed.pollNetworkMessageId }, 'a vote on a poll could not be opened with its secret; it is not counted');
    }
    return opened;
  }

  /**
   * The open session an action runs on (actions.ts), under the current lease; `instance_unavailable`
   * when there is none here. What it relays waits for the network's acknowledgement, as sends do.
   */
  session(lease: Lease): ActionSession {
    const live = this.live;
    if (this.closed || !live || live.mode !== 'session' || !live.openedAt || lease.token !== this.lease.token) {
      throw new Conflict('instance_unavailable', 'The instance is not connected to the network right now; retry once it is.');
    }
    return {
      sock: live.sock,
      relay: (jid, content) => relayWithAck(live, jid, content),
      expectEcho: (change, id) => {
        const now = Date.now();
        for (const [key, until] of this.ownChanges) if (until < now) this.ownChanges.delete(key);
        this.ownChanges.set(`${change}:${id}`, now + ECHO_MS);
      },
    };
  }

  /** Whether a change the library reports is one this instance just made itself (reported once, by the action). */
  private isOwnEcho(change: OwnChange, networkMessageId: string): boolean {
    const key = `${change}:${networkMessageId}`;
    const until = this.ownChanges.get(key);
    if (until === undefined) return false;
    this.ownChanges.delete(key);
    return until >= Date.now();
  }

  /**
   * Hands messages to the network in order, each under its own network id, and answers what became
   * of them once the network acknowledged them (or refused them). None while the session is not open.
   */
  async send(messages: EngineMessage[], lease: Lease): Promise<SendOutcome[]> {
    const live = this.live;
    if (!live || live.mode !== 'session' || !live.openedAt || lease.token !== this.lease.token) return [];
    // The last look at the lease before anything leaves: a node that was frozen past it hands nothing over.
    // The connection stays: a lease that lapsed for a moment is renewed, and the next dispatch sends them.
    if (!(await this.deps.store.holds(lease))) throw new LeaseLost(this.deps.instanceId);
    return sendWithAcks(live, messages, { fetchMedia: this.deps.fetchMedia, stillCurrent: () => this.isCurrent(live), log: this.log });
  }
}
