// Test helper: a file uploaded to the local API as a client would.
import type { CloudApi } from './api.js';

/** `POST /<phone-number-id>/media` as a client uploads: multipart `file`, `type`, `messaging_product`. */
export async function upload(cloud: CloudApi, number: { phoneNumberId: string; accessToken: string }, bytes: Uint8Array, type: string): Promise<string> {
  const form = new FormData();
  form.set('messaging_product', 'whatsapp');
  form.set('type', type);
  form.set('file', new Blob([new Uint8Array(bytes)], { type }), 'file');
  const res = await fetch(`${cloud.url}/v23.0/${number.phoneNumberId}/media`, { method: 'POST', headers: { authorization: `Bearer ${number.accessToken}` }, body: form });
  if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}
