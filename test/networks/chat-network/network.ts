import type { BinaryNode, proto } from 'baileys';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import { Accounts, type DeliveryObserver, type LinkedDevice } from './state/accounts.js';
import { issueNoiseCertificate, type NoiseCertificate } from './protocol/certificates.js';
import type { ConnectionHandlers } from './protocol/connection.js';
import { ClientConnection } from './state/client-connection.js';
import type { NetworkContext, NetworkOptions } from './state/context.js';
import { GroupMessages } from './handlers/group-messages.js';
import { GroupQueries } from './handlers/group-queries.js';
import { Groups } from './state/groups.js';
import { Inboxes } from './state/inbox.js';
import { IqAnswers } from './handlers/iq.js';
import { Journal } from './state/journal.js';
import type { MediaHost } from './state/media-host.js';
import { DeviceMessages } from './handlers/outbound.js';
import { Pairing } from './handlers/pairing.js';
import { Phones } from './handlers/phones.js';
import { Presence } from './handlers/presence.js';
import { Profiles } from './state/profiles.js';
import { DeviceReceipts } from './handlers/receipts.js';
import { Sessions } from './handlers/sessions.js';
import { HistorySyncs } from './handlers/history.js';
import { Calls } from './handlers/calls.js';
import { ReachOut } from './state/reach-out.js';
import { ReachOutAnswers } from './handlers/reach-out.js';

/**
 * The network's core: its state, its parts, and the routing of each client stanza to the part that
 * answers it. Transport (HTTP, WebSocket) lives in index.ts, the public API's types in api.ts.
 */
export class NetworkCore implements ConnectionHandlers {
  readonly ctx: NetworkContext;
  readonly journal = new Journal();
  readonly accounts = new Accounts();
  readonly inboxes: Inboxes;
  readonly pairing: Pairing;
  readonly phones: Phones;
  readonly sessions: Sessions;
  readonly messages: DeviceMessages;
  readonly receipts: DeviceReceipts;
  readonly iq: IqAnswers;
  readonly groups: Groups;
  readonly presence: Presence;
  readonly profiles: Profiles;
  readonly history: HistorySyncs;
  readonly calls: Calls;
  readonly reachOut = new ReachOut();
  readonly reachOutAnswers: ReachOutAnswers;
  readonly connections = new Set<ClientConnection>();
  private readonly certificate: NoiseCertificate;

  constructor(
    readonly media: MediaHost,
    readonly logger: Logger,
    options: NetworkOptions,
  ) {
    this.certificate = issueNoiseCertificate(options.certificateFlaw);
    this.inboxes = new Inboxes(media, this.journal, (jid) => this.accounts.resolve(jid)?.account.phone);
    const journal = this.journal;
    const observer: DeliveryObserver = {
      delivered(device, connection, node, offline) {
        if (node.tag !== 'message') return;
        const encs = ((node.content as BinaryNode[] | undefined) ?? []).filter((child) => child.tag === 'enc');
        journal.recordDelivered({
          connectionId: connection.id,
          phone: device.phone,
          deviceId: device.id,
          id: node.attrs.id ?? '',
          from: node.attrs.from ?? '',
          encType: encs.map((enc) => enc.attrs.type).join('+') || null,
          offline,
          at: new Date(),
        });
      },
      failed: (device, item, error) =>
        logger.warn({ err: error, phone: device.phone, device: device.id, key: item?.key }, 'could not deliver to a device'),
    };
    this.ctx = {
      options,
      logger,
      accounts: this.accounts,
      journal: this.journal,
      inboxes: this.inboxes,
      media,
      reachOut: this.reachOut,
      observer,
      deviceLinked: (device) => this.deviceLinked(device),
      deviceLoggedIn: (device) => this.history.loggedIn(device),
    };
    this.pairing = new Pairing(this.ctx);
    this.groups = new Groups(this.ctx);
    this.phones = new Phones(this.ctx, this.groups);
    this.sessions = new Sessions(this.ctx, this.pairing);
    this.messages = new DeviceMessages(this.ctx, this.phones);
    this.receipts = new DeviceReceipts(this.ctx, this.phones);
    this.messages.groups = new GroupMessages(this.ctx, this.groups, this.messages);
    this.history = new HistorySyncs(this.ctx, this.phones);
    this.messages.peerRequest = (device, message, id) => this.history.peerRequest(device, message, id);
    this.presence = new Presence(this.ctx, (jid) => {
      const group = this.groups.get(jid);
      return group && [...group.members.values()].map((member) => member.account);
    });
    this.profiles = new Profiles(this.ctx);
    this.calls = new Calls(this.ctx);
    const groupQueries = new GroupQueries(this.ctx, this.groups);
    this.reachOutAnswers = new ReachOutAnswers(this.ctx);
    this.iq = new IqAnswers(this.ctx, this.pairing, {
      'w:mex': (iq, connection) => this.reachOutAnswers.query(iq, connection),
      'w:g2': (iq, connection) => groupQueries.answer(iq, connection),
      'w:profile:picture': (iq, connection) => this.profiles.pictureQuery(iq, connection.device!.account),
    });
  }

  accept(ws: WebSocket): void {
    const connection = new ClientConnection(ws, this.certificate, this, this.logger);
    this.connections.add(connection);
    this.journal.changed();
  }

  helloReceived(): void {
    this.journal.hellos++;
    this.journal.changed();
    const inFlight = [...this.connections].filter((connection) => connection.inHandshake).length;
    this.journal.handshakesInFlight = inFlight;
    this.journal.maxHandshakesInFlight = Math.max(this.journal.maxHandshakesInFlight, inFlight);
  }

  async authenticated(connection: ClientConnection, payload: proto.ClientPayload): Promise<void> {
    this.journal.handshakesFinished++;
    this.journal.handshakesInFlight = [...this.connections].filter((item) => item.inHandshake).length;
    this.sessions.authenticated(connection, payload);
  }

  closed(connection: ClientConnection): void {
    this.connections.delete(connection);
    this.journal.handshakesInFlight = [...this.connections].filter((item) => item.inHandshake).length;
    this.sessions.closed(connection);
  }

  async node(connection: ClientConnection, node: BinaryNode): Promise<void> {
    const device = connection.device;
    switch (node.tag) {
      case 'iq': {
        if (node.attrs.type === 'result' || node.attrs.type === 'error') {
          this.pairing.iqResult(connection, node);
          return;
        }
        const answer = await this.iq.answer(node, connection);
        if (answer) connection.send(answer);
        return;
      }
      case 'message':
        if (device) await this.messages.handle(connection, device, node);
        return;
      case 'receipt':
        if (device) await this.receipts.receipt(connection, device, node);
        return;
      case 'ack':
        if (device) this.receipts.ack(device, node);
        return;
      case 'call':
        if (device) connection.send(this.calls.fromDevice(device, node));
        return;
      case 'presence':
      case 'chatstate':
        if (device) this.presence.fromDevice(device, node);
        return;
      default:
        // `ib` (unified_session, offline_batch): nothing to answer.
        this.logger.trace({ tag: node.tag, attrs: node.attrs }, 'stanza without an answer');
        return;
    }
  }

  /** Other devices of the account learn of the new one (`devices` notification); held messages go to it. */
  private deviceLinked(device: LinkedDevice) {
    const account = device.account;
    for (const sibling of account.linkedDevices()) {
      if (sibling === device) continue;
      const id = `${Date.now()}${device.id}`;
      sibling.hold({
        key: `n:${id}`,
        node: {
          tag: 'notification',
          attrs: { from: account.jid('pn'), type: 'devices', id, t: `${Math.floor(Date.now() / 1000)}` },
          content: [
            {
              tag: 'add',
              attrs: {},
              content: [{ tag: 'device', attrs: { jid: device.jid('pn'), 'key-index': `${device.identity.keyIndex}` } }],
            },
          ],
        },
      });
    }
    this.phones.deliverHeld(device);
    this.journal.changed();
  }

  close(): void {
    for (const connection of this.connections) connection.drop();
    this.journal.removeAllListeners();
  }
}
