import { useEffect, useState } from 'preact/hooks';
import { Errors } from '../components/notice.js';
import { checkSetupLink, completeSetup } from '../setup-api.js';

type LinkState = { state: 'checking' } | { state: 'open'; expiresAt: string } | { state: 'refused'; code: string; message: string };

/** The first account of a new gateway, from the one-time link it printed at start. */
export function SetupPage(props: { token: string }) {
  const [link, setLink] = useState<LinkState>({ state: 'checking' });
  const [tenantName, setTenantName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);

  useEffect(() => {
    void checkSetupLink(props.token).then((answer) =>
      setLink(answer.ok ? { state: 'open', expiresAt: answer.data.expiresAt } : { state: 'refused', code: answer.code, message: answer.message }),
    );
  }, [props.token]);

  return (
    <main class="narrow">
      <p class="brand">Messaging Gateway</p>
      <h1>Create the first account</h1>
      {link.state === 'checking' && <p class="loading">Checking the setup link…</p>}
      {link.state === 'refused' && (
        <>
          <Errors messages={[link.message]} />
          <p class="hint">
            {link.code === 'forbidden' ? 'Sign in with your account instead.' : 'While the gateway has no user, each start prints a new link in its log.'}{' '}
            <a href="/">Go to sign in</a>
          </p>
        </>
      )}
      {link.state === 'open' && (
        <form
          onSubmit={async (event) => {
            event.preventDefault();
            setBusy(true);
            const answer = await completeSetup({ token: props.token, email, password, tenantName: tenantName.trim() || undefined });
            setBusy(false);
            if (!answer.ok) return setErrors([answer.message]);
            // Signed in (the cookie is set): the dashboard itself, loaded afresh. The used link leaves the
            // address bar and the history entry.
            history.replaceState(null, '', '/#/instances');
            location.reload();
          }}
        >
          <p class="hint">
            This gateway has no user yet. The account you create here owns a new tenant and is signed in at once. This link works once, until{' '}
            {new Date(link.expiresAt).toLocaleTimeString()}.
          </p>
          <label>
            Organisation (tenant) name
            <input name="tenantName" autocomplete="organization" maxLength={100} placeholder="defaults to your email" value={tenantName} onInput={(e) => setTenantName(e.currentTarget.value)} />
          </label>
          <label>
            Email
            <input type="email" name="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
          </label>
          <label>
            Password (at least 8 characters)
            <input type="password" name="password" autocomplete="new-password" required minLength={8} value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
          </label>
          <Errors messages={errors} />
          <button type="submit" disabled={busy}>
            Create account and sign in
          </button>
        </form>
      )}
    </main>
  );
}
