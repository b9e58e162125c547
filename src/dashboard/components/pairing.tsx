import { useMutation, useSubscription } from '@urql/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { CombinedError } from '@urql/core';
import { type UserError, problemsOf } from '../errors.js';
import { ConnectionChanges, QrChanges, RegenerateQr, RequestQr } from '../operations.js';
import { Errors } from './notice.js';
import { SandboxScan } from './sandbox-scan.js';
import { PairingCode } from './pairing-code.js';

interface Qr {
  qrCode: string;
  expiresAt: string;
  attemptId: string;
}

interface PairingInstance {
  id: string;
  name: string;
  variant: string;
  status: string;
  phoneNumber?: string | null;
  integration: string;
  qrCode?: Qr | null;
}

function useSecondsLeft(expiresAt: string | undefined) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return expiresAt ? Math.max(0, Math.ceil((Date.parse(expiresAt) - now) / 1000)) : 0;
}

/**
 * The QR code while the instance pairs: the live code first, each new one the moment it is issued
 * (one subscription, which starts with the current code), a countdown, and a way to get a new code once
 * they ran out. The page turns to connected when the phone scans, without a reload.
 */
export function Pairing(props: { instance: PairingInstance }) {
  const { instance } = props;
  const [qrs] = useSubscription({ query: QrChanges, variables: { instanceId: instance.id } });
  useSubscription({ query: ConnectionChanges, variables: { instanceId: instance.id } });
  const [requested, setRequested] = useState<Qr | null>(null);
  const [requestResult, request] = useMutation(RequestQr);
  const [regenerateResult, regenerate] = useMutation(RegenerateQr);
  const [errors, setErrors] = useState<string[]>([]);
  // The newest code wins, wherever it came from (the subscription, a request, the first read).
  const candidates = [qrs.data?.qrUpdated, requested, instance.qrCode].filter((q): q is Qr => Boolean(q));
  const qr = candidates.sort((a, b) => Date.parse(b.expiresAt) - Date.parse(a.expiresAt))[0];
  const secondsLeft = useSecondsLeft(qr?.expiresAt);
  const settle = (error: CombinedError | undefined, payload: { qrCode?: Qr | null; userErrors: UserError[] } | undefined) => {
    setErrors(problemsOf(error, payload?.userErrors));
    if (payload?.qrCode) setRequested(payload.qrCode);
  };
  // A v1 instance shows `initializing` until its QR code is fetched (spec 3.1): the page fetches the
  // code it shows, so the badge says qr_code while the code is on screen.
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current || instance.variant === 'SESSION' || instance.status !== 'initializing' || instance.integration === 'CHAT-CLOUD') return;
    asked.current = true;
    void request({ id: instance.id }).then((answer) => settle(answer.error, answer.data?.requestQrCode));
  }, [instance.id, instance.status]);
  if (instance.status === 'connected') {
    return (
      <div class="card pairing" aria-live="polite">
        <p class="connected-note">
          <span class="status status-ok">connected</span> with {instance.phoneNumber}
        </p>
      </div>
    );
  }
  if (instance.integration === 'CHAT-CLOUD') {
    // No QR code or pairing code: the business API's credentials connect it (a new token by editing it through the API).
    return (
      <div class="card pairing" aria-live="polite">
        <p>Connects with its business API credentials; no QR code. {instance.status === 'connected' ? '' : 'Give it a new access token (PUT with cloud.accessToken) to check them again.'}</p>
      </div>
    );
  }
  const live = qr && secondsLeft > 0;
  // v1 hands out its live code or a new one; a session instance starts a new set of attempts.
  const ask = async () => {
    if (instance.variant === 'SESSION') {
      const answer = await regenerate({ id: instance.id });
      settle(answer.error, answer.data?.regenerateQrCode);
    } else {
      const answer = await request({ id: instance.id });
      settle(answer.error, answer.data?.requestQrCode);
    }
  };
  return (
    <div class="card pairing" aria-live="polite">
      <h2>Link a phone</h2>
      {instance.status === 'connecting' && <p>The phone scanned the code; connecting…</p>}
      {/* The QR code and the pairing code side by side: both ways to link are in view at once. */}
      <div class="pairing-ways">
      <div class="pairing-qr">
      {live ? (
        <>
          <img class="qr" src={qr.qrCode} alt={`QR code to link a phone to ${instance.name}`} width={240} height={240} />
          <p>
            Scan it with the phone’s linked-devices screen. It expires in <strong>{secondsLeft} s</strong>.
          </p>
        </>
      ) : (
        <p>{qr ? 'The QR code expired.' : 'No QR code is showing.'} Get a new one to link a phone.</p>
      )}
      <Errors messages={errors} />
      <div class="actions">
        <button type="button" class={live ? 'secondary' : undefined} disabled={requestResult.fetching || regenerateResult.fetching} onClick={ask}>
          {live || qr ? 'Regenerate QR' : 'Show QR code'}
        </button>
      </div>
      {instance.integration === 'CHAT-SANDBOX' && live && <SandboxScan qrDataUrl={qr.qrCode} />}
      </div>
      <PairingCode instanceId={instance.id} sandbox={instance.integration === 'CHAT-SANDBOX'} />
      </div>
    </div>
  );
}
