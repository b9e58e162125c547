import { useEffect, useState } from 'preact/hooks';
import { Errors } from './notice.js';

type InboxModule = typeof import('../pages/inbox.js');

/** The inbox loads when first opened: it stays out of the first page's JavaScript budget. */
export function LazyInbox(props: { id: string; chat: string | null }) {
  const [page, setPage] = useState<InboxModule | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    import('../pages/inbox.js').then(setPage, () => setFailed(true));
  }, []);
  if (failed) return <Errors messages={['The inbox could not be loaded. Reload the page to try again.']} />;
  if (!page) return <p class="loading">Loading…</p>;
  const Inbox = page.default;
  return <Inbox id={props.id} chat={props.chat} />;
}
