import { Provider, useMutation, useQuery } from '@urql/preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { createGatewayClient } from './client.js';
import { LazyInbox } from './components/lazy-inbox.js';
import { Errors } from './components/notice.js';
import { describeError, errorCode } from './errors.js';
import { MeQuery, SignOut } from './operations.js';
import { ApiKeysPage } from './pages/api-keys.js';
import { InstancePage } from './pages/instance.js';
import { InstancesPage } from './pages/instances.js';
import { MessagesPage } from './pages/messages.js';
import { NotFoundPage } from './pages/not-found.js';
import { SignInPage } from './pages/sign-in.js';
import { hrefOf, useRoute } from './router.js';

/** The dashboard: sign in, then instances, messages and API keys, all through the GraphQL API. */
export function App() {
  // A new client (and socket) per session: signing out closes the socket, signing in opens a fresh one.
  const [generation, setGeneration] = useState(0);
  const gateway = useMemo(() => createGatewayClient(() => setGeneration((n) => n + 1)), [generation]);
  useEffect(() => () => gateway.close(), [gateway]);
  return (
    <Provider value={gateway.client}>
      {/* Keyed by the client: every query of the session, "who is calling" first, is asked again of the new one. */}
      <Session key={generation} onSessionChange={() => setGeneration((n) => n + 1)} />
    </Provider>
  );
}

function Session(props: { onSessionChange(): void }) {
  const [me] = useQuery({ query: MeQuery });
  if (me.fetching && !me.data) return <p class="loading">Loading…</p>;
  // `viewer` is null without a session (no 401 in the console of the sign-in page).
  if (me.data && !me.data.viewer) return <SignInPage onSignedIn={props.onSessionChange} />;
  if (errorCode(me.error) === 'unauthorized' || errorCode(me.error) === 'invalid_api_key') return <SignInPage onSignedIn={props.onSessionChange} />;
  if (!me.data?.viewer) return <Errors messages={[describeError(me.error)]} />;
  const viewer = me.data.viewer;
  return <Shell email={viewer.user?.email ?? ''} tenant={viewer.tenant.name} plan={viewer.tenant.plan} onSignedOut={props.onSessionChange} />;
}

function Shell(props: { email: string; tenant: string; plan: string; onSignedOut(): void }) {
  const route = useRoute();
  const [signOut, sendSignOut] = useMutation(SignOut);
  const links = [
    { page: 'instances' as const, label: 'Instances' },
    { page: 'messages' as const, label: 'Messages' },
    { page: 'keys' as const, label: 'API keys' },
  ];
  const current = route.page === 'instance' || route.page === 'inbox' ? 'instances' : route.page;
  return (
    <>
      <header class="top">
        <strong class="brand">Messaging Gateway</strong>
        <nav aria-label="Main">
          {links.map((link) => (
            <a key={link.page} href={hrefOf({ page: link.page })} aria-current={current === link.page ? 'page' : undefined}>
              {link.label}
            </a>
          ))}
        </nav>
        {/* The tenant first; who is signed in (unless the tenant is named after them) and the plan beside it. */}
        <span class="who">
          <strong class="tenant">{props.tenant}</strong>{' '}
          <span class="muted">
            {props.email && props.email !== props.tenant ? `${props.email} · ` : ''}
            {props.plan} plan
          </span>
        </span>
        <button
          type="button"
          class="secondary"
          disabled={signOut.fetching}
          onClick={async () => {
            const result = await sendSignOut({});
            if (result.data?.signOut.signedOut) props.onSignedOut();
          }}
        >
          Sign out
        </button>
      </header>
      <main class={route.page === 'inbox' ? 'wide' : undefined}>
        <Errors messages={[describeError(signOut.error)]} />
        {route.page === 'instances' && <InstancesPage />}
        {route.page === 'instance' && <InstancePage id={route.id} />}
        {route.page === 'inbox' && <LazyInbox id={route.id} chat={route.chat} />}
        {route.page === 'messages' && <MessagesPage />}
        {route.page === 'keys' && <ApiKeysPage />}
        {route.page === 'not-found' && <NotFoundPage />}
      </main>
    </>
  );
}
