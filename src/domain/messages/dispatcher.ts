import type { ChatEngine, EngineRegistry, InstanceSession } from '../network/engine.port.js';
import type { EngineMessage, MessageRef, MessageTemplate, SendOutcome } from '../network/engine-messages.js';
import { can } from '../network/capabilities.js';
import { GATEWAY_ERRORS } from './message-error.js';
import { digits } from '../phone.js';
import { type Ownership } from '../ownership/ownership.js';
import { type Lease, LeaseLost } from '../ownership/lease.js';
import { type SendingSettings, storedSettingsOf } from '../settings/instance-settings.js';
import { chatIdOfRecipient, isGroupChat } from '../conversations/chat-id.js';
import type { Clock } from '../ports.js';
import { statusEvent, upsertEvent } from '../events/message-payloads.js';
import type { MessageRecord, MessageStore, SendingInstance, SendingPace } from './messages.ports.js';

export type Dispatcher = ReturnType<typeof createDispatcher>;

/** Messages handed to the engine per read of the queue and marked sent per write. */
const BATCH_SIZE = 100;

const HOUR_MS = 60 * 60 * 1000;

/**
 * Pacing off (the default) leaves the queue to go out in batches, as fast as the engine takes it.
 * Typing goes one message a turn too: the engine types each text before it sends it.
 */
const isPaced = (pacing: SendingSettings) => pacing.minIntervalMs > 0 || pacing.jitterMs > 0 || pacing.newContactsPerHour !== null || pacing.typing;

/** The wait before the next message: the minimum plus a random part of the jitter. */
const gapOf = (pacing: SendingSettings) => pacing.minIntervalMs + Math.floor(Math.random() * (pacing.jitterMs + 1));

const chatOf = (message: MessageRecord) => message.chatId ?? chatIdOfRecipient(message.to);

/** The message a reply quotes or a reaction targets, as accept stored it (outbound-content.ts). */
const refOf = (value: unknown): MessageRef | null => {
  const stored = value as { ref?: MessageRef } | null;
  return stored?.ref ?? null;
};

const engineMessage = (message: MessageRecord, mediaData: Buffer | null, typing: boolean): EngineMessage => {
  const reaction = message.reaction as { emoji: string; ref: MessageRef } | null;
  return {
    messageId: message.id,
    to: message.to,
    type: message.type as EngineMessage['type'],
    text: message.text,
    ...(typing ? { typing } : {}),
    mediaUrl: message.mediaUrl,
    mediaType: message.mediaType,
    mediaData,
    fileName: message.fileName,
    voice: message.voice,
    caption: message.caption,
    template: message.type === 'template' ? (message.content as unknown as MessageTemplate) : null,
    mentions: (message.mentions as string[] | null) ?? [],
    quoted: refOf(message.quoted),
    location: message.location as EngineMessage['location'],
    contacts: message.contacts as EngineMessage['contacts'],
    reaction: reaction ? { target: reaction.ref, emoji: reaction.emoji } : null,
    poll: message.poll ? { ...pollAsSent(message.poll)!, secret: message.pollSecret ? Buffer.from(message.pollSecret) : null } : null,
  };
};

/** A poll's question and options as sent (the stored poll also carries its tally). */
function pollAsSent(value: unknown): EngineMessage['poll'] {
  const poll = value as { name: string; options: Array<{ name: string }>; selectableCount?: number };
  return { name: poll.name, options: poll.options.map((option) => option.name), selectableCount: poll.selectableCount ?? 1 };
}

/** What a template sent through an engine that has none fails with. */

/**
 * Hands an owned instance's queued messages to its session, oldest first, a batch per read of the queue
 * and per write of the `sent` marks. Only the owner dispatches (a kick elsewhere goes to it); whatever is
 * still queued after a restart or a takeover goes out from the next owner.
 */
export function createDispatcher(deps: {
  messages: MessageStore;
  engines: EngineRegistry;
  ownership: Ownership;
  /** The session this node holds for the instance under its current lease (owner-duties.ts). */
  sessionOf: (instanceId: string) => InstanceSession | undefined;
  clock: Clock;
  onError: (error: unknown, instanceId: string) => void;
  /** A restriction's end passed: reported as lifted (account-events.ts), which dispatches again. */
  restrictionLapsed?: (instanceId: string, lease: Lease, reason: string) => Promise<void>;
}) {
  const { messages, engines, ownership, clock } = deps;
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();
  const kicked = new Set<string>();
  /** Instances whose oldest queued messages the network may already hold: a takeover, or marks that were not stored. */
  const unsure = new Set<string>();
  /** Paced instances: when the next message may go (a fresh owner reads it from the last `sentAt`). */
  const nextTurn = new Map<string, { after: number; due: number }>();
  const wakes = new Map<string, { at: number; timer: NodeJS.Timeout }>();

  function sentRecord(instance: SendingInstance, message: MessageRecord, networkMessageId: string) {
    const at = clock.now();
    const record = { ...message, from: digits(instance.phone), status: 'sent' as const, sentAt: at, networkMessageId };
    return { message: record, at, events: [upsertEvent(record), statusEvent(record)] };
  }

  /** The network refused these for good: each fails with the network's reason, as any status change. */
  async function refused(failures: Array<{ messageId: string; failed: { code: string; message: string } }>) {
    const at = clock.now();
    for (const { messageId, failed } of failures) {
      await messages.recordStatus(messageId, 'failed', at, (message) => [statusEvent(message)], failed);
    }
  }

  /** An uploaded file travels with its message: read only for the messages that have one. */
  async function withFile(message: MessageRecord, typing: boolean): Promise<EngineMessage> {
    const uploaded = message.mediaUrl === null && message.mediaType !== null;
    return engineMessage(message, uploaded ? await messages.fileOf(message.id) : null, typing);
  }

  /**
   * Hands these messages of the batch to the session and marks what the network took. Answers the
   * outcomes, or null when another node owns the instance now.
   */
  async function handOver(instance: SendingInstance, lease: Lease, engine: ChatEngine, session: InstanceSession, batch: MessageRecord[], typing: boolean) {
    const sent: Array<ReturnType<typeof sentRecord>> = [];
    let toSend = batch;
    // Hand-offs happen oldest first, so what an earlier owner handed without marking is in the first batch.
    if (unsure.has(instance.id) && session.holding) {
      const held = await session.holding(toSend.map((message) => message.id));
      for (const message of toSend) {
        const networkMessageId = held.get(message.id);
        if (networkMessageId !== undefined) sent.push(sentRecord(instance, message, networkMessageId));
      }
      toSend = toSend.filter((message) => !held.has(message.id));
    }
    // A routed template can land on an instance whose engine has no templates: it fails at once.
    if (!can(engine, 'template') && toSend.some((message) => message.type === 'template')) {
      await refused(toSend.filter((message) => message.type === 'template').map((message) => ({ messageId: message.id, failed: GATEWAY_ERRORS.templateUnsupported })));
      toSend = toSend.filter((message) => message.type !== 'template');
    }
    let outcomes: SendOutcome[] = [];
    try {
      if (toSend.length) outcomes = await session.send(await Promise.all(toSend.map((message) => withFile(message, typing))), instance.phone);
      const byId = new Map(toSend.map((message) => [message.id, message]));
      for (const outcome of outcomes) {
        if ('networkMessageId' in outcome) sent.push(sentRecord(instance, byId.get(outcome.messageId)!, outcome.networkMessageId));
      }
      await refused(outcomes.filter((outcome): outcome is Extract<SendOutcome, { failed: unknown }> => 'failed' in outcome));
    } catch (error) {
      // Another node owns the instance now; it sends what is still queued.
      if (error instanceof LeaseLost) return null;
      throw error;
    } finally {
      if (sent.length) {
        try {
          // Fenced: after a takeover nothing is marked here, and the new owner marks what the network holds.
          await messages.markSent(instance, sent, lease);
          unsure.delete(instance.id);
        } catch (error) {
          unsure.add(instance.id);
          throw error;
        }
      }
    }
    return { outcomes, toSend };
  }

  /** Dispatches the instance again at `at` (a paced queue's next turn, a restriction's end); the earliest wake wins. */
  function wakeAt(instanceId: string, at: number) {
    const current = wakes.get(instanceId);
    if (current && current.at <= at) return;
    if (current) clearTimeout(current.timer);
    const timer = setTimeout(() => {
      wakes.delete(instanceId);
      kick(instanceId);
    }, Math.max(0, at - clock.now().getTime()));
    timer.unref();
    wakes.set(instanceId, { at, timer });
  }

  /**
   * While the network holds the instance's sending its queue waits, and dispatches again when the hold
   * ends; a hold that ended is lifted on the row first (docs/settings.md, "Restrictions").
   */
  async function restricted(instance: SendingInstance, lease: Lease): Promise<boolean> {
    if (!instance.restrictedUntil) return false;
    const until = instance.restrictedUntil.getTime();
    if (until > clock.now().getTime()) {
      wakeAt(instance.id, until);
      return true;
    }
    await deps.restrictionLapsed?.(instance.id, lease, instance.restrictedReason ?? 'restricted');
    return false;
  }

  /**
   * One paced turn (docs/settings.md, "Sending"): the next message that may go now is handed alone,
   * then the dispatch comes back when the next may. The interval counts from the last `sentAt`, so a
   * restart or a takeover does not burst.
   */
  async function pacedTurn(instance: SendingInstance, lease: Lease, engine: ChatEngine, session: InstanceSession, batch: MessageRecord[], pacing: SendingSettings): Promise<'again' | 'done'> {
    const now = clock.now().getTime();
    const hourAgo = new Date(now - HOUR_MS);
    const turn = nextTurn.get(instance.id);
    let due = turn?.due;
    let pace: SendingPace | undefined;
    // A turn drawn under a longer interval than the settings now give is drawn again.
    if (turn && turn.due - turn.after > pacing.minIntervalMs + pacing.jitterMs) {
      due = turn.after + gapOf(pacing);
      nextTurn.set(instance.id, { after: turn.after, due });
    }
    if (due === undefined) {
      pace = await messages.sendingPace(instance.id, hourAgo);
      const after = pace.lastSentAt?.getTime();
      due = after === undefined ? now : after + gapOf(pacing);
      nextTurn.set(instance.id, { after: after ?? now, due });
    }
    if (due > now) {
      wakeAt(instance.id, due);
      return 'done';
    }
    let next = batch[0]!;
    if (pacing.newContactsPerHour !== null) {
      pace ??= await messages.sendingPace(instance.id, hourAgo);
      const chats = [...new Set(batch.map(chatOf).filter((chat) => !isGroupChat(chat)))];
      const fresh = await messages.newChats(instance.id, chats);
      const budgetLeft = pace.newContactsSentAt.length < pacing.newContactsPerHour;
      // A first message over the hour's budget waits; messages to known chats behind it go meanwhile.
      const allowed = batch.find((message) => budgetLeft || !fresh.has(chatOf(message)));
      if (!allowed) {
        const oldest = pace.newContactsSentAt[0];
        wakeAt(instance.id, oldest ? oldest.getTime() + HOUR_MS : now + HOUR_MS);
        return 'done';
      }
      next = allowed;
    }
    const result = await handOver(instance, lease, engine, session, [next], pacing.typing);
    if (!result) return 'done';
    const handed = result.outcomes.length > 0;
    const after = clock.now().getTime();
    if (handed) nextTurn.set(instance.id, { after, due: after + gapOf(pacing) });
    // Not taken (not connected yet, held by the network): the engine's report kicks the dispatch again.
    if (!handed) return 'done';
    return 'again';
  }

  async function drain(instanceId: string) {
    for (;;) {
      const lease = ownership.leaseOf(instanceId);
      if (!lease) return;
      const batch = await messages.sendingBatch(instanceId, BATCH_SIZE);
      if (!batch) return;
      const { instance } = batch;
      if (await restricted(instance, lease)) return;
      if (batch.messages.length === 0) return;
      // An instance whose integration is no longer offered keeps its queue until it is again; one not
      // yet attached here is dispatched once it is.
      const engine = engines.of(instance.engine);
      const session = deps.sessionOf(instanceId);
      if (!engine || !session) return;
      // Read with the batch, so a send right after the setting changed is already paced (and typed).
      const pacing = storedSettingsOf(instance).sending;
      if (isPaced(pacing)) {
        if ((await pacedTurn(instance, lease, engine, session, batch.messages, pacing)) === 'done') return;
        continue;
      }
      nextTurn.delete(instanceId);
      const result = await handOver(instance, lease, engine, session, batch.messages, pacing.typing);
      if (!result) return;
      // A short batch emptied the queue; whatever was accepted since kicked the dispatcher, which drains
      // again. An engine that took only part of it (not connected yet, rate-limited) is kicked when it can take more.
      if (batch.messages.length < BATCH_SIZE || result.outcomes.length < result.toSend.length) return;
    }
  }

  /** Drains the instance's queue here, if this node owns it. */
  async function dispatch(instanceId: string): Promise<void> {
    const current = running.get(instanceId);
    if (current) {
      again.add(instanceId);
      return current;
    }
    const run = (async () => {
      do {
        again.delete(instanceId);
        await drain(instanceId);
      } while (again.has(instanceId));
    })().finally(() => running.delete(instanceId));
    running.set(instanceId, run);
    return run;
  }

  function kick(instanceId: string) {
    if (kicked.has(instanceId)) return;
    kicked.add(instanceId);
    setImmediate(() => {
      kicked.delete(instanceId);
      if (ownership.leaseOf(instanceId)) dispatch(instanceId).catch((error: unknown) => deps.onError(error, instanceId));
      else ownership.notify(instanceId, 'dispatch');
    });
  }

  return {
    dispatch,
    /**
     * Dispatches soon, off the caller's path, on the instance's owner. Kicks for one instance in the
     * same turn (every send of an accepted group) make one dispatch.
     */
    kick,
    /** Whether the instance's dispatch already waits for a time of its own (its next paced turn, a restriction's end). */
    waits(instanceId: string) {
      return wakes.has(instanceId);
    },
    /** This node takes the instance over: its next dispatch checks with the network before handing anything. */
    distrust(instanceId: string) {
      unsure.add(instanceId);
      // Another node may have sent meanwhile: the next paced turn counts from the stored `sentAt`.
      nextTurn.delete(instanceId);
    },
    /** Resolves when nothing is being dispatched (tests, shutdown); paced turns still to come are dropped. */
    async idle() {
      while (running.size) await Promise.allSettled([...running.values()]);
      for (const { timer } of wakes.values()) clearTimeout(timer);
      wakes.clear();
    },
  };
}
