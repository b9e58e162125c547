/**
 * What an engine can carry beyond the spec's text and media (docs/messaging.md). Each integration
 * publishes its list (`GET /v1/integrations`); a request needing one its instance's engine lacks is
 * refused with 422 `not_supported` before anything is stored.
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
] as const;
export type Capability = (typeof CAPABILITIES)[number];
