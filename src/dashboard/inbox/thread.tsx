import { useQuery, useSubscription } from '@urql/preact';
import { Fragment } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { Errors } from '../components/notice.js';
import { describeError } from '../errors.js';
import { hrefOf } from '../router.js';
import { Bubble, type ThreadMessage } from './bubble.js';
import { ChatActions } from './chat-actions.js';
import type { ChatEvents } from './chat-events.js';
import { InboxMessageChanges, InboxThread } from './operations.js';
import { SendBox } from './send-box.js';
import { dayOf, mutedInWords } from './time.js';

/**
 * Reactions are drawn on the message they react to: each sender's latest emoji (an empty one takes
 * it back). The rest are the thread's messages, oldest first.
 */
function arrange(messages: ThreadMessage[]) {
  const sorted = [...messages].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  const reactions = new Map<string, Map<string, string>>();
  for (const m of sorted) {
    if (!m.reaction?.messageId) continue;
    const by = m.direction === 'out' ? 'You' : (m.from ?? m.fromLid ?? '?');
    const on = reactions.get(m.reaction.messageId) ?? new Map<string, string>();
    if (m.reaction.emoji) on.set(by, m.reaction.emoji);
    else on.delete(by);
    reactions.set(m.reaction.messageId, on);
  }
  const shown = sorted.filter((m) => !(m.reaction?.messageId && sorted.some((t) => t.id === m.reaction!.messageId)));
  const byId = new Map(sorted.map((m) => [m.id, m]));
  return { shown, byId, reactionsOn: (id: string) => [...(reactions.get(id) ?? [])].map(([by, emoji]) => ({ by, emoji })) };
}

/**
 * One chat: its messages (older pages on demand), its actions, the send box. Each chatUpdated about
 * it reads the newest page again: a message came, was edited or deleted, a vote or a reaction
 * arrived. Statuses merge by id from messageUpdated.
 */
export function Thread(props: { instanceId: string; chatId: string; events: ChatEvents }) {
  const variables = { instanceId: props.instanceId, chatId: props.chatId };
  const [thread, refetch] = useQuery({ query: InboxThread, variables, requestPolicy: 'cache-and-network' });
  const [before, setBefore] = useState<string | null>(null);
  useQuery({ query: InboxThread, variables: { ...variables, before }, pause: !before });
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = props.events.on((event) => {
      if (event.chatId !== props.chatId) return;
      clearTimeout(timer);
      timer = setTimeout(() => refetch({ requestPolicy: 'network-only' }), 150);
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }, [props.events, props.chatId]);
  useSubscription({ query: InboxMessageChanges });
  const chat = thread.data?.instance?.chat ?? null;
  const [replyTo, setReplyTo] = useState<ThreadMessage | null>(null);

  const messages = chat?.messages.edges.map((e) => e.node) ?? [];
  const { shown, byId, reactionsOn } = arrange(messages);
  const scroller = useRef<HTMLDivElement>(null);
  // Kept at the newest message while the reader is there (on opening, as messages and pictures
  // arrive); paging back or scrolling up leaves the place alone.
  const atEnd = useRef(true);
  const toEnd = () => {
    const box = scroller.current;
    if (box && atEnd.current) box.scrollTop = box.scrollHeight;
  };
  const newest = shown.at(-1)?.id;
  useLayoutEffect(toEnd, [newest]);
  if (!chat) {
    return (
      <section class="thread">
        <Errors messages={[describeError(thread.error) ?? (thread.data ? 'This chat does not exist (any more).' : null)]} />
        {!thread.data && !thread.error && <p class="loading">Loading…</p>}
      </section>
    );
  }
  let day = '';
  return (
    <section class="thread" aria-label={`Chat with ${chat.name}`}>
      <header class="thread-head">
        <a class="back" href={hrefOf({ page: 'inbox', id: props.instanceId, chat: null })} aria-label="Back to the chats">
          ←
        </a>
        <div class="thread-title">
          <h2>{chat.name}</h2>
          <p class="muted">
            {chat.kind === 'group' ? 'Group' : /^\d+$/.test(chat.chatId) ? `+${chat.chatId}` : chat.chatId}
            {chat.mutedUntil && ` · ${mutedInWords(chat.mutedUntil)}`}
            {chat.archived && ' · Archived'}
          </p>
        </div>
        <ChatActions instanceId={props.instanceId} chat={chat} />
      </header>
      <div
        class="messages"
        ref={scroller}
        tabIndex={0}
        aria-label="Messages"
        onScroll={(e) => (atEnd.current = e.currentTarget.scrollHeight - e.currentTarget.scrollTop - e.currentTarget.clientHeight < 80)}
        onLoadCapture={toEnd}
      >
        {chat.messages.pageInfo.hasPreviousPage && (
          <button type="button" class="secondary more" onClick={() => setBefore(chat.messages.pageInfo.startCursor ?? null)}>
            Load older messages
          </button>
        )}
        {shown.length === 0 && <p class="muted center">No messages here yet.</p>}
        {shown.map((m) => {
          const today = dayOf(m.createdAt);
          const separator = today !== day;
          day = today;
          return (
            <Fragment key={m.id}>
              {separator && (
                <p class="day">
                  <span>{today}</span>
                </p>
              )}
              <Bubble message={m} quoted={m.quoted?.messageId ? (byId.get(m.quoted.messageId) ?? null) : null} reactions={reactionsOn(m.id)} peer={chat.kind === 'group' ? null : chat.name} onReply={() => setReplyTo(m)} />
            </Fragment>
          );
        })}
      </div>
      <SendBox instanceId={props.instanceId} to={chat.chatId} peer={chat.kind === 'group' ? null : chat.name} replyTo={replyTo} onCancelReply={() => setReplyTo(null)} onSent={() => {
          // What one just sent is shown, wherever the reader had scrolled.
          atEnd.current = true;
          refetch({ requestPolicy: 'network-only' });
        }} />
    </section>
  );
}
