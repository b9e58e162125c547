import { useQuery, useSubscription } from '@urql/preact';
import { useMemo } from 'preact/hooks';
import { Errors } from '../components/notice.js';
import { StatusBadge } from '../components/status.js';
import { describeError } from '../errors.js';
import { ChatList } from '../inbox/chat-list.js';
import { chatEvents } from '../inbox/chat-events.js';
import { InboxChatChanges } from '../inbox/operations.js';
import { Thread } from '../inbox/thread.js';
import { InstanceDetail } from '../operations.js';
import { hrefOf } from '../router.js';

/**
 * An instance's inbox (docs/dashboard.md, "The inbox"): the chat list beside the open chat; on a
 * narrow screen one of the two at a time.
 */
export default function InboxPage(props: { id: string; chat: string | null }) {
  const [detail] = useQuery({ query: InstanceDetail, variables: { id: props.id } });
  // Every change to a chat of the instance: the cache merges the chat; the list and the open chat hear of it.
  const events = useMemo(chatEvents, [props.id]);
  useSubscription({ query: InboxChatChanges, variables: { instanceId: props.id } }, (_previous, event) => {
    events.emit(event.chatUpdated);
    return event;
  });
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
          <ChatList instanceId={props.id} openChat={props.chat} events={events} />
        </div>
        <div class="thread-pane">
          {props.chat ? <Thread key={props.chat} instanceId={props.id} chatId={props.chat} events={events} /> : <p class="pick">Choose a chat to read it.</p>}
        </div>
      </div>
    </section>
  );
}
