import { useMutation, useQuery } from '@urql/preact';
import { useState } from 'preact/hooks';
import { Errors } from '../components/notice.js';
import { Pairing } from '../components/pairing.js';
import { StatusBadge } from '../components/status.js';
import { SecretToCopy } from '../components/secret-to-copy.js';
import type { CombinedError } from '@urql/core';
import { describeError, problemsOf, type UserError } from '../errors.js';
import { DeleteInstance, Disconnect, InstanceDetail, SetActive } from '../operations.js';
import { hrefOf } from '../router.js';
import { WebhookSection } from './webhooks.js';
import { SettingsSection } from './instance-settings.js';
import { takeShownOnce } from '../shown-once.js';
import { integrationName, reasonInWords } from '../integrations.js';

export function InstancePage(props: { id: string }) {
  // Shown from the cache at once, then read again: counters change without an event.
  const [detail] = useQuery({ query: InstanceDetail, variables: { id: props.id }, requestPolicy: 'cache-and-network' });
  const [errors, setErrors] = useState<string[]>([]);
  // The webhook secret of an instance just created here: shown on this visit only, as REST shows it once.
  const [secret] = useState(() => takeShownOnce(props.id));
  const [activeResult, setActive] = useMutation(SetActive);
  const [disconnectResult, disconnect] = useMutation(Disconnect);
  const [deleteResult, remove] = useMutation(DeleteInstance);
  const instance = detail.data?.instance;
  if (detail.fetching && !detail.data) return <p class="loading">Loading…</p>;
  if (!instance) {
    return (
      <section>
        <Errors messages={[describeError(detail.error) ?? 'This instance does not exist (any more).']} />
        <a href={hrefOf({ page: 'instances' })}>Back to the instances</a>
      </section>
    );
  }
  const report = (error: CombinedError | undefined, userErrors: UserError[] | undefined) => setErrors(problemsOf(error, userErrors));
  const connected = instance.status === 'connected';
  return (
    <section>
      <p>
        <a href={hrefOf({ page: 'instances' })}>← Instances</a>
      </p>
      <div class="heading">
        <h1>{instance.name}</h1>
        <StatusBadge instance={instance} />
        <a class="button" href={hrefOf({ page: 'inbox', id: instance.id, chat: null })}>
          Inbox
        </a>
      </div>
      {secret && (
        <div class="warning" role="status">
          <p>
            <strong>Copy the webhook signing secret now: it is shown only once.</strong> Your receiver checks every delivery's signature with it.
          </p>
          <SecretToCopy secret={secret} what="webhook signing secret" />
        </div>
      )}
      {/* Linking comes first while the instance has no phone: the QR code and the pairing code in view. */}
      {!connected && <Pairing instance={instance} />}
      <dl class="facts">
        <dt>Kind</dt>
        <dd>{instance.variant === 'SESSION' ? 'session' : 'v1'}</dd>
        <dt>Network</dt>
        <dd>{integrationName(instance.integration)}</dd>
        <dt>Phone</dt>
        <dd>{instance.phoneNumber ?? 'not linked yet'}</dd>
        <dt>Active</dt>
        <dd>{instance.active ? 'yes' : 'no (carries no routed messages)'}</dd>
        <dt>Messages</dt>
        <dd>
          {instance.statistics.messagesSent} sent, {instance.statistics.messagesReceived} received
        </dd>
        {instance.lastDisconnect && (
          <>
            <dt>Last disconnect</dt>
            <dd>
              {reasonInWords(instance.lastDisconnect.reason)}, <time dateTime={instance.lastDisconnect.at}>{new Date(instance.lastDisconnect.at).toLocaleString()}</time>
            </dd>
          </>
        )}
        {instance.restricted && (
          <>
            <dt>Held by the network</dt>
            <dd>
              Sending waits ({instance.restricted.reason.replaceAll('_', ' ')}) until <time dateTime={instance.restricted.until}>{new Date(instance.restricted.until).toLocaleString()}</time>; nothing is lost, the queue resumes by itself.
            </dd>
          </>
        )}
        {instance.description && (
          <>
            <dt>Description</dt>
            <dd>{instance.description}</dd>
          </>
        )}
      </dl>
      {connected && <Pairing instance={instance} />}
      <Errors messages={errors} />
      <div class="actions">
        <button
          type="button"
          class="secondary"
          disabled={activeResult.fetching}
          onClick={async () => {
            const answer = await setActive({ id: instance.id, active: !instance.active });
            report(answer.error, answer.data?.setInstanceActive.userErrors);
          }}
        >
          {instance.active ? 'Deactivate' : 'Activate'}
        </button>
        {connected && (
          <button
            type="button"
            class="secondary"
            disabled={disconnectResult.fetching}
            onClick={async () => {
              if (!confirm(`Log the phone out of “${instance.name}”? It can pair again.`)) return;
              const answer = await disconnect({ id: instance.id });
              report(answer.error, answer.data?.disconnectInstance.userErrors);
            }}
          >
            Disconnect
          </button>
        )}
        <button
          type="button"
          class="danger"
          disabled={deleteResult.fetching}
          onClick={async () => {
            if (!confirm(`Delete “${instance.name}” with its messages and deliveries? This cannot be undone.`)) return;
            const answer = await remove({ id: instance.id });
            report(answer.error, answer.data?.deleteInstance.userErrors);
            if (answer.data?.deleteInstance.deletedInstanceId) location.hash = hrefOf({ page: 'instances' });
          }}
        >
          Delete
        </button>
      </div>
      <WebhookSection instanceId={instance.id} variant={instance.variant} url={instance.webhookUrl ?? ''} events={instance.webhookEvents} />
      <SettingsSection instanceId={instance.id} integration={instance.integration} />
    </section>
  );
}
