import { z } from 'zod';
import { settingsInput } from '../../domain/settings/settings.input.js';
import type { Credential, Operation } from '../../http/operation.js';
import * as s from './schemas.js';

const instant = z.iso.datetime({ offset: true }).meta({ description: 'an instant, ISO 8601 in UTC' });

export const InstanceSettings = z
  .object({
    calls: z.object({ reject: z.boolean(), message: z.string().nullable().meta({ description: 'sent to the caller after a rejected call; never while reject is off' }) }),
    alwaysOnline: z.boolean(),
    autoRead: z.boolean(),
    ignore: z.object({ groups: z.boolean(), broadcasts: z.boolean(), status: z.boolean() }).meta({ description: 'received messages of these chats are dropped: no webhook, nothing stored' }),
    historySync: s.HistorySync,
    media: s.MediaPolicy,
    sending: z.object({ minIntervalMs: z.number().int(), jitterMs: z.number().int(), newContactsPerHour: z.number().int().nullable(), typing: z.boolean() }),
    proxy: z
      .object({ url: z.string().meta({ description: 'without its password: user:***@host:port' }), exitAddress: z.string().nullable(), checkedAt: z.string().nullable() })
      .nullable(),
  })
  .meta({ id: 'InstanceSettings', description: 'docs/settings.md' });

export const AccountRestrictions = z
  .object({
    timelock: z.object({ reason: z.string(), until: instant }).nullable().meta({ description: 'first messages to new contacts are held until then; null when they are not' }),
    messageCap: z
      .object({ limit: z.number().int(), used: z.number().int(), resetAt: instant.nullable() })
      .nullable()
      .meta({ description: "the network's cap of first messages to new contacts in its current cycle; null when it sets none" }),
  })
  .meta({ id: 'AccountRestrictions', description: 'docs/settings.md, "Restrictions"' });

/** An instance's settings (docs/settings.md): the same under /v1 (key) and without it (cookie). */
export function settingsOperations(prefix: string, auth: Credential[]): Operation[] {
  const path = `${prefix}/:instanceId/settings`;
  const tag = 'Instances';
  return [
    { method: 'get', path, tag, summary: "The instance's settings: calls, presence, reading, ignoring, history, media, sending and proxy", auth, success: { status: 200, schema: s.okEnvelope(InstanceSettings), description: 'the settings' }, errors: [403, 404] },
    {
      method: 'put',
      path,
      tag,
      summary: 'Change some settings: each field given replaces that setting, the others stay; a setting the engine cannot carry is 422 not_supported, a proxy that does not work 422 proxy_unreachable, and nothing changes',
      auth,
      body: settingsInput,
      success: { status: 200, schema: s.okEnvelope(InstanceSettings), description: 'the settings now' },
      errors: [400, 403, 404, 422],
    },
    {
      method: 'get',
      path: `${prefix}/:instanceId/restrictions`,
      tag,
      summary: "The account's reach-out timelock and new-contact message cap, as the network tells them now (capability reach_limits)",
      auth,
      success: { status: 200, schema: s.okEnvelope(AccountRestrictions), description: 'the restrictions' },
      errors: [403, 404, 409, 422, 502],
    },
  ];
}
