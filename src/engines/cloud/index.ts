import pLimit from 'p-limit';
import type { ChatEngine, EngineEvents, InstanceSession } from '../../domain/network/engine.port.js';
import type { EngineMessage, SendOutcome } from '../../domain/network/engine-messages.js';
import type { InstanceRecord } from '../../domain/instances/instances.ports.js';
import type { CloudCredentials } from './credentials-input.js';
import type { Lease } from '../../domain/ownership/lease.js';
import type { Logger } from '../../infra/logger.js';
import { MediaExpired, type MediaSource } from '../../domain/media/media-source.js';
import { Unavailable } from '../../domain/errors.js';
import { actionOf, messageError } from './api-errors.js';
import type { CloudCredentialStore } from './credentials.js';
import { createGraphApi, type GraphResult, type GraphSettings } from './graph-api.js';
import { createCloudActions } from './actions.js';
import { messageBody, NoApiBody } from './message-body.js';
import { createPace } from './pace.js';

export const CLOUD_INTEGRATION = 'CHAT-CLOUD';

/** Waits before trying again after a rate limit or an outage: 1 s doubling to 60 s, with jitter. */
const BACKOFF_FIRST_MS = 1000;
const BACKOFF_MAX_MS = 60_000;

/** Requests to the API in flight at once, across the instances of this node. */
const SENDS_IN_FLIGHT = 16;

interface Link {
  readonly lease: Lease;
  /** This node let go of the instance: nothing more starts for it. */
  detached: boolean;
  credentials: CloudCredentials | null;
  /** Attach calls of one instance run one after another. */
  chain: Promise<void>;
  /** No send before this time (a rate limit or an outage is being waited out). */
  pausedUntil: number;
  failures: number;
  timer?: NodeJS.Timeout;
  /** The API's ids of files uploaded for messages not yet sent (a send held back by a limit does not upload again). */
  uploaded: Map<string, string>;
}

/**
 * CHAT-CLOUD: the official business HTTP API. No connection to hold: the owner checks an instance's
 * credentials with the API when given and POSTs its messages at most CLOUD_MPS a second; what the
 * network reports comes by webhook, on any node (webhook-receiver.ts).
 */
export function createCloudEngine(deps: {
  credentials: CloudCredentialStore;
  api: GraphSettings;
  messagesPerSecond: number;
  /** The network's id of the last message a chat sent the instance (the typing indicator rides on it). */
  lastReceived: (instanceId: string, chat: string) => Promise<string | null>;
  logger: Logger;
  report: (error: unknown, what: string) => void;
}) {
  const graph = createGraphApi(deps.api);
  const pace = createPace(deps.messagesPerSecond);
  const inFlight = pLimit(SENDS_IN_FLIGHT);
  /** The links open on this node (their timers stop with the engine). */
  const open = new Set<Link>();
  const log = deps.logger.child({ engine: CLOUD_INTEGRATION });
  let events: EngineEvents | undefined;
  let tell: (instanceId: string) => void = () => {};
  let stopped = false;

  /** Later, the owner looks at the instance again (and dispatches its queue). */
  function later(instanceId: string, link: Link) {
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** link.failures) * (0.75 + Math.random() * 0.5);
    link.failures = Math.min(link.failures + 1, 10);
    link.pausedUntil = Date.now() + delay;
    clearTimeout(link.timer);
    link.timer = setTimeout(() => {
      if (!stopped && !link.detached) tell(instanceId);
    }, delay);
    link.timer.unref();
  }

  /** The credentials checked with the API: connected as the number's phone, or refused with the API's reason. */
  async function check(instance: InstanceRecord, link: Link, credentials: CloudCredentials) {
    const answer = await graph.number(credentials);
    if (answer.ok) {
      link.failures = 0;
      await events!.verified(instance.id, link.lease, answer.value.phone);
      return;
    }
    const action = actionOf(answer.failure);
    if (action === 'retry') {
      log.warn({ instanceId: instance.id, status: answer.failure.status, code: answer.failure.code }, 'the API could not check the credentials; trying again');
      return later(instance.id, link);
    }
    log.info({ instanceId: instance.id, code: answer.failure.code, reason: answer.failure.message }, 'the API refused the credentials');
    await events!.closed(instance.id, link.lease, 'credentials_rejected');
  }

  async function sync(instance: InstanceRecord, link: Link) {
    if (instance.logoutPending) {
      // Nothing to tell the API: the instance stops sending until it is given credentials again.
      await events!.closed(instance.id, link.lease, 'logged_out');
      return;
    }
    // Saved just after the instance (the create tells the owner again once they are).
    const credentials = await deps.credentials.read(instance.id);
    if (!credentials) return;
    link.credentials = credentials;
    if (instance.pairingSince !== null || instance.state === 'connecting') await check(instance, link, credentials);
  }

  /**
   * Received files stay with the API: a download asks it for a fresh URL with the receiving
   * instance's token, then streams the bytes. A media id the API no longer knows has expired.
   */
  const media: MediaSource = {
    async open(descriptor) {
      const source = descriptor.source as { instanceId?: unknown; mediaId?: unknown } | null;
      const instanceId = typeof source?.instanceId === 'string' ? source.instanceId : null;
      const mediaId = typeof source?.mediaId === 'string' ? source.mediaId : null;
      const credentials = instanceId && mediaId ? await deps.credentials.read(instanceId) : null;
      if (!credentials || !mediaId) throw new MediaExpired();
      const located = await graph.mediaUrl(credentials, mediaId);
      if (!located.ok) {
        if (located.failure.status === null || located.failure.status >= 500) throw new Unavailable(`The business API could not be reached for the media (${located.failure.message}).`);
        throw new MediaExpired();
      }
      const file = await graph.download(credentials, located.value.url).catch((error: unknown) => {
        throw new Unavailable(`The business API's media host could not be reached (${(error as Error).message}).`);
      });
      if (!file.bytes) {
        if (file.status >= 500) throw new Unavailable(`The business API's media host answered HTTP ${file.status}.`);
        throw new MediaExpired();
      }
      return { bytes: file.bytes, size: file.size };
    },
  };

  /**
   * One message to the API: a file given as bytes is uploaded first and sent by the id the API gives
   * it (the API's reference), anything else by its documented body. `ready` is awaited just before the send (the pace).
   */
  async function deliver(link: Link, credentials: CloudCredentials, message: EngineMessage, ready: () => Promise<() => void>): Promise<GraphResult<{ wamid: string }>> {
    let mediaId: string | undefined;
    if (message.mediaData && !message.mediaUrl) {
      mediaId = link.uploaded.get(message.messageId);
      if (mediaId === undefined) {
        const upload = await graph.upload(credentials, {
          bytes: message.mediaData,
          mimeType: message.mediaType ?? 'application/octet-stream',
          fileName: message.fileName ?? message.type,
        });
        if (!upload.ok) return upload;
        link.uploaded.set(message.messageId, (mediaId = upload.value.id));
      }
    }
    const body = messageBody(message, mediaId);
    const answered = await ready();
    return graph.send(credentials, body).finally(answered);
  }

  /** One instance's link under one lease: its credentials checked, its messages POSTed. */
  async function attach(instance: InstanceRecord, lease: Lease): Promise<InstanceSession> {
    const link: Link = { lease, detached: false, credentials: null, chain: Promise.resolve(), pausedUntil: 0, failures: 0, uploaded: new Map() };
    open.add(link);
    const detach = () => {
      link.detached = true;
      open.delete(link);
      clearTimeout(link.timer);
      if (link.credentials) pace.forget(link.credentials.phoneNumberId);
    };
    const session: InstanceSession = {
      ...createCloudActions({
        graph,
        credentials: () => (link.detached ? null : link.credentials),
        lastReceived: (chat) => deps.lastReceived(instance.id, chat),
        tokenExpired: () => events!.closed(instance.id, link.lease, 'token_expired'),
      }),
      async update(row) {
        if (stopped || link.detached) return;
        const run = link.chain.then(() => sync(row, link));
        link.chain = run.catch(() => {});
        await run;
      },
      async send(messages) {
        if (!link.credentials || Date.now() < link.pausedUntil) return [];
        const credentials = link.credentials;
        const decided = new Map<string, SendOutcome>();
        /** Set by a limit, an outage or the token: nothing more starts; what is in flight finishes. */
        let halted: 'retry' | 'token' | null = null;
        // One recipient's messages go one after another, in order; different recipients' in parallel.
        const lanes = new Map<string, EngineMessage[]>();
        for (const message of messages) lanes.set(message.to, [...(lanes.get(message.to) ?? []), message]);
        await Promise.all(
          [...lanes.values()].map((lane) =>
            inFlight(async () => {
              for (const message of lane) {
                if (halted || stopped || link.detached) return;
                let answer: GraphResult<{ wamid: string }>;
                try {
                  answer = await deliver(link, credentials, message, () => pace.take(credentials.phoneNumberId));
                } catch (error) {
                  if (!(error instanceof NoApiBody)) throw error;
                  // The domain refuses such kinds before storing them; one queued before the engine changed fails here.
                  decided.set(message.messageId, { messageId: message.messageId, failed: { code: 'not_supported', message: `${CLOUD_INTEGRATION} cannot send a ${error.kind} message.` } });
                  continue;
                }
                if (answer.ok || actionOf(answer.failure) === 'fail') link.uploaded.delete(message.messageId);
                if (answer.ok) {
                  link.failures = 0;
                  decided.set(message.messageId, { messageId: message.messageId, networkMessageId: answer.value.wamid });
                  continue;
                }
                const action = actionOf(answer.failure);
                if (action === 'fail') {
                  decided.set(message.messageId, { messageId: message.messageId, failed: messageError(answer.failure) });
                  continue;
                }
                if (!halted) log.warn({ instanceId: instance.id, status: answer.failure.status, code: answer.failure.code }, action === 'retry' ? 'the API is not taking messages now; the queue waits' : 'the access token no longer works; disconnected until a new one is given');
                halted = halted === 'token' ? 'token' : action;
                return;
              }
            }),
          ),
        );
        if (halted === 'retry') later(instance.id, link);
        if (halted === 'token') {
          // The rest stays queued for a new token.
          try {
            await events!.closed(instance.id, link.lease, 'token_expired');
          } catch (error) {
            deps.report(error, `disconnecting instance ${instance.id}`);
          }
        }
        return messages.flatMap((message) => decided.get(message.messageId) ?? []);
      },
      // No `holding`: the API has no way to ask which messages it holds; a repeat after a takeover is not detected.
      detach,
      async forget() {
        detach();
      },
    };
    return session;
  }

  const engine: ChatEngine = { integration: CLOUD_INTEGRATION, media, attach };

  return {
    engine,
    /** A read mark with the instance's credentials, from any node (autoRead on received messages). */
    markRead: (credentials: CloudCredentials, messageId: string) => graph.markRead(credentials, messageId, false),
    connect(handlers: EngineEvents, owners: { tell: (instanceId: string) => void }) {
      events = handlers;
      tell = owners.tell;
    },
    stop() {
      stopped = true;
      for (const link of open) clearTimeout(link.timer);
      open.clear();
      void graph.close().catch(() => {});
    },
  };
}

export type CloudNetwork = ReturnType<typeof createCloudEngine>;
