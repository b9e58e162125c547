import { useQuery, useSubscription } from '@urql/preact';
import { Errors } from '../components/notice.js';
import { StatusBadge } from '../components/status.js';
import { describeError } from '../errors.js';
import { ChatList } from '../inbox/chat-list.js';
import { InboxChatChanges } from '../inbox/operations.js';
import { Thread } from '../inbox/thread.js';
import { InstanceDetail } from '../operations.js';
import { hrefOf } from '../router.js';

/**
 * An instance's inbox (docs/dashboard.md, "The inbox"): the chat list beside the open chat; on a
 * narrow screen one of the two at a time. Every chat change arrives through chatUpdated.
 */
export default function InboxPage(props: { id: string; chat: string | null }) {
  const [detail] = useQuery({ query: InstanceDetail, variables: { id: props.id } });
  useSubscription({ query: InboxChatChanges, variables: { instanceId: props.id } });
  const instance = detail.data?.instance;
  if (detail.data && !instance) return <Errors messages={[describeError(detail.error) ?? 'This instance does not exist (any more).']} />;
  return (
    <section class={`inbox${props.chat ? ' chat-open' : ''}`}>
      <div class="inbox-head">
        <a href={hrefOf({ page: 'instance', id: props.id })}>← {instance?.name ?? 'Instance'}</a>
        <h1>Inbox</h1>
        {instance && <StatusBadge instance={instance} />}
      </div>
      <div class="inbox-panes">
        <div class="chats-pane">
          <ChatList instanceId={props.id} openChat={props.chat} />
        </div>
        <div class="thread-pane">{props.chat ? <Thread key={props.chat} instanceId={props.id} chatNodeId={props.chat} /> : <p class="pick">Choose a chat to read it.</p>}</div>
      </div>
    </section>
  );
}
