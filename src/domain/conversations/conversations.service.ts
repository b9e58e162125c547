import type { Actor } from '../actor.js';
import type { Clock } from '../ports.js';
import type { Capability } from '../network/capabilities.js';
import type { InstancesService } from '../instances/instances.service.js';
import type { InstanceRecord } from '../instances/instances.ports.js';
import type { MessageRecord } from '../messages/messages.ports.js';
import type { MessageRef } from '../network/engine-messages.js';
import type { Ownership } from '../ownership/ownership.js';
import { Invalid } from '../errors.js';
import { NotOfInstance } from './not-of-instance.js';
import { actingInstance, refuseInactive } from '../instances/acting-instance.js';
import { can } from '../network/capabilities.js';
import { allValid, parseInput } from '../validation.js';
import { digits } from '../phone.js';
import { chatDeleteEvent, chatUpdateEvent, contactsChangedEvent } from '../events/conversation-payloads.js';
import { backfillInput, chatIdInput, chatListQuery, chatMessagesQuery, contactIdInput, contactListQuery, muteInput } from './conversations.input.js';
import { MUTED_FOREVER, type ChatRecord, type ChatStateChange, type ContactRecord, type ConversationStore } from './conversations.ports.js';
import { chatCursor, chatPosition, contactCursor, contactPosition, messageCursor, messagePosition } from './cursors.js';

export type ConversationsService = ReturnType<typeof createConversationsService>;

/** A page of a list: its items and the cursor of the next page, null on the last. */
export interface Page<T> {
  items: T[];
  next: string | null;
}

/** How long a profile fetched from the network is shown before it is fetched again. */
const PROFILE_TTL_MS = 24 * 60 * 60_000;

/** A chat's own-state actions (docs/conversations.md), as REST paths and GraphQL mutations name them. */
export type ChatAction = 'read' | 'unread' | 'archive' | 'unarchive' | 'pin' | 'unpin' | 'mute' | 'unmute';

/** The reference the network knows a stored message by (a read receipt, a backfill's anchor). */
export function messageRefOf(message: MessageRecord): MessageRef | null {
  if (!message.networkMessageId || !message.chatId) return null;
  const group = message.chatId.endsWith('@g.us');
  return {
    chat: message.chatId,
    networkMessageId: message.networkMessageId,
    fromMe: message.direction === 'out',
    participant: group && message.direction === 'in' ? digits(message.from) || null : null,
    text: message.text ?? message.caption,
  };
}

/**
 * An instance's conversations (docs/conversations.md): chats, their messages and contacts as the
 * gateway keeps them, and the chat actions, carried out on the network by the instance's owner
 * when its engine can and always kept here.
 */
export function createConversationsService(deps: {
  instances: Pick<InstancesService, 'ownedInstance'>;
  ownership: Pick<Ownership, 'perform'>;
  capabilitiesOf: (integration: string) => readonly Capability[];
  store: ConversationStore;
  clock: Clock;
}) {
  const { store, clock } = deps;
  const connectedInstance = actingInstance(deps);
  const engineCan = (instance: InstanceRecord, capability: Capability) => can({ capabilities: deps.capabilitiesOf(instance.engine) }, capability);

  const chatIdOfInput = (chatId: string) => parseInput(chatIdInput, { chatId }).chatId.replace(/^\+/, '');

  async function existingChat(instance: InstanceRecord, chatId: string): Promise<ChatRecord> {
    const chat = await store.findChat(instance.id, chatId);
    if (!chat) throw new NotOfInstance('chatId', 'chat');
    return chat;
  }

  /** The instance and the chat a path names, both checked at once. */
  async function chatOf(actor: Actor, instanceId: string, chatId: string) {
    const [instance, id] = await allValid(() => deps.instances.ownedInstance(actor, instanceId), () => chatIdOfInput(chatId));
    return { instance, chat: await existingChat(instance, id) };
  }

  /** Tells the phone, when the engine can and the instance is connected; the gateway's copy changes either way. */
  async function tellPhone(instance: InstanceRecord, capability: Capability, act: () => Promise<unknown>) {
    refuseInactive(instance);
    if (!engineCan(instance, capability) || instance.state !== 'connected') return;
    await act();
  }

  async function change(instance: InstanceRecord, chat: ChatRecord, change: ChatStateChange): Promise<ChatRecord> {
    await tellPhone(instance, 'chat_state', () => deps.ownership.perform(instance.id, { kind: 'chat', chat: chat.id, change: 'mutedUntil' in change && change.mutedUntil ? { mutedUntil: change.mutedUntil.getTime() >= MUTED_FOREVER.getTime() ? 'forever' : change.mutedUntil } : change }));
    const changed = await store.changeChat(instance.id, chat.id, change, (updated) => [chatUpdateEvent(updated)]);
    if (!changed) throw new NotOfInstance('chatId', 'chat');
    return changed;
  }

  async function read(instance: InstanceRecord, chat: ChatRecord): Promise<ChatRecord> {
    refuseInactive(instance);
    const marked = await store.markChatRead(instance.id, chat.id, clock.now(), (updated) => [chatUpdateEvent(updated)]);
    if (!marked) throw new NotOfInstance('chatId', 'chat');
    const targets = marked.read.map(messageRefOf).filter((ref): ref is MessageRef => ref !== null);
    // The gateway's copy is read at once; the phone hears of it when it can (receipts are best effort).
    if (targets.length) await tellPhone(instance, 'read', () => deps.ownership.perform(instance.id, { kind: 'read', targets }));
    return marked.chat;
  }

  return {
    async chats(actor: Actor, instanceId: string, query: unknown): Promise<Page<ChatRecord>> {
      const [instance, q] = await allValid(() => deps.instances.ownedInstance(actor, instanceId), () => parseInput(chatListQuery, query));
      const after = q.cursor ? chatPosition('cursor', q.cursor) : null;
      const rows = await store.listChats(instance.id, { after, limit: q.limit + 1, filter: q.filter, search: q.search || null });
      const items = rows.slice(0, q.limit);
      return { items, next: rows.length > q.limit ? chatCursor(items.at(-1)!) : null };
    },

    async chat(actor: Actor, instanceId: string, chatId: string): Promise<ChatRecord> {
      return (await chatOf(actor, instanceId, chatId)).chat;
    },

    async messages(actor: Actor, instanceId: string, chatId: string, query: unknown): Promise<Page<MessageRecord>> {
      const [{ instance, chat }, q] = await allValid(() => chatOf(actor, instanceId, chatId), () => parseInput(chatMessagesQuery, query));
      const before = q.before ? messagePosition('before', q.before) : null;
      const rows = await store.chatMessages(instance.id, chat.id, { before, limit: q.limit + 1 });
      const items = rows.slice(0, q.limit);
      return { items, next: rows.length > q.limit ? messageCursor(items.at(-1)!) : null };
    },

    async act(actor: Actor, instanceId: string, chatId: string, action: ChatAction, input?: unknown): Promise<ChatRecord> {
      const { instance, chat } = await chatOf(actor, instanceId, chatId);
      switch (action) {
        case 'read':
          return read(instance, chat);
        case 'unread':
          return change(instance, chat, { unread: true });
        case 'archive':
        case 'unarchive':
          return change(instance, chat, { archived: action === 'archive' });
        case 'pin':
        case 'unpin':
          return change(instance, chat, { pinned: action === 'pin' });
        case 'mute': {
          const { until } = parseInput(muteInput, input);
          const at = until === 'forever' ? MUTED_FOREVER : new Date(until);
          if (at <= clock.now()) throw Invalid.at('until', 'must be in the future, or "forever"');
          return change(instance, chat, { mutedUntil: at });
        }
        case 'unmute':
          return change(instance, chat, { mutedUntil: null });
      }
    },

    async deleteChat(actor: Actor, instanceId: string, chatId: string): Promise<void> {
      const { instance, chat } = await chatOf(actor, instanceId, chatId);
      if (!(await store.deleteChat(instance.id, chat.id, [chatDeleteEvent(instance.id, chat.id)]))) throw new NotOfInstance('chatId', 'chat');
    },

    /** Asks the phone for older messages of the chat; they arrive as history. */
    async backfill(actor: Actor, instanceId: string, chatId: string, input: unknown): Promise<void> {
      const [{ instance, chat }, { count }] = await allValid(() => chatOf(actor, instanceId, chatId), () => parseInput(backfillInput, input));
      await connectedInstance(actor, instance.id, 'history');
      const first = await store.oldestMessage(instance.id, chat.id);
      await deps.ownership.perform(instance.id, { kind: 'backfill', chat: chat.id, count, oldest: first ? messageRefOf(first) : null, oldestAt: first ? first.createdAt.toISOString() : null });
    },

    async contacts(actor: Actor, instanceId: string, query: unknown): Promise<Page<ContactRecord>> {
      const [instance, q] = await allValid(() => deps.instances.ownedInstance(actor, instanceId), () => parseInput(contactListQuery, query));
      const after = q.cursor ? contactPosition('cursor', q.cursor) : null;
      const rows = await store.listContacts(instance.id, { after, limit: q.limit + 1, search: q.search || null });
      const items = rows.slice(0, q.limit);
      return { items, next: rows.length > q.limit ? contactCursor(items.at(-1)!.id) : null };
    },

    /** One contact; its profile is fetched from the network when it is stale and the engine can. */
    async contact(actor: Actor, instanceId: string, phone: string): Promise<ContactRecord> {
      const [instance, { phone: written }] = await allValid(() => deps.instances.ownedInstance(actor, instanceId), () => parseInput(contactIdInput, { phone }));
      const id = digits(written);
      const known = await store.findContact(instance.id, id);
      const stale = !known?.profileExpiresAt || known.profileExpiresAt <= clock.now();
      if (stale && instance.active && instance.state === 'connected' && engineCan(instance, 'profile')) {
        const { profile } = await deps.ownership.perform(instance.id, { kind: 'profile', phone: id });
        if (profile) return store.saveProfile(instance, id, profile, new Date(clock.now().getTime() + PROFILE_TTL_MS));
      }
      if (!known) throw new NotOfInstance('phone', 'contact');
      return known;
    },

    /** How many chats the list with this filter and search holds, across its pages. */
    async chatCount(actor: Actor, instanceId: string, query: unknown): Promise<number> {
      const [instance, q] = await allValid(() => deps.instances.ownedInstance(actor, instanceId), () => parseInput(chatListQuery, query));
      return store.countChats(instance.id, { filter: q.filter, search: q.search || null });
    },

    async messageCount(actor: Actor, instanceId: string, chatId: string): Promise<number> {
      const { instance, chat } = await chatOf(actor, instanceId, chatId);
      return store.countMessages(instance.id, chat.id);
    },

    async contactCount(actor: Actor, instanceId: string, query: unknown): Promise<number> {
      const [instance, q] = await allValid(() => deps.instances.ownedInstance(actor, instanceId), () => parseInput(contactListQuery, query));
      return store.countContacts(instance.id, { search: q.search || null });
    },

    async block(actor: Actor, instanceId: string, phone: string, blocked: boolean): Promise<ContactRecord> {
      const [instance, { phone: written }] = await allValid(() => deps.instances.ownedInstance(actor, instanceId), () => parseInput(contactIdInput, { phone }));
      const id = digits(written);
      await tellPhone(instance, 'block', () => deps.ownership.perform(instance.id, { kind: 'block', phone: id, blocked }));
      return store.setBlocked(instance, id, blocked, (contact) => [contactsChangedEvent([contact])]);
    },
  };
}
