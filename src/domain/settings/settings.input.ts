import { z } from 'zod';
import { historySyncInput } from '../conversations/history-sync.js';
import { mediaPolicyInput } from '../media/keep-policy.js';
import type { Capability } from '../network/capabilities.js';
import { callsInput, ignoreInput, sendingInput } from './instance-settings.js';
import { proxyUrlInput } from './proxy-url.js';

/**
 * PUT …/settings: each field given replaces that setting (a nested object's missing parts take their
 * defaults); fields not given stay as they are; null resets historySync, media and proxy.
 */
export const settingsInput = z.strictObject({
  calls: callsInput.optional(),
  alwaysOnline: z.boolean({ message: 'must be true or false' }).optional(),
  autoRead: z.boolean({ message: 'must be true or false' }).optional(),
  ignore: ignoreInput.optional(),
  historySync: historySyncInput.nullish(),
  media: mediaPolicyInput.nullish(),
  sending: sendingInput.optional(),
  proxy: z.strictObject({ url: proxyUrlInput }).nullish(),
});
export type SettingsInput = z.output<typeof settingsInput>;

/**
 * The capability each setting needs when it is turned on (docs/settings.md): an engine without it
 * refuses the setting with 422 not_supported. Ignoring, pacing and kept media are the gateway's own; an engine without history sync ignores historySync.
 */
export function capabilitiesNeeded(input: SettingsInput): Array<{ field: string; capability: Capability }> {
  const needs: Array<{ field: string; capability: Capability }> = [];
  if (input.calls?.reject) needs.push({ field: 'calls.reject', capability: 'calls' });
  if (input.alwaysOnline) needs.push({ field: 'alwaysOnline', capability: 'always_online' });
  if (input.autoRead) needs.push({ field: 'autoRead', capability: 'read' });
  if (input.sending?.typing) needs.push({ field: 'sending.typing', capability: 'typing' });
  if (input.proxy) needs.push({ field: 'proxy', capability: 'proxy' });
  return needs;
}
