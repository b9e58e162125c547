import type { ChatEngine, DisconnectReason, EngineEvents, InstanceSession, LinkTerms } from '../../domain/network/engine.port.js';
import { Conflict } from '../../domain/errors.js';
import { baileysActions } from './actions.js';
import { baileysGroupActions } from './group-actions.js';
import { baileysChatActions } from './chat-actions.js';
import { HandshakeGate } from './handshake-gate.js';
import type { InstanceRecord } from '../../domain/instances/instances.ports.js';
import type { Lease } from '../../domain/ownership/lease.js';
import type { Logger } from '../../infra/logger.js';
import type { EngineStateStore } from './auth-state.js';
import { InstanceLink } from './connection.js';
import type { mediaFetcher } from './outbound.js';
import { mediaAgent, type NetworkSettings, socketFactory } from './socket.js';
import { baileysMediaSource } from './media-source.js';
import { DEFAULT_MEDIA_HOST, MediaHosts } from './media-hosts.js';
import { PushNames } from './session-events.js';
import { quietSignalConsole } from './quiet-signal.js';
import { ProxyAgents } from './proxy-agents.js';

export const BAILEYS_INTEGRATION = 'CHAT-BAILEYS';

/**
 * CHAT-BAILEYS: the multi-device web protocol through `baileys`, one linked device per instance, loaded
 * only when ENGINES offers it (the library is large; its signal dependency is GPL-3.0). Each session
 * holds a link (connection.ts).
 */
export function createBaileysEngine(deps: {
  store: EngineStateStore;
  network: NetworkSettings;
  fetchMedia: ReturnType<typeof mediaFetcher>;
  /** Received files may be fetched from loopback and private addresses (a local network; WEBHOOK_ALLOW_INSECURE). */
  allowInsecureMedia: boolean;
  /** The text of a message an instance sent, by the network's id of it (for a retry receipt). */
  sentText: (instanceId: string, networkMessageId: string) => Promise<string | null>;
  /** A poll an instance sent, by the network's id of it: its secret and options (to open votes on it). */
  pollOf: (instanceId: string, networkMessageId: string) => Promise<{ secret: Buffer; options: string[] } | null>;
  /** An instance's proxy URL (with its credentials), read from where it is kept: any node downloads its media through it. */
  proxyOf: (instanceId: string) => Promise<string | null>;
  /** Handshakes in flight on this node at most (CHAT_HANDSHAKES_MAX). */
  maxHandshakes: number;
  /** A connection closed and will be opened again, for this reason (metrics). */
  onReconnect?: (reason: DisconnectReason) => void;
  logger: Logger;
  report: (error: unknown, what: string) => void;
}) {
  quietSignalConsole(deps.logger);
  const agent = mediaAgent(deps.network);
  const proxies = new ProxyAgents(deps.network.caPem, deps.allowInsecureMedia);
  const openSocket = socketFactory(deps.network, agent, proxies);
  // A local network (CHAT_NETWORK_URL) has no default media host: only the hosts it announces.
  const mediaHosts = new MediaHosts(deps.network.url ? null : DEFAULT_MEDIA_HOST);
  const media = baileysMediaSource({
    agent,
    hosts: mediaHosts,
    allowInsecure: deps.allowInsecureMedia,
    agentOf: async (instanceId) => {
      const proxy = await deps.proxyOf(instanceId);
      return proxy ? proxies.of(proxy) : null;
    },
  });
  /** The links open on this node (connection counts, and shutdown). */
  const links = new Set<InstanceLink>();
  const pushNames = new PushNames();
  const handshakes = new HandshakeGate(deps.maxHandshakes);
  const onReconnect = deps.onReconnect ?? (() => {});
  let events: EngineEvents | undefined;
  let stopped = false;
  const log = deps.logger.child({ engine: BAILEYS_INTEGRATION });

  function newLink(instance: InstanceRecord, lease: Lease, terms: LinkTerms): InstanceLink {
    const link = new InstanceLink(
      {
        instanceId: instance.id,
        events: events!,
        store: deps.store,
        openSocket,
        fetchMedia: deps.fetchMedia,
        mediaHosts,
        media,
        sentText: (networkMessageId) => deps.sentText(instance.id, networkMessageId),
        pollOf: (networkMessageId) => deps.pollOf(instance.id, networkMessageId),
        qrTimeoutMs: deps.network.qrTimeoutMs,
        pushNames,
        handshakes,
        onReconnect,
        logger: log,
        report: deps.report,
        stopped: () => stopped,
      },
      instance,
      lease,
      terms,
    );
    links.add(link);
    return link;
  }

  /** One instance's session under one lease: its link, replaced when the link let go by itself (a write refused). */
  async function attach(instance: InstanceRecord, lease: Lease, terms: LinkTerms): Promise<InstanceSession> {
    let link = newLink(instance, lease, terms);
    const letGo = () => {
      link.detach();
      links.delete(link);
    };
    const open = () => {
      if (stopped) throw new Conflict('instance_unavailable', 'The instance is not connected to the network right now; retry once it is.');
      return link.session(lease);
    };
    const session: InstanceSession = {
      ...baileysActions(open),
      ...baileysGroupActions(() => open().sock),
      ...baileysChatActions(open),
      async update(instance, terms) {
        if (stopped) return;
        if (link.detached) {
          links.delete(link);
          link = newLink(instance, lease, terms);
        }
        await link.sync(instance, lease, terms);
      },
      send: (messages) => link.send(messages, lease),
      // No `holding`: a repeated hand-off carries the same network id, which the network drops as a repeat.
      detach: letGo,
      async forget() {
        await link.forget();
        links.delete(link);
        pushNames.forget(instance.id);
      },
    };
    return session;
  }

  const engine: ChatEngine = {
    integration: BAILEYS_INTEGRATION,
    attach,
    media,
  };

  return {
    engine,
    connect(handlers: EngineEvents) {
      events = handlers;
    },
    /** Connections of this node: open, handshaking, and waiting for a handshake slot. */
    counts() {
      let connected = 0;
      for (const link of links) if (link.connected) connected++;
      const { inFlight, waiting } = handshakes.counts;
      return { connected, connecting: inFlight, waiting };
    },
    /** Every link lets go (shutdown: the leases go to other nodes, which resume the sessions). */
    stop() {
      stopped = true;
      for (const link of links) link.detach();
      links.clear();
      agent.destroy();
      proxies.destroy();
    },
  };
}

export type BaileysNetwork = ReturnType<typeof createBaileysEngine>;
