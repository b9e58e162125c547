import { DomainError } from '../errors.js';
import { mediaKeptEvent } from '../events/message-payloads.js';
import type { InstanceStore } from '../instances/instances.ports.js';
import type { MessageRecord, MessageStore } from '../messages/messages.ports.js';
import type { EngineRegistry } from '../network/engine.port.js';
import type { Clock } from '../ports.js';
import type { KeptMediaStore } from './kept-media.port.js';
import { DEFAULT_MEDIA_POLICY, keepsKind, type MediaPolicy, mediaPolicyOf } from './keep-policy.js';
import { MAX_MEDIA_BYTES } from './limits.js';
import type { MediaProbe } from './media-probe.js';
import { asDescriptor, INBOUND_MEDIA_TYPES } from './media-source.js';
import { MediaKeepError, type MediaStore } from './media-store.port.js';

/** Waits before attempt 2, 3, …: after the last, a file still not kept is failed (docs/media.md, "Retries"). */
export const KEEP_RETRY_DELAYS_MS = [2_000, 10_000, 60_000, 300_000, 1_800_000];
/** Files kept at once on one node. */
const KEEPING_AT_ONCE = 4;
/** How long a claimed message is this node's: a node that dies with it leaves it to the next sweep after this. */
const CLAIM_LEASE_MS = 5 * 60_000;

/** Why a file was not kept, and whether trying again could change that (the network's copy is gone or false, or too large: no). */
function reasonOf(error: unknown): { code: string; message: string; final: boolean } {
  if (error instanceof MediaKeepError) return { code: error.code, message: error.message, final: error.code === 'media_too_large' || error.code === 'media_missing' };
  if (error instanceof DomainError && (error.code === 'media_expired' || error.code === 'media_invalid')) return { code: error.code, message: error.message, final: true };
  const why = error instanceof Error ? error.message : String(error);
  return { code: 'media_unavailable', message: `The file could not be fetched to keep it: ${why}`, final: false };
}

async function* once(bytes: Uint8Array) {
  yield bytes;
}

/** The kind of file a message carries (its policy's word for it), or null when it carries none. */
export function keptKindOf(message: Pick<MessageRecord, 'direction' | 'type' | 'media' | 'mediaType'>): string | null {
  if (message.direction === 'in') return asDescriptor(message.media)?.type ?? null;
  return message.mediaType && (INBOUND_MEDIA_TYPES as readonly string[]).includes(message.type) ? message.type : null;
}

export type MediaKeeper = ReturnType<typeof createMediaKeeper>;

/**
 * Keeps received and sent media in the media store (docs/media.md): a message is marked
 * pending when it is stored, kept at once after that commits, and retried by the sweep with backoff.
 */
export function createMediaKeeper(deps: {
  kept: KeptMediaStore;
  messages: MessageStore;
  instances: InstanceStore;
  engines: EngineRegistry;
  probe: MediaProbe;
  /** Null when MEDIA_STORE=off: nothing is marked pending, nothing kept. */
  store: MediaStore | null;
  /** The gateway's default (MEDIA_KEEP, MEDIA_MAX_BYTES), for instances without a policy of their own. */
  policy?: MediaPolicy;
  clock: Clock;
  report: (error: unknown, context: string) => void;
}) {
  const fallback = deps.policy ?? DEFAULT_MEDIA_POLICY;
  const waiting: Array<{ id: string; claimed: boolean }> = [];
  const running = new Set<Promise<void>>();
  const retries = new Set<ReturnType<typeof setTimeout>>();
  let stopped = false;

  /** The file's bytes and type: from the network (received), the URL it was sent from, or the upload kept with it. */
  async function open(message: MessageRecord, engine: string | null) {
    const descriptor = asDescriptor(message.media);
    if (message.direction === 'in' && descriptor) {
      const source = engine ? deps.engines.of(engine)?.media : undefined;
      if (!source) throw new MediaKeepError('media_unavailable', 'The engine that received this media is not offered by this gateway now.');
      return { bytes: (await source.open(descriptor, message.instanceId ?? undefined)).bytes, mimetype: descriptor.mimetype };
    }
    if (message.mediaUrl) {
      const fetched = await deps.probe.fetch(message.mediaUrl, MAX_MEDIA_BYTES);
      return { bytes: once(fetched.bytes), mimetype: message.mediaType ?? fetched.contentType };
    }
    const file = await deps.messages.fileOf(message.id);
    if (!file) throw new MediaKeepError('media_missing', 'The message no longer has the file it was sent with.');
    return { bytes: once(file), mimetype: message.mediaType ?? 'application/octet-stream' };
  }

  /** One attempt at a claimed message: stored, or failed (for now or for good), each with its messages.update. */
  async function attempt(id: string) {
    const message = await deps.messages.findById(id);
    if (!message || message.mediaState !== 'pending') return;
    const instance = message.instanceId ? await deps.instances.findById(message.instanceId) : null;
    const policy = instance ? mediaPolicyOf(instance, fallback) : fallback;
    const kind = keptKindOf(message);
    if (!deps.store || !kind || !keepsKind(policy, kind)) return deps.kept.dropped(id);
    try {
      const file = await open(message, instance?.engine ?? null);
      const { sha256, size } = await deps.store.put(file.bytes, { maxBytes: policy.maxBytes, contentType: file.mimetype });
      if (!(await deps.kept.hold({ sha256, size, mimetype: file.mimetype }))) {
        throw new MediaKeepError('media_store_failed', 'The media sweep removed these bytes while they were being kept; they are put again.');
      }
      await deps.kept.stored(message, { sha256, size, mimetype: file.mimetype }, [mediaKeptEvent(id, { stored: true, sha256, size })]);
    } catch (error) {
      const reason = reasonOf(error);
      const delay = reason.final ? undefined : KEEP_RETRY_DELAYS_MS[message.mediaAttempts];
      const retryAt = delay === undefined ? null : new Date(deps.clock.now().getTime() + delay);
      const told = { code: reason.code, message: reason.message };
      await deps.kept.failed(message, told, retryAt, [mediaKeptEvent(id, { stored: false, error: told, ...(retryAt ? { retryAt: retryAt.toISOString() } : {}) })]);
      // Tried again here when due; the sweep takes it instead if this node stops first.
      if (delay !== undefined) later(id, delay);
    }
  }

  function later(id: string, delay: number) {
    const timer = setTimeout(() => {
      retries.delete(timer);
      keeper.keep(id);
    }, delay);
    timer.unref();
    retries.add(timer);
  }

  async function work(item: { id: string; claimed: boolean }) {
    const claimed = item.claimed || (await deps.kept.claim({ messageId: item.id, limit: 1, leaseMs: CLAIM_LEASE_MS })).length > 0;
    if (claimed) await attempt(item.id);
  }

  function pump() {
    while (!stopped && running.size < KEEPING_AT_ONCE && waiting.length > 0) {
      const item = waiting.shift()!;
      const job: Promise<void> = work(item)
        .catch((error: unknown) => deps.report(error, `keeping the media of message ${item.id}`))
        .finally(() => {
          running.delete(job);
          pump();
        });
      running.add(job);
    }
  }

  const keeper = {
    /** Whether a new message of `kind` is marked pending: a store is configured and the instance's policy keeps the kind. */
    stateFor(instance: { mediaPolicy: unknown } | null, kind: string | null): 'pending' | null {
      if (!deps.store || !kind) return null;
      return keepsKind(instance ? mediaPolicyOf(instance, fallback) : fallback, kind) ? 'pending' : null;
    },

    /** Keeps the message's media soon (its row is committed pending); at most KEEPING_AT_ONCE at once on this node. */
    keep(messageId: string) {
      if (!deps.store || stopped) return;
      waiting.push({ id: messageId, claimed: false });
      pump();
    },

    /** The sweep: claims due pending messages (retries, and those a crash or a restart left) for the free places. Whether it found any. */
    async sweep(): Promise<boolean> {
      if (!deps.store || stopped) return false;
      const free = KEEPING_AT_ONCE - running.size - waiting.length;
      if (free <= 0) return true;
      if (!(await deps.kept.anyDue())) return false;
      const ids = await deps.kept.claim({ limit: free, leaseMs: CLAIM_LEASE_MS });
      for (const id of ids) waiting.push({ id, claimed: true });
      pump();
      return ids.length > 0;
    },

    /** Takes no more work and waits for the attempts under way (before the store closes). */
    async stop() {
      stopped = true;
      waiting.length = 0;
      for (const timer of retries) clearTimeout(timer);
      retries.clear();
      await Promise.all([...running]);
    },
  };
  return keeper;
}
