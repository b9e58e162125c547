import type { CatalogueEvent } from './catalogue.js';
import type { ContactChange, GroupChange, GroupSummary, NetworkEvent, PresenceChange } from '../network/network-events.js';

/** groups.upsert: groups the instance is now in, whole. */
export function groupsUpsertEvent(groups: GroupSummary[]): NetworkEvent {
  return { event: 'groups.upsert', data: { groups } } satisfies CatalogueEvent;
}

/** groups.update: what changed in one group (its fields, or who is in it), and who changed it. */
export function groupUpdateEvent(change: GroupChange): NetworkEvent {
  return { event: 'groups.update', data: change } satisfies CatalogueEvent;
}

/** contacts.update: contacts whose push name or picture changed. */
export function contactsUpdateEvent(contacts: ContactChange[]): NetworkEvent {
  return { event: 'contacts.update', data: { contacts } } satisfies CatalogueEvent;
}

/** presence.update: a contact came online, went offline or is typing. */
export function presenceUpdateEvent(presence: PresenceChange): NetworkEvent {
  return { event: 'presence.update', data: presence } satisfies CatalogueEvent;
}
