import type { IgnoreSettings } from '../settings/instance-settings.js';
import type { InboundMessage } from './engine-messages.js';

/**
 * Whether the instance's `ignore` setting drops a received message before anything of it is stored
 * or told (docs/settings.md, "The object"): one of a group, a broadcast list or a status update.
 */
export function isIgnored(ignore: IgnoreSettings, message: Pick<InboundMessage, 'group' | 'chatKind'>): boolean {
  if (message.group && ignore.groups) return true;
  if (message.chatKind === 'broadcast' && ignore.broadcasts) return true;
  return message.chatKind === 'status' && ignore.status;
}
