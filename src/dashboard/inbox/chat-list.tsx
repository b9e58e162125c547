import { useQuery } from '@urql/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Empty, Errors } from '../components/notice.js';
import { describeError } from '../errors.js';
import type { ChatFilter, InboxChatFragment } from '../generated/graphql.js';
import { hrefOf } from '../router.js';
import { belongs, byActivity, type ChatEvents } from './chat-events.js';
import { InboxChats } from './operations.js';
import { previewOf } from './preview.js';
import { mutedInWords, shortTime } from './time.js';

const FILTERS: Array<[ChatFilter, string]> = [
  ['all', 'All'],
  ['unread', 'Unread'],
  ['groups', 'Groups'],
  ['direct', 'Direct'],
  ['archived', 'Archived'],
];

/** Waits for typing to pause before asking: one request per search, not one per key. */
function useSettled(value: string, ms = 250): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** An instance's chats, newest activity first (pinned ones on top): search, filters and paging. */
export function ChatList(props: { instanceId: string; openChat: string | null; events: ChatEvents }) {
  const [filter, setFilter] = useState<ChatFilter>('all');
  const [typed, setTyped] = useState('');
  const search = useSettled(typed.trim());
  const variables = { instanceId: props.instanceId, filter, search: search || null };
  const [list, refetch] = useQuery({ query: InboxChats, variables, requestPolicy: 'cache-and-network' });
  // The next page, merged into the first by the cache (relayPagination in client.ts).
  const [after, setAfter] = useState<string | null>(null);
  useEffect(() => setAfter(null), [filter, search]);
  useQuery({ query: InboxChats, variables: { ...variables, after }, pause: !after });
  // The cache keeps each chat as its events tell; the list orders and filters them itself, and is
  // read again only for a chat it does not show that now belongs in it, or one gone.
  const chats = (list.data?.instance?.chats.edges.map((e) => e.node) ?? []).filter((chat) => belongs(chat, filter, search)).sort(byActivity);
  const shown = useRef(chats);
  shown.current = chats;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = props.events.on((event) => {
      const listed = shown.current.some((chat) => chat.chatId === event.chatId);
      const missing = event.deleted ? listed : !listed && event.chat !== null && event.chat !== undefined && belongs(event.chat, filter, search);
      if (!missing) return;
      clearTimeout(timer);
      timer = setTimeout(() => refetch({ requestPolicy: 'network-only' }), 200);
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }, [props.events, filter, search]);
  const page = list.data?.instance?.chats.pageInfo;
  return (
    <div class="chat-list">
      <form class="chat-search" role="search" onSubmit={(e) => e.preventDefault()}>
        <label class="visually-hidden" for="chat-search">
          Search chats
        </label>
        <input id="chat-search" type="search" placeholder="Search chats" value={typed} onInput={(e) => setTyped(e.currentTarget.value)} />
      </form>
      <div class="chat-filters" role="group" aria-label="Show">
        {FILTERS.map(([value, label]) => (
          <button key={value} type="button" class="chip" aria-pressed={filter === value} onClick={() => setFilter(value)}>
            {label}
          </button>
        ))}
      </div>
      <Errors messages={[describeError(list.error)]} />
      {list.data && chats.length === 0 && <Empty>{search || filter !== 'all' ? 'No chats match.' : 'No chats yet: they appear as messages come and go.'}</Empty>}
      <ul class="chats" aria-label="Chats">
        {chats.map((chat) => (
          <ChatRow key={chat.id} chat={chat} instanceId={props.instanceId} open={chat.chatId === props.openChat} />
        ))}
      </ul>
      {page?.hasNextPage && (
        <button type="button" class="secondary more" onClick={() => setAfter(page.endCursor ?? null)}>
          Load more chats
        </button>
      )}
    </div>
  );
}

function ChatRow(props: { chat: InboxChatFragment; instanceId: string; open: boolean }) {
  const { chat } = props;
  const marks = [chat.pinned && ['📌', 'Pinned'], chat.mutedUntil && ['🔕', mutedInWords(chat.mutedUntil)], chat.archived && ['🗄', 'Archived']].filter(Boolean) as Array<[string, string]>;
  return (
    <li class={`chat${chat.unreadCount ? ' unread' : ''}`} data-chat-id={chat.chatId}>
      <a href={hrefOf({ page: 'inbox', id: props.instanceId, chat: chat.chatId })} aria-current={props.open ? 'true' : undefined}>
        <span class="avatar" aria-hidden="true">
          {chat.kind === 'group' ? '👥' : (chat.name.match(/\p{L}/u)?.[0] ?? '#').toUpperCase()}
        </span>
        <span class="chat-main">
          <span class="chat-top">
            <strong class="chat-name">{chat.name}</strong>
            {chat.lastMessage && (
              <time class="chat-time" dateTime={chat.lastMessage.createdAt}>
                {shortTime(chat.lastMessage.createdAt)}
              </time>
            )}
          </span>
          <span class="chat-bottom">
            <span class="chat-preview">{chat.lastMessage ? previewOf(chat.lastMessage) : ''}</span>
            {marks.map(([icon, words]) => (
              <span key={words} class="mark" title={words} role="img" aria-label={words}>
                {icon}
              </span>
            ))}
            {chat.unreadCount > 0 && (
              <span class="badge" aria-label={`${chat.unreadCount} unread`}>
                {chat.unreadCount}
              </span>
            )}
          </span>
        </span>
      </a>
    </li>
  );
}
