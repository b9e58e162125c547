import { useMutation, useQuery } from '@urql/preact';
import { useState } from 'preact/hooks';
import { Empty, Errors } from '../components/notice.js';
import { SecretToCopy } from '../components/secret-to-copy.js';
import { describeError, problemsOf } from '../errors.js';
import type { WebhookEvent } from '../generated/graphql.js';
import { Deliveries, Redeliver, RotateSecret, SetWebhook, TestWebhook } from '../operations.js';

const EVENTS: Record<string, WebhookEvent[]> = {
  V1: ['MESSAGES_UPSERT', 'MESSAGES_UPDATE', 'MESSAGES_DELETE', 'CONNECTION_UPDATE', 'QR_UPDATE', 'CALL', 'INSTANCE_RESTRICTED'],
  SESSION: ['MESSAGES_UPSERT', 'MESSAGES_UPDATE', 'MESSAGES_DELETE', 'CONNECTION_UPDATE', 'GROUPS_UPDATE', 'GROUPS_UPSERT', 'CONTACTS_UPDATE', 'PRESENCE_UPDATE', 'CALL', 'INSTANCE_RESTRICTED'],
};
const eventName = (event: string) => event.toLowerCase().replace('_', '.');

/** An instance's webhook: where events go and which, a signed test, the delivery log, the secret. */
export function WebhookSection(props: { instanceId: string; variant: string; url: string; events: WebhookEvent[] }) {
  const [url, setUrl] = useState(props.url);
  const [events, setEvents] = useState<WebhookEvent[]>(props.events);
  const [saved, save] = useMutation(SetWebhook);
  const [tested, test] = useMutation(TestWebhook);
  const [rotated, rotate] = useMutation(RotateSecret);
  const [errors, setErrors] = useState<string[]>([]);
  const [secret, setSecret] = useState<string | null>(null);
  const [deliveries, refresh] = useQuery({ query: Deliveries, variables: { id: props.instanceId }, requestPolicy: 'cache-and-network' });
  const [redelivered, redeliver] = useMutation(Redeliver);
  const testAnswer = tested.data?.testWebhook;
  return (
    <section class="card" aria-labelledby="webhook-heading">
      <h2 id="webhook-heading">Webhook</h2>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const answer = await save({ input: { instanceId: props.instanceId, url, events } });
          setErrors(problemsOf(answer.error, answer.data?.setWebhook.userErrors));
        }}
      >
        <label>
          Webhook URL
          <input type="url" required value={url} placeholder="https://example.com/hooks/gateway" onInput={(e) => setUrl(e.currentTarget.value)} />
        </label>
        <fieldset>
          <legend>Events</legend>
          {(EVENTS[props.variant] ?? []).map((event) => (
            <label key={event} class="check">
              <input
                type="checkbox"
                checked={events.includes(event)}
                onChange={(e) => setEvents(e.currentTarget.checked ? [...events, event] : events.filter((x) => x !== event))}
              />
              {eventName(event)}
            </label>
          ))}
        </fieldset>
        <Errors messages={errors} />
        <div class="actions">
          <button type="submit" disabled={saved.fetching}>
            Save webhook
          </button>
          <button
            type="button"
            class="secondary"
            disabled={tested.fetching || !props.url}
            onClick={async () => {
              const answer = await test({ instanceId: props.instanceId });
              setErrors(problemsOf(answer.error, answer.data?.testWebhook.userErrors));
            }}
          >
            Send test
          </button>
          <button
            type="button"
            class="secondary"
            disabled={rotated.fetching}
            onClick={async () => {
              if (!confirm('Make a new signing secret? For 24 hours deliveries are signed with both.')) return;
              const answer = await rotate({ instanceId: props.instanceId });
              setErrors(problemsOf(answer.error, answer.data?.rotateWebhookSecret.userErrors));
              setSecret(answer.data?.rotateWebhookSecret.webhookSecret ?? null);
            }}
          >
            Rotate secret
          </button>
        </div>
      </form>
      {saved.data?.setWebhook.instance && !saved.data.setWebhook.userErrors.length && <p class="ok">Saved.</p>}
      {testAnswer && !testAnswer.userErrors.length && (
        <p class={testAnswer.status === 'sent' ? 'ok' : 'error'} role="status">
          {testAnswer.status === 'sent' ? `The receiver answered ${testAnswer.response?.statusCode}: ${testAnswer.response?.body || '(empty body)'}` : `Not delivered: ${testAnswer.error}`}
        </p>
      )}
      {secret && (
        <div class="warning" role="status">
          <p>New signing secret (shown only now):</p>
          <SecretToCopy secret={secret} what="new signing secret" />
        </div>
      )}
      <div class="heading">
        <h3>Delivery log</h3>
        <button type="button" class="secondary" onClick={() => refresh({ requestPolicy: 'network-only' })}>
          Refresh
        </button>
      </div>
      <Errors messages={[describeError(deliveries.error), describeError(redelivered.error)]} />
      {deliveries.data?.instance?.webhookDeliveries.totalCount === 0 && <Empty>No deliveries yet. Events appear here as they are sent to the webhook URL.</Empty>}
      {(deliveries.data?.instance?.webhookDeliveries.edges.length ?? 0) > 0 && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">When</th>
                <th scope="col" />
              </tr>
            </thead>
            <tbody>
              {deliveries.data!.instance!.webhookDeliveries.edges.map(({ node }) => (
                <tr key={node.id}>
                  <td data-label="Event">{eventName(node.event)}</td>
                  <td data-label="Status">{node.status}</td>
                  <td data-label="Attempts">
                    <ul class="attempts">
                      {node.attempts.map((a) => (
                        <li key={a.number}>
                          #{a.number}: {a.statusCode ?? 'no answer'} in {a.durationMs} ms{a.error ? ` (${a.error})` : ''}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td data-label="When">{new Date(node.createdAt).toLocaleString()}</td>
                  <td class="row-actions">
                    <button
                      type="button"
                      class="secondary"
                      disabled={redelivered.fetching}
                      onClick={async () => {
                        await redeliver({ instanceId: props.instanceId, deliveryId: node.id });
                        refresh({ requestPolicy: 'network-only' });
                      }}
                    >
                      Redeliver
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
