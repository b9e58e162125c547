/**
 * Session-variant events the network raises on its own (docs/webhooks.md): group, contact and presence
 * changes. Their shapes are the gateway's (documented in docs/webhooks.md); a person appears as phone
 * digits, or null with the LID when the network hid the number and no mapping is known.
 */
export interface Person {
  phone: string | null;
  lid?: string;
}

export interface GroupSummary {
  /** The network's group id (`<digits>@g.us`). */
  id: string;
  subject: string;
  description: string | null;
  owner: Person | null;
  participants: Array<Person & { admin: 'admin' | 'superadmin' | null }>;
  createdAt: string | null;
}

export interface GroupChange {
  id: string;
  author: Person | null;
  subject?: string;
  description?: string | null;
  /** Only admins may send. */
  announce?: boolean;
  /** Only admins may change the group's settings. */
  restrict?: boolean;
  participants?: { action: 'add' | 'remove' | 'promote' | 'demote'; members: Person[] };
}

export interface ContactChange extends Person {
  pushName?: string;
  /** The contact's profile picture changed or was removed. */
  picture?: 'changed' | 'removed';
  /** The instance blocked or unblocked the contact. */
  blocked?: boolean;
}

export const PRESENCES = ['available', 'unavailable', 'composing', 'recording', 'paused'] as const;

export interface PresenceChange extends Person {
  presence: (typeof PRESENCES)[number];
  /** When last online (an `unavailable` presence), when the network says. */
  lastSeen: string | null;
  /** The group chat it was shown in (typing in a group), else absent. */
  group?: string;
}

export type NetworkEvent =
  | { event: 'groups.upsert'; data: { groups: GroupSummary[] } }
  | { event: 'groups.update'; data: GroupChange }
  | { event: 'contacts.update'; data: { contacts: ContactChange[] } }
  | { event: 'presence.update'; data: PresenceChange };
