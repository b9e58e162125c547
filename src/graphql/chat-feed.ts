import { Repeater } from '@repeaterjs/repeater';
import type { Actor } from '../domain/actor.js';
import type { ChatRecord } from '../domain/conversations/conversations.ports.js';
import { DomainError } from '../domain/errors.js';
import { chatData } from '../domain/events/conversation-payloads.js';
import type { LiveEvent } from '../domain/network/live-events.js';
import { instanceList } from '../infra/db/list-scopes.js';
import type { GraphQLContext } from './context.js';
import { chatNodeId, chatView, type ChatView } from './conversation-ids.js';
import { DEFAULT_PAGE_SIZE } from './page-size.js';

type ChatEvent = Extract<LiveEvent, { kind: 'chat' }>;

/** What `chatUpdated` yields: a chat as it is now, or the news that it was forgotten. */
export interface ChatUpdateShape {
  instanceId: string;
  chatId: string;
  /** Node id of the chat, present even once it is gone. */
  id: string;
  deleted: boolean;
  chat: ChatView | null;
}

/** How many chats of each instance the stream starts with: the first page of its list. */
export const CHAT_STATE_PAGE = DEFAULT_PAGE_SIZE;

const gone = (instanceId: string, chatId: string): ChatUpdateShape => ({ instanceId, chatId, id: chatNodeId(instanceId, chatId), deleted: true, chat: null });
const present = (chat: ChatRecord): ChatUpdateShape => ({ instanceId: chat.instanceId, chatId: chat.id, id: chatNodeId(chat.instanceId, chat.id), deleted: false, chat: chatView(chat) });

/**
 * The chats of one instance, or of each of the tenant's (docs/graphql.md "Conversations"): the first
 * page of each list, then each chat as it is after every change to it or its messages, attached
 * before the state is read (nothing lost); an unchanged chat is not sent again.
 */
export function chatFeed(ctx: GraphQLContext, actor: Actor, instanceId: string | null): AsyncIterableIterator<ChatUpdateShape> {
  const conversations = ctx.services.conversations;
  const onError = (error: unknown) => ctx.inBackground(() => Promise.reject(error));
  const feed = ctx.live.subscribeTenant(actor.tenantId, 'chat');

  async function instanceIds(): Promise<string[]> {
    if (instanceId !== null) return [instanceId];
    const rows = await ctx.prisma.instance.findMany({ ...instanceList(actor.tenantId), select: { id: true } });
    return rows.map((row) => row.id);
  }

  async function state(): Promise<ChatUpdateShape[]> {
    const pages = await Promise.all(
      (await instanceIds()).map((id) => expected(conversations.chats(actor, id, { limit: CHAT_STATE_PAGE }), { items: [], next: null })),
    );
    return pages.flatMap((page) => page.items.map(present));
  }

  /** The chat an event is about, as it is now; null when there is nothing to show (a message with no chat). */
  async function updateOf(event: ChatEvent): Promise<ChatUpdateShape | null> {
    let chatId = event.chatId;
    if (event.deleted && chatId) return gone(event.instanceId, chatId);
    if (!chatId && event.messageId) {
      const message = await expected(ctx.services.messages.get(actor, event.messageId), null);
      chatId = message?.chatId ?? null;
    }
    if (!chatId) return null;
    const chat = await expected(conversations.chat(actor, event.instanceId, chatId), null);
    if (chat) return present(chat);
    return event.ifExists ? null : gone(event.instanceId, chatId);
  }

  return new Repeater<ChatUpdateShape>(async (push, stop) => {
    const last = new Map<string, string>();
    const send = async (update: ChatUpdateShape | null) => {
      if (!update) return;
      const key = update.chat ? JSON.stringify(chatData(update.chat.chat)) : 'deleted';
      if (last.get(update.id) === key) return;
      last.set(update.id, key);
      await push(update);
    };
    const sendState = async () => {
      for (const update of await state()) await send(update);
    };
    const stopWatching = ctx.live.onResumed(() => void sendState().catch(onError));
    // Events arriving while the state is read wait for it; each is read back as it is then.
    const held: ChatEvent[] = [];
    let started = false;
    let queue = Promise.resolve();
    const forward = (event: ChatEvent) => {
      queue = queue.then(async () => send(await updateOf(event))).catch(onError);
    };
    const forwarding = (async () => {
      for await (const event of feed) {
        if (instanceId !== null && event.instanceId !== instanceId) continue;
        if (started) forward(event);
        else held.push(event);
      }
    })().catch(onError);
    try {
      await ctx.live.attached();
      await sendState();
    } catch (error) {
      onError(error);
    }
    started = true;
    for (const event of held.splice(0)) forward(event);
    await stop;
    stopWatching();
    await feed.return?.();
    await forwarding;
    await queue;
  });
}

/** A read whose expected refusal (the instance or chat gone meanwhile) leaves `fallback`; anything else still fails. */
async function expected<T, F>(read: Promise<T>, fallback: F): Promise<T | F> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof DomainError && error.code !== 'service_unavailable') return fallback;
    throw error;
  }
}
