/**
 * What an engine can do, by name, as its descriptor lists them (each action beyond sending an optional
 * session method, session-actions.ts); a request needing one its engine lacks is 422 `not_supported`.
 */
export const CAPABILITIES = [
  'text',
  'media',
  'voice',
  'sticker',
  'location',
  'contacts',
  'reaction',
  'poll',
  'reply',
  'mentions',
  'edit',
  'delete',
  'read',
  'typing',
  'groups',
  'group_admin',
  'number_check',
  'template',
  'history',
  'chat_state',
  'block',
  'profile',
  // Instance settings and the account (docs/settings.md).
  'calls',
  'always_online',
  'own_profile',
  'privacy',
  'proxy',
  'reach_limits',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** How an instance of an engine links to its network. */
export const LOGIN_FLOWS = ['qr', 'pairing_code', 'credentials'] as const;
export type LoginFlow = (typeof LOGIN_FLOWS)[number];

/** What an engine does when its descriptor lists nothing: text and media, linked by QR code or pairing code. */
const BASIC_CAPABILITIES: readonly Capability[] = ['text', 'media'];
const PAIRING: readonly LoginFlow[] = ['qr', 'pairing_code'];

/** Whether an engine does `capability`. */
export const can = (engine: { capabilities?: readonly Capability[] } | undefined, capability: Capability) =>
  engine !== undefined && (engine.capabilities ?? BASIC_CAPABILITIES).includes(capability);

/** Whether an engine's instances link by `flow`. */
export const linksBy = (engine: { loginFlows?: readonly LoginFlow[] } | undefined, flow: LoginFlow) =>
  engine !== undefined && (engine.loginFlows ?? PAIRING).includes(flow);

/** Everything an engine does (none for an engine the deployment does not offer). */
export const capabilitiesOf = (engine: { capabilities?: readonly Capability[] } | undefined): readonly Capability[] =>
  engine === undefined ? [] : (engine.capabilities ?? BASIC_CAPABILITIES);
