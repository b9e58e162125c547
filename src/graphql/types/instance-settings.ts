import type { InstanceSettings } from '../../domain/settings/instance-settings.js';
import { builder } from '../builder.js';
import { MutationPayload, payloadOf, type Payload } from './errors.js';
import { InstanceType } from './instances.js';

/** An instance's settings (docs/settings.md): the same service and rules as GET/PUT …/settings. */

type Shown = InstanceSettings;

const CallSettingsType = builder.objectRef<Shown['calls']>('CallSettings').implement({
  description: 'What the instance does when its number is called.',
  fields: (t) => ({
    reject: t.exposeBoolean('reject', { description: 'Calls are rejected.' }),
    message: t.exposeString('message', { nullable: true, description: 'Sent to the caller after a rejected call; never while reject is off.' }),
  }),
});

const IgnoreSettingsType = builder.objectRef<Shown['ignore']>('IgnoreSettings').implement({
  description: 'Received messages of these chats are dropped: no webhook, nothing stored.',
  fields: (t) => ({
    groups: t.exposeBoolean('groups', { description: 'Group messages.' }),
    broadcasts: t.exposeBoolean('broadcasts', { description: 'Messages to broadcast lists.' }),
    status: t.exposeBoolean('status', { description: 'Status updates.' }),
  }),
});

const SendingSettingsType = builder.objectRef<Shown['sending']>('SendingSettings').implement({
  description: 'How the queue hands messages to the network (docs/settings.md, "Sending").',
  fields: (t) => ({
    minIntervalMs: t.exposeInt('minIntervalMs', { description: 'At least this long between two messages.' }),
    jitterMs: t.exposeInt('jitterMs', { description: 'Plus up to this long at random.' }),
    newContactsPerHour: t.exposeInt('newContactsPerHour', { nullable: true, description: 'First messages to new numbers per hour; null: no limit.' }),
    typing: t.exposeBoolean('typing', { description: 'Typing is shown before a text.' }),
  }),
});

const HistorySyncSettingsType = builder.objectRef<Shown['historySync']>('HistorySyncSettings').implement({
  description: "How much of the phone's past the instance takes when it links (docs/conversations.md).",
  fields: (t) => ({
    mode: t.exposeString('mode', { description: 'none, recent or full.' }),
    days: t.exposeInt('days', { description: 'With recent: how many days back.' }),
  }),
});

const MediaSettingsType = builder.objectRef<Shown['media']>('MediaSettings').implement({
  description: 'Which received and sent media the instance keeps (docs/media.md).',
  fields: (t) => ({
    keep: t.field({ type: 'JSON', description: '"all", "none", or a list of kinds.', resolve: (m) => m.keep }),
    maxBytes: t.exposeFloat('maxBytes', { description: 'Files up to this size are kept.' }),
  }),
});

const ProxySettingsType = builder.objectRef<NonNullable<Shown['proxy']>>('ProxySettings').implement({
  description: "The instance's proxy: the network's socket and media go through it.",
  fields: (t) => ({
    url: t.exposeString('url', { description: 'Without its password (user:***@host:port).' }),
    exitAddress: t.exposeString('exitAddress', { nullable: true, description: 'The address the outside world saw through it when it was set.' }),
    checkedAt: t.exposeString('checkedAt', { nullable: true, description: 'When it was checked (ISO 8601).' }),
  }),
});

export const InstanceSettingsType = builder.objectRef<Shown>('InstanceSettings').implement({
  description: 'Every setting of an instance (as GET /v1/chat/instances/<id>/settings).',
  fields: (t) => ({
    calls: t.field({ type: CallSettingsType, description: 'What it does when its number is called.', resolve: (s) => s.calls }),
    alwaysOnline: t.exposeBoolean('alwaysOnline', { description: 'The account shows online while connected.' }),
    autoRead: t.exposeBoolean('autoRead', { description: 'Received messages are marked read as they arrive.' }),
    ignore: t.field({ type: IgnoreSettingsType, description: 'Received messages it drops.', resolve: (s) => s.ignore }),
    historySync: t.field({ type: HistorySyncSettingsType, description: "How much of the phone's past it takes.", resolve: (s) => s.historySync }),
    media: t.field({ type: MediaSettingsType, description: 'Which media it keeps.', resolve: (s) => s.media }),
    sending: t.field({ type: SendingSettingsType, description: 'How its queue is paced.', resolve: (s) => s.sending }),
    proxy: t.field({ type: ProxySettingsType, nullable: true, description: 'Its proxy; null for none.', resolve: (s) => s.proxy }),
  }),
});

builder.objectFields(InstanceType, (t) => ({
  settings: t.field({
    type: InstanceSettingsType,
    description: "The instance's settings (docs/settings.md).",
    resolve: async (instance, _args, ctx) => ctx.services.settings.get(await ctx.actor(), instance.id),
  }),
}));

const UpdateInstanceSettingsInput = builder.inputType('UpdateInstanceSettingsInput', {
  description: 'Which instance, and the settings to change: each field given replaces that setting, the others stay (as PUT …/settings).',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The instance.' }),
    settings: t.field({ type: 'JSON', required: true, description: 'The fields of PUT /v1/chat/instances/<id>/settings, e.g. {"calls": {"reject": true}}.' }),
  }),
});

const UpdateInstanceSettingsPayload = builder.objectRef<Payload<{ settings: Shown }>>('UpdateInstanceSettingsPayload').implement({
  description: 'The settings now, or why nothing changed.',
  interfaces: [MutationPayload],
  fields: (t) => ({
    settings: t.field({ type: InstanceSettingsType, nullable: true, description: 'The settings now; null when nothing changed.', resolve: (p) => p.settings ?? null }),
  }),
});

builder.mutationField('updateInstanceSettings', (t) =>
  t.field({
    type: UpdateInstanceSettingsPayload,
    description: "Changes an instance's settings (as PUT …/settings): 422 not_supported for one its engine cannot carry, proxy_unreachable for a proxy that does not work.",
    args: { input: t.arg({ type: UpdateInstanceSettingsInput, required: true, description: 'Which instance and what to change.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      return payloadOf(async () => ({ settings: await ctx.services.settings.update(actor, String(input.id), input.settings) }));
    },
  }),
);
