import { useState } from 'preact/hooks';
import { Errors } from './notice.js';

/** Reads the text of a QR image in the browser; the decoder loads only when someone scans. */
async function decode(dataUrl: string): Promise<string | null> {
  const { default: jsQR } = await import('jsqr');
  const image = new Image();
  image.src = dataUrl;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.naturalWidth;
  canvas.height = image.naturalHeight;
  const context = canvas.getContext('2d')!;
  context.drawImage(image, 0, 0);
  const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
  return jsQR(pixels.data, pixels.width, pixels.height)?.data ?? null;
}

/** On the sandbox: a simulated phone scans the code shown (the sandbox control API), so pairing can be shown without a phone. */
export function SandboxScan(props: { qrDataUrl: string }) {
  // Empty: a number typed for this instance, never one already linked to another.
  const [phone, setPhone] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      class="sandbox"
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        setError(null);
        try {
          const code = await decode(props.qrDataUrl);
          if (!code) throw new Error('The QR image could not be read.');
          const answer = await fetch('/sandbox/scan', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code, phone }) });
          if (!answer.ok) setError(((await answer.json()) as { error?: { message?: string } }).error?.message ?? `The sandbox answered ${answer.status}.`);
        } catch (failure) {
          setError(failure instanceof Error ? failure.message : String(failure));
        } finally {
          setBusy(false);
        }
      }}
    >
      <label>
        Sandbox phone number
        <input type="tel" required placeholder="+55 11 99999-0001" value={phone} pattern="\+?[1-9](?:[ \-]?[0-9]){6,14}" onInput={(e) => setPhone(e.currentTarget.value)} />
      </label>
      <button type="submit" class="secondary" disabled={busy}>
        Scan with a sandbox phone
      </button>
      <Errors messages={[error]} />
    </form>
  );
}
