import { useMutation, useQuery } from '@urql/preact';
import { useState } from 'preact/hooks';
import { Empty, Errors } from '../components/notice.js';
import { SecretToCopy } from '../components/secret-to-copy.js';
import { describeError, describeUserErrors, problemsOf } from '../errors.js';
import { ApiKeys, CreateApiKey, RevokeApiKey } from '../operations.js';

export function ApiKeysPage() {
  const [keys] = useQuery({ query: ApiKeys });
  const [created, create] = useMutation(CreateApiKey);
  const [revoked, revoke] = useMutation(RevokeApiKey);
  const [name, setName] = useState('');
  const [testMode, setTestMode] = useState(true);
  const [errors, setErrors] = useState<string[]>([]);
  const [shown, setShown] = useState<string | null>(null);
  const list = keys.data?.apiKeys.edges.map((e) => e.node) ?? [];
  return (
    <section>
      <h1>API keys</h1>
      <form
        class="card"
        aria-label="New API key"
        onSubmit={async (event) => {
          event.preventDefault();
          const answer = await create({ input: { name, testMode } });
          setErrors(problemsOf(answer.error, answer.data?.createApiKey.userErrors));
          setShown(answer.data?.createApiKey.key ?? null);
          if (answer.data?.createApiKey.key) setName('');
        }}
      >
        <label>
          Key name
          <input required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label class="check">
          <input type="checkbox" checked={testMode} onChange={(e) => setTestMode(e.currentTarget.checked)} />
          Test key (messages marked [TEST], counted against the test quota)
        </label>
        <Errors messages={errors} />
        <button type="submit" disabled={created.fetching}>
          Create key
        </button>
      </form>
      {shown && (
        <div class="warning" role="status">
          <p>
            <strong>Copy this key now: it is shown only once.</strong> Anyone with it can send messages as your tenant.
          </p>
          <SecretToCopy secret={shown} what="API key" />
        </div>
      )}
      <Errors messages={[describeError(keys.error), describeError(revoked.error), ...describeUserErrors(revoked.data?.revokeApiKey.userErrors)]} />
      {keys.data && list.length === 0 && <Empty>No API keys. Create one above to call the REST or GraphQL API from your code.</Empty>}
      {list.length > 0 && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Kind</th>
                <th scope="col">Last used</th>
                <th scope="col" />
              </tr>
            </thead>
            <tbody>
              {list.map((key) => (
                <tr key={key.id}>
                  <td data-label="Name">{key.name}</td>
                  <td data-label="Key">
                    <code>{key.keyPrefix}…</code>
                  </td>
                  <td data-label="Kind">{key.testMode ? 'test' : 'live'}</td>
                  <td data-label="Last used">{key.lastUsedAt ? new Date(key.lastUsedAt).toLocaleString() : 'never'}</td>
                  <td class="row-actions">
                    <button
                      type="button"
                      class="danger"
                      aria-label={`Revoke ${key.name}`}
                      disabled={revoked.fetching}
                      onClick={async () => {
                        if (confirm(`Revoke “${key.name}”? Calls with it fail at once; this cannot be undone.`)) await revoke({ id: key.id });
                      }}
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
