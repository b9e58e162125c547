import { type BaileysEventMap, type Contact, type GroupMetadata, type GroupParticipant, isJidGroup, jidDecode } from 'baileys';
import type { ContactChange, GroupChange, GroupSummary, NetworkEvent, Person, PresenceChange } from '../../domain/network/network-events.js';
import { PRESENCES } from '../../domain/network/network-events.js';
import { contactsUpdateEvent, groupsUpsertEvent, groupUpdateEvent, presenceUpdateEvent } from '../../domain/events/network-payloads.js';

/** The library's LID ↔ phone mapping (kept with the engine state): what it knows, and what the network just told. */
export interface PhoneOfLid {
  (lidJid: string): Promise<string | null | undefined>;
  learn?: (lidJid: string, phoneJid: string) => void;
}

/** A person of the network as phone digits, or null and the LID when the mapping does not know the number. */
export async function personOf(jid: string | null | undefined, phoneJid: string | null | undefined, phoneOfLid: PhoneOfLid): Promise<Person | null> {
  const decoded = jid ? jidDecode(jid) : undefined;
  if (!decoded) return null;
  const digitsOf = (value: string | null | undefined) => {
    const user = value ? jidDecode(value) : undefined;
    return user?.server === 's.whatsapp.net' && /^\d+$/.test(user.user) ? user.user : null;
  };
  if (decoded.server === 's.whatsapp.net') return { phone: digitsOf(jid) };
  if (decoded.server !== 'lid') return null;
  const told = digitsOf(phoneJid);
  // The network named both (group metadata does): the mapping is kept for what names the LID alone later.
  if (told) phoneOfLid.learn?.(jid!, phoneJid!);
  const phone = told ?? digitsOf(await phoneOfLid(jid!).catch(() => null));
  return phone ? { phone } : { phone: null, lid: decoded.user };
}

const participantOf = async (participant: GroupParticipant, phoneOfLid: PhoneOfLid) => ({
  ...((await personOf(participant.id, participant.phoneNumber, phoneOfLid)) ?? { phone: null }),
  admin: participant.admin ?? (participant.isSuperAdmin ? 'superadmin' : participant.isAdmin ? 'admin' : null),
});

async function groupOf(group: GroupMetadata, phoneOfLid: PhoneOfLid): Promise<GroupSummary> {
  return {
    id: group.id,
    subject: group.subject,
    description: group.desc ?? null,
    owner: await personOf(group.owner, group.ownerPn, phoneOfLid),
    participants: await Promise.all(group.participants.map((participant) => participantOf(participant, phoneOfLid))),
    createdAt: group.creation ? new Date(group.creation * 1000).toISOString() : null,
  };
}

export async function groupsUpserted(groups: GroupMetadata[], phoneOfLid: PhoneOfLid): Promise<NetworkEvent[]> {
  if (!groups.length) return [];
  return [groupsUpsertEvent(await Promise.all(groups.map((group) => groupOf(group, phoneOfLid))))];
}

export async function groupsUpdated(updates: Partial<GroupMetadata>[], phoneOfLid: PhoneOfLid): Promise<NetworkEvent[]> {
  const events: NetworkEvent[] = [];
  for (const update of updates) {
    if (!update.id) continue;
    const change: GroupChange = { id: update.id, author: await personOf(update.author, update.authorPn, phoneOfLid) };
    if (update.subject !== undefined) change.subject = update.subject;
    if (update.desc !== undefined) change.description = update.desc ?? null;
    if (update.announce !== undefined) change.announce = update.announce;
    if (update.restrict !== undefined) change.restrict = update.restrict;
    // Only what the gateway shows: an update that changed nothing of it is no event.
    if (Object.keys(change).length > 2) events.push(groupUpdateEvent(change));
  }
  return events;
}

export async function participantsChanged(update: BaileysEventMap['group-participants.update'], phoneOfLid: PhoneOfLid): Promise<NetworkEvent[]> {
  if (update.action === 'modify') return [];
  const members = await Promise.all(update.participants.map(async (participant) => (await personOf(participant.id, participant.phoneNumber, phoneOfLid)) ?? { phone: null }));
  return [groupUpdateEvent({ id: update.id, author: await personOf(update.author, update.authorPn, phoneOfLid), participants: { action: update.action, members } })];
}

/**
 * The last push name reported per contact, shared by every instance of the node and bounded: the
 * library repeats a contact's push name with every message it sends, but only a change is an event.
 */
export class PushNames {
  private readonly known = new Map<string, string>();
  constructor(private readonly capacity = 100_000) {}

  /** True when this is news (a first sight or a new name). */
  changed(instanceId: string, jid: string, name: string): boolean {
    const key = `${instanceId}\u0000${jid}`;
    const before = this.known.get(key);
    if (before === name) return false;
    this.known.delete(key);
    this.known.set(key, name);
    if (this.known.size > this.capacity) this.known.delete(this.known.keys().next().value!);
    return true;
  }

  /** What was known for an instance that is deleted: nothing of it stays behind. */
  forget(instanceId: string): void {
    const prefix = `${instanceId}\u0000`;
    for (const key of this.known.keys()) if (key.startsWith(prefix)) this.known.delete(key);
  }
}

export async function contactsUpdated(
  updates: Partial<Contact>[],
  isNews: (jid: string, pushName: string) => boolean,
  phoneOfLid: PhoneOfLid,
): Promise<NetworkEvent[]> {
  const contacts: ContactChange[] = [];
  for (const update of updates) {
    if (!update.id || isJidGroup(update.id)) continue;
    const change: ContactChange = { ...((await personOf(update.id, update.phoneNumber, phoneOfLid)) ?? { phone: null }) };
    if (update.notify && isNews(update.id, update.notify)) change.pushName = update.notify;
    if (update.imgUrl === 'changed' || update.imgUrl === 'removed') change.picture = update.imgUrl;
    if (change.pushName !== undefined || change.picture !== undefined) contacts.push(change);
  }
  return contacts.length ? [contactsUpdateEvent(contacts)] : [];
}

export async function presenceUpdated(update: BaileysEventMap['presence.update'], phoneOfLid: PhoneOfLid): Promise<NetworkEvent[]> {
  const events: NetworkEvent[] = [];
  for (const [jid, data] of Object.entries(update.presences)) {
    const presence = data.lastKnownPresence as PresenceChange['presence'];
    if (!PRESENCES.includes(presence)) continue;
    const person = await personOf(jid, null, phoneOfLid);
    if (!person) continue;
    events.push(
      presenceUpdateEvent({
        ...person,
        presence,
        lastSeen: data.lastSeen ? new Date(data.lastSeen * 1000).toISOString() : null,
        ...(isJidGroup(update.id) ? { group: update.id } : {}),
      }),
    );
  }
  return events;
}
