import { useMutation } from '@urql/preact';
import { useState } from 'preact/hooks';
import { problemsOf } from '../errors.js';
import { RequestPairingCode } from '../operations.js';
import { Errors } from './notice.js';

/** The code as the phone shows its boxes: two groups of four. */
const shown = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

/**
 * "Link with phone number": a code the phone's owner types in instead of scanning. On the sandbox,
 * a simulated phone can enter it (the sandbox control API), so the flow can be shown without a phone.
 */
export function PairingCode(props: { instanceId: string; sandbox: boolean }) {
  const [phone, setPhone] = useState('');
  const [pairing, setPairing] = useState<{ code: string; expiresAt: string; phone: string } | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [result, request] = useMutation(RequestPairingCode);
  const [entering, setEntering] = useState(false);
  return (
    <form
      class="pairing-code"
      aria-label="Link with phone number"
      onSubmit={async (event) => {
        event.preventDefault();
        const answer = await request({ id: props.instanceId, phone });
        const payload = answer.data?.requestPairingCode;
        setErrors(problemsOf(answer.error, payload?.userErrors));
        setPairing(payload?.code && payload.expiresAt ? { code: payload.code, expiresAt: payload.expiresAt, phone } : null);
      }}
    >
      <h3>Or link with the phone number</h3>
      <label>
        Phone number to link
        <input type="tel" required placeholder="+55 11 99999-0001" value={phone} pattern="\+?[1-9](?:[ \-]?[0-9]){6,14}" onInput={(e) => setPhone(e.currentTarget.value)} />
      </label>
      <div class="actions">
        <button type="submit" class="secondary" disabled={result.fetching}>
          Get pairing code
        </button>
      </div>
      {pairing && (
        <p>
          On that phone: Linked devices → Link with phone number, then enter <strong class="code">{shown(pairing.code)}</strong> (valid until{' '}
          {new Date(pairing.expiresAt).toLocaleTimeString()}).
        </p>
      )}
      {pairing && props.sandbox && (
        <button
          type="button"
          class="secondary"
          disabled={entering}
          onClick={async () => {
            setEntering(true);
            const answer = await fetch('/sandbox/pair', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ code: pairing.code, phone: pairing.phone }),
            });
            setEntering(false);
            if (!answer.ok) setErrors([((await answer.json()) as { error?: { message?: string } }).error?.message ?? `The sandbox answered ${answer.status}.`]);
          }}
        >
          Enter it on the sandbox phone
        </button>
      )}
      <Errors messages={errors} />
    </form>
  );
}
