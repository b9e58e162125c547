import { useQuery, useSubscription } from '@urql/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Errors } from '../components/notice.js';
import { StatusBadge } from '../components/status.js';
import { describeError } from '../errors.js';
import { ChatList } from '../inbox/chat-list.js';
import { InboxChatChanges } from '../inbox/operations.js';
import { Thread } from '../inbox/thread.js';
import { InstanceDetail } from '../operations.js';
import { hrefOf } from '../router.js';

/**
 * Counts the chat changes worth reading again for: the list's (any chat new, changed or gone) and the
 * open chat's. chatUpdated starts with the chats as they are, which the cache merges; those count only
 * when they differ from what was seen, and a burst of them is read once.
 */
function useChatChanges(instanceId: string, openChat: string | null) {
  const seen = useRef(new Map<string, string>());
  const openNow = useRef(openChat);
  openNow.current = openChat;
  const [list, setList] = useState(0);
  const [open, setOpen] = useState(0);
  const pending = useRef<{ list: boolean; open: boolean; timer?: ReturnType<typeof setTimeout> }>({ list: false, open: false });
  useEffect(() => () => clearTimeout(pending.current.timer), []);
  useSubscription({ query: InboxChatChanges, variables: { instanceId } }, (_previous, event) => {
    const update = event.chatUpdated;
    const stamp = update.deleted ? 'deleted' : `${update.chat?.updatedAt}/${update.chat?.lastMessage?.id}`;
    const before = seen.current.get(update.chatId);
    seen.current.set(update.chatId, stamp);
    if (before === stamp) return event;
    const state = pending.current;
    state.list = true;
    if (update.chatId === openNow.current) state.open = true;
    clearTimeout(state.timer);
    state.timer = setTimeout(() => {
      if (state.list) setList((n) => n + 1);
      if (state.open) setOpen((n) => n + 1);
      state.list = state.open = false;
    }, 150);
    return event;
  });
  return { list, open };
}

/**
 * An instance's inbox (docs/dashboard.md, "The inbox"): the chat list beside the open chat; on a
 * narrow screen one of the two at a time.
 */
export default function InboxPage(props: { id: string; chat: string | null }) {
  const [detail] = useQuery({ query: InstanceDetail, variables: { id: props.id } });
  const changed = useChatChanges(props.id, props.chat);
  const instance = detail.data?.instance;
  if (detail.data && !instance) return <Errors messages={[describeError(detail.error) ?? 'This instance does not exist (any more).']} />;
  return (
    <section class={`inbox${props.chat ? ' chat-open' : ''}`}>
      <div class="inbox-head">
        <p>
          <a href={hrefOf({ page: 'instance', id: props.id })}>← {instance?.name ?? 'Instance'}</a>
        </p>
        <div class="heading">
          <h1>Inbox</h1>
          {instance && <StatusBadge instance={instance} />}
        </div>
      </div>
      <div class="inbox-panes">
        <div class="chats-pane">
          <ChatList instanceId={props.id} openChat={props.chat} changed={changed.list} />
        </div>
        <div class="thread-pane">
          {props.chat ? <Thread key={props.chat} instanceId={props.id} chatId={props.chat} changed={changed.open} /> : <p class="pick">Choose a chat to read it.</p>}
        </div>
      </div>
    </section>
  );
}
