import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Forbidden, Invalid, Unauthorized } from '../../domain/errors.js';
import type { EngineEvents } from '../../domain/network/engine.port.js';
import type { Logger } from '../../infra/logger.js';
import type { CloudCredentialStore } from './credentials.js';
import type { CloudCredentials } from './credentials-input.js';
import { readWebhook } from './webhook-payload.js';

/** `sha256=<hex>` of the raw body, keyed with the app secret (Graph API "Validating Payloads"). */
function signedBy(appSecret: string, raw: Buffer, header: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`);
  const given = Buffer.from(header.trim().toLowerCase());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const BAD_SIGNATURE = 'X-Hub-Signature-256 does not match the body signed with the app secret of the number it names.';
/** Keys the check of a payload naming no registered number, so it costs what a real check costs. */
const UNREGISTERED_SECRET = randomBytes(32).toString('hex');

export type CloudWebhookReceiver = ReturnType<typeof createCloudWebhookReceiver>;

/**
 * `POST /webhooks/cloud`: the network's signed reports. The signature is checked over the exact bytes
 * received, with the app secret of the instance the payload's `metadata.phone_number_id` names; then
 * everything it carries is stored before the answer, so the network retries whatever was not kept.
 */
export function createCloudWebhookReceiver(deps: {
  credentials: CloudCredentialStore;
  events: () => EngineEvents;
  logger: Logger;
  /** autoRead (docs/settings.md): whether the instance wants what it receives marked read, and the API's read mark. */
  autoRead?: { wanted(instanceId: string): Promise<boolean>; mark(credentials: CloudCredentials, messageId: string): Promise<{ ok: boolean }> };
}) {
  const log = deps.logger.child({ engine: 'CHAT-CLOUD' });
  return {
    async receive(raw: Buffer, signature: string | undefined): Promise<{ messages: number; statuses: number }> {
      if (!signature) throw new Unauthorized('X-Hub-Signature-256 is missing: the network signs every webhook with the app secret.');
      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new Invalid('The request body is not valid JSON.');
      }
      const updates = readWebhook(body);
      if (!updates) throw Invalid.at('entry', 'must be the list of entries of a whatsapp_business_account webhook');
      if (updates.length === 0) throw Invalid.at('entry', 'names no metadata.phone_number_id in any change');
      const registered = await deps.credentials.byPhoneNumberIds(updates.map((update) => update.phoneNumberId));
      // Every instance of a named number whose app secret signed these bytes takes its part of them. A
      // number nobody registered is answered as a bad signature, after the same work: an unsigned caller
      // must not learn which numbers this gateway serves.
      const signedFor = registered.length
        ? registered.filter(({ credentials }) => signedBy(credentials.appSecret, raw, signature))
        : (signedBy(UNREGISTERED_SECRET, raw, signature), []);
      if (signedFor.length === 0) throw new Forbidden(BAD_SIGNATURE);
      const events = deps.events();
      let messages = 0;
      let statuses = 0;
      for (const { instanceId, credentials } of signedFor) {
        const update = updates.find((candidate) => candidate.phoneNumberId === credentials.phoneNumberId)!;
        /** The last message each chat sent in this payload, when the instance reads at once. */
        const toRead = new Map<string, string>();
        const reads = update.inbound.length > 0 && (await deps.autoRead?.wanted(instanceId)) === true;
        for (const message of update.inbound) {
          // A file is fetched later with this instance's token: its descriptor names the instance.
          const media = message.media && { ...message.media, source: { ...(message.media.source as object), instanceId } };
          const stored = await events.inbound(instanceId, media ? { ...message, media } : message);
          if (stored && reads && message.from && message.networkMessageId) toRead.set(message.from, message.networkMessageId);
          messages++;
        }
        // The API marks the messages before the one named in its chat too: one mark per chat.
        for (const messageId of toRead.values()) {
          const marked = await deps.autoRead!.mark(credentials, messageId).catch(() => ({ ok: false }));
          if (!marked.ok) log.warn({ instanceId, messageId }, 'a received message could not be marked read');
        }
        if (update.receipts.length) await events.receipts(instanceId, update.receipts);
        statuses += update.receipts.length;
        for (const error of update.errors) log.warn({ instanceId, code: error.code, error: error.message }, 'the network reported an error');
      }
      return { messages, statuses };
    },
  };
}
