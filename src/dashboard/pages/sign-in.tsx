import { useMutation } from '@urql/preact';
import { useState } from 'preact/hooks';
import { Errors } from '../components/notice.js';
import { problemsOf } from '../errors.js';
import { SignIn } from '../operations.js';

export function SignInPage(props: { onSignedIn(): void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [result, signIn] = useMutation(SignIn);
  const [errors, setErrors] = useState<string[]>([]);
  return (
    <main class="narrow">
      <p class="brand">Messaging Gateway</p>
      <h1>Sign in</h1>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const answer = await signIn({ input: { email, password } });
          const problems = problemsOf(answer.error, answer.data?.signIn.userErrors);
          setErrors(problems);
          if (!problems.length && answer.data?.signIn.user) props.onSignedIn();
        }}
      >
        <label>
          Email
          <input type="email" name="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </label>
        <label>
          Password
          <input type="password" name="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        </label>
        <Errors messages={errors} />
        <button type="submit" disabled={result.fetching}>
          Sign in
        </button>
      </form>
      <p class="hint">
        No account yet? A gateway without users prints a setup link in its log at start (<code>no user yet: create the first account at …</code>): open it to
        create the first account. It works once, for an hour; each restart prints a new one. After that, accounts are made by the operator, with the gateway
        stopped: <code>npm run cli -- user:create --tenant &lt;tenantId&gt; --email &lt;email&gt; --password-stdin</code> (a user of an existing tenant) or{' '}
        <code>npm run cli -- tenant:create --name &lt;name&gt; --email &lt;email&gt; --password-stdin</code> (a new tenant and its owner), or by starting the gateway
        with <code>GATEWAY_ADMIN_EMAIL</code> and <code>GATEWAY_ADMIN_PASSWORD</code>.
      </p>
    </main>
  );
}
