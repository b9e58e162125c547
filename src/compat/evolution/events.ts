import { Invalid } from '../../domain/errors.js';

/** Evolution's event names (its webhook/set and instance create bodies) and the gateway's event each is. */
const CARRIED: Record<string, string> = {
  MESSAGES_UPSERT: 'messages.upsert',
  MESSAGES_UPDATE: 'messages.update',
  MESSAGES_DELETE: 'messages.delete',
  CONNECTION_UPDATE: 'connection.update',
  QRCODE_UPDATED: 'qr.update',
  CALL: 'call',
};

/** Evolution's names the gateway has no event for on these instances (docs/evolution.md, "Webhooks"): accepted, never delivered. */
const NOT_CARRIED = [
  'APPLICATION_STARTUP', 'MESSAGES_SET', 'MESSAGES_EDITED', 'SEND_MESSAGE', 'SEND_MESSAGE_UPDATE', 'CONTACTS_SET', 'CONTACTS_UPSERT', 'CONTACTS_UPDATE',
  'PRESENCE_UPDATE', 'CHATS_SET', 'CHATS_UPSERT', 'CHATS_UPDATE', 'CHATS_DELETE', 'GROUPS_UPSERT', 'GROUP_UPDATE', 'GROUP_PARTICIPANTS_UPDATE',
  'LABELS_EDIT', 'LABELS_ASSOCIATION', 'TYPEBOT_START', 'TYPEBOT_CHANGE_STATUS', 'REMOVE_INSTANCE', 'LOGOUT_INSTANCE', 'INSTANCE_CREATE', 'INSTANCE_DELETE', 'STATUS_INSTANCE',
];

/** The gateway's events for Evolution's names; null (its default events) when none are given. */
export function eventsFromEvolution(names: unknown, field: string): string[] | null {
  if (names === undefined || names === null) return null;
  if (!Array.isArray(names) || names.some((name) => typeof name !== 'string')) throw Invalid.at(field, 'must be a list of event names such as MESSAGES_UPSERT');
  const unknown = names.filter((name: string) => CARRIED[name] === undefined && !NOT_CARRIED.includes(name));
  if (unknown.length) throw Invalid.at(field, `unknown event name(s) ${unknown.join(', ')}`);
  const events = [...new Set(names.flatMap((name: string) => (CARRIED[name] ? [CARRIED[name]] : [])))];
  return events.length ? events : null;
}

/** The gateway's events in Evolution's names. */
export function evolutionNamesOf(events: readonly string[]): string[] {
  return Object.entries(CARRIED).filter(([, event]) => events.includes(event)).map(([name]) => name);
}
