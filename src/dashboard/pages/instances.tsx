import { useMutation, useQuery, useSubscription } from '@urql/preact';
import { useState } from 'preact/hooks';
import { Empty, Errors } from '../components/notice.js';
import { StatusBadge } from '../components/status.js';
import { describeError, problemsOf } from '../errors.js';
import { CreateInstance, InstanceChanges, InstanceList, Integrations } from '../operations.js';
import { integrationName } from '../integrations.js';
import { hrefOf } from '../router.js';
import { keepShownOnce } from '../shown-once.js';

export function InstancesPage() {
  const [list] = useQuery({ query: InstanceList, variables: {}, requestPolicy: 'cache-and-network' });
  // One subscription keeps the whole list live: every event carries the instance, which the cache merges.
  useSubscription({ query: InstanceChanges });
  const [creating, setCreating] = useState(false);
  const instances = list.data?.instances.edges.map((e) => e.node) ?? [];
  return (
    <section>
      <div class="heading">
        <h1>Instances</h1>
        <button type="button" onClick={() => setCreating(!creating)} aria-expanded={creating}>
          New instance
        </button>
      </div>
      {creating && <NewInstanceForm onDone={() => setCreating(false)} />}
      <Errors messages={[describeError(list.error)]} />
      {list.data && instances.length === 0 && (
        <Empty>No instances yet. Create one with “New instance”, then scan its QR code with the phone to link it.</Empty>
      )}
      {instances.length > 0 && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Network</th>
                <th scope="col">Phone</th>
                <th scope="col">Active</th>
                <th scope="col">Sent / received</th>
              </tr>
            </thead>
            <tbody>
              {instances.map((instance) => (
                <tr key={instance.id}>
                  <td data-label="Name">
                    <a href={hrefOf({ page: 'instance', id: instance.id })}>{instance.name}</a>
                    <span class="muted"> {instance.variant === 'SESSION' ? 'session' : 'v1'} · </span>
                    <a href={hrefOf({ page: 'inbox', id: instance.id, chat: null })}>inbox</a>
                  </td>
                  <td data-label="Status">
                    <StatusBadge instance={instance} />
                  </td>
                  <td data-label="Network">{integrationName(instance.integration)}</td>
                  <td data-label="Phone">{instance.phoneNumber ?? '—'}</td>
                  <td data-label="Active">{instance.active ? 'yes' : 'no'}</td>
                  <td data-label="Sent / received">
                    {instance.statistics.messagesSent} / {instance.statistics.messagesReceived}
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

function NewInstanceForm(props: { onDone(): void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [webhookUrl, setWebhookUrl] = useState('');
  const [variant, setVariant] = useState<'V1' | 'SESSION'>('V1');
  const [offered] = useQuery({ query: Integrations });
  const integrations = (offered.data?.integrations ?? []).map((offer) => offer.integration);
  const [integration, setIntegration] = useState('');
  const chosen = integration || integrations[0] || '';
  // CHAT-CLOUD connects with the business API's credentials instead of a QR code.
  const [cloud, setCloud] = useState({ phoneNumberId: '', accessToken: '', appSecret: '', businessAccountId: '' });
  const withCredentials = chosen === 'CHAT-CLOUD';
  const cloudField = (field: keyof typeof cloud) => (e: { currentTarget: HTMLInputElement }) => setCloud({ ...cloud, [field]: e.currentTarget.value });
  const [result, create] = useMutation(CreateInstance);
  const [errors, setErrors] = useState<string[]>([]);
  return (
    <form
      class="card"
      aria-label="New instance"
      onSubmit={async (event) => {
        event.preventDefault();
        const answer = await create({
          input: {
            name,
            variant,
            ...(integration ? { integration } : {}),
            ...(variant === 'V1' && description ? { description } : {}),
            ...(webhookUrl ? { webhookUrl } : {}),
            ...(withCredentials
              ? {
                  cloud: {
                    phoneNumberId: cloud.phoneNumberId,
                    accessToken: cloud.accessToken,
                    appSecret: cloud.appSecret,
                    ...(cloud.businessAccountId ? { businessAccountId: cloud.businessAccountId } : {}),
                  },
                }
              : {}),
          },
        });
        // The credentials are not kept in the page once sent.
        setCloud({ phoneNumberId: '', accessToken: '', appSecret: '', businessAccountId: '' });
        const problems = problemsOf(answer.error, answer.data?.createInstance.userErrors);
        setErrors(problems);
        const created = answer.data?.createInstance.instance;
        if (!problems.length && created) {
          if (answer.data?.createInstance.webhookSecret) keepShownOnce(created.id, answer.data.createInstance.webhookSecret);
          props.onDone();
          location.hash = hrefOf({ page: 'instance', id: created.id });
        }
      }}
    >
      <label>
        Name
        <input name="name" required minLength={3} maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label>
        Kind
        <select value={variant} onChange={(e) => setVariant(e.currentTarget.value as 'V1' | 'SESSION')}>
          <option value="V1">v1 (QR code on request)</option>
          <option value="SESSION">session (QR codes rotate by themselves)</option>
        </select>
      </label>
      <label>
        Network
        <select value={chosen} onChange={(e) => setIntegration(e.currentTarget.value)}>
          {integrations.map((id) => (
            <option key={id} value={id}>
              {integrationName(id)}
            </option>
          ))}
        </select>
      </label>
      {withCredentials && (
        <fieldset>
          <legend>Business API credentials (never shown again)</legend>
          <label>
            Phone number ID
            <input name="phoneNumberId" required inputMode="numeric" pattern="[0-9]+" value={cloud.phoneNumberId} onInput={cloudField('phoneNumberId')} />
          </label>
          <label>
            Access token
            <input name="accessToken" type="password" required autoComplete="off" value={cloud.accessToken} onInput={cloudField('accessToken')} />
          </label>
          <label>
            App secret
            <input name="appSecret" type="password" required autoComplete="off" value={cloud.appSecret} onInput={cloudField('appSecret')} />
          </label>
          <label>
            Business account ID
            <input name="businessAccountId" inputMode="numeric" pattern="[0-9]*" value={cloud.businessAccountId} onInput={cloudField('businessAccountId')} />
          </label>
        </fieldset>
      )}
      {variant === 'V1' && (
        <label>
          Description
          <input name="description" maxLength={500} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        </label>
      )}
      <label>
        Webhook URL
        <input name="webhookUrl" type="url" placeholder="https://example.com/hooks/gateway" value={webhookUrl} onInput={(e) => setWebhookUrl(e.currentTarget.value)} />
      </label>
      <Errors messages={errors} />
      <div class="actions">
        <button type="submit" disabled={result.fetching}>
          Create
        </button>
        <button type="button" class="secondary" onClick={props.onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
