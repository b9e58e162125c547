import { useMutation } from '@urql/preact';
import { useState } from 'preact/hooks';
import { Errors } from '../components/notice.js';
import { problemsOf } from '../errors.js';
import type { InboxChatFragment } from '../generated/graphql.js';
import { ArchiveChat, MarkChatRead, MarkChatUnread, MuteChat, PinChat, UnarchiveChat, UnmuteChat, UnpinChat } from './operations.js';

const MUTE_FOR: Array<[string, string]> = [
  ['8h', '8 hours'],
  ['1w', 'A week'],
  ['forever', 'Always'],
];

const untilOf = (choice: string) => (choice === 'forever' ? 'forever' : new Date(Date.now() + (choice === '8h' ? 8 * 3_600_000 : 7 * 86_400_000)).toISOString());

/** Read or unread, archive, pin, mute: each answers with the chat, which the cache merges into the list. */
export function ChatActions(props: { instanceId: string; chat: InboxChatFragment }) {
  const { chat } = props;
  const input = { instanceId: props.instanceId, chatId: chat.chatId };
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [, markRead] = useMutation(MarkChatRead);
  const [, markUnread] = useMutation(MarkChatUnread);
  const [, archive] = useMutation(ArchiveChat);
  const [, unarchive] = useMutation(UnarchiveChat);
  const [, pin] = useMutation(PinChat);
  const [, unpin] = useMutation(UnpinChat);
  const [, mute] = useMutation(MuteChat);
  const [, unmute] = useMutation(UnmuteChat);
  const run = async (action: () => Promise<{ error?: Parameters<typeof problemsOf>[0]; data?: unknown }>) => {
    setBusy(true);
    try {
      const answer = await action();
      const payload = answer.data ? (Object.values(answer.data as Record<string, { userErrors?: Parameters<typeof problemsOf>[1] }>)[0] ?? {}) : {};
      setErrors(problemsOf(answer.error, payload.userErrors));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="chat-actions">
      <div class="actions">
        {chat.unreadCount > 0 ? (
          <button type="button" class="secondary" disabled={busy} onClick={() => run(() => markRead({ input }))}>
            Mark read
          </button>
        ) : (
          <button type="button" class="secondary" disabled={busy} onClick={() => run(() => markUnread({ input }))}>
            Mark unread
          </button>
        )}
        <button type="button" class="secondary" disabled={busy} aria-pressed={chat.pinned} onClick={() => run(() => (chat.pinned ? unpin({ input }) : pin({ input })))}>
          {chat.pinned ? 'Unpin' : 'Pin'}
        </button>
        <button type="button" class="secondary" disabled={busy} onClick={() => run(() => (chat.archived ? unarchive({ input }) : archive({ input })))}>
          {chat.archived ? 'Unarchive' : 'Archive'}
        </button>
        {chat.mutedUntil ? (
          <button type="button" class="secondary" disabled={busy} onClick={() => run(() => unmute({ input }))}>
            Unmute
          </button>
        ) : (
          <select
            class="mute"
            aria-label="Mute"
            disabled={busy}
            value=""
            onChange={(e) => {
              const choice = e.currentTarget.value;
              e.currentTarget.value = '';
              if (choice) void run(() => mute({ input: { ...input, until: untilOf(choice) } }));
            }}
          >
            <option value="">Mute…</option>
            {MUTE_FOR.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        )}
      </div>
      <Errors messages={errors} />
    </div>
  );
}
