import { createHmac } from 'node:crypto';

/** X-Hub-Signature-256: `sha256=` + hex HMAC-SHA256 of the raw body with the instance secret. */
export function hubSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, keyed with the secret's bytes. */
export function standardSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64')}`;
}

/** After a rotation, deliveries are signed with the old secret too for this long, so receivers can switch over. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** What signs an instance's deliveries. */
export interface SigningSecrets {
  webhookSecret: string;
  previousWebhookSecret: string | null;
  webhookSecretRotatedAt: Date | null;
}

/** The secrets that sign now: the current one first, then the previous one within a day of a rotation. */
export function secretsAt(secrets: SigningSecrets, now: Date): string[] {
  const { webhookSecret, previousWebhookSecret, webhookSecretRotatedAt } = secrets;
  const overlapping = previousWebhookSecret && webhookSecretRotatedAt && now.getTime() - webhookSecretRotatedAt.getTime() < SECRET_OVERLAP_MS;
  return overlapping ? [webhookSecret, previousWebhookSecret] : [webhookSecret];
}

/**
 * The headers of a delivery. `X-Hub-Signature-256` holds one HMAC: the old secret's until the overlap
 * ends, so a receiver that has not switched yet loses nothing; `webhook-signature` carries one `v1,`
 * entry per signing secret, for a receiver that has (docs/webhooks.md, "Rotating the secret").
 */
export function signedHeaders(secrets: SigningSecrets, deliveryId: string, event: string, body: string, now: Date): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  const signing = secretsAt(secrets, now);
  return {
    'content-type': 'application/json',
    'x-hub-signature-256': hubSignature(signing.at(-1)!, body),
    'x-webhook-id': deliveryId,
    'x-webhook-event': event,
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signing.map((secret) => standardSignature(secret, deliveryId, timestamp, body)).join(' '),
  };
}
