import { type Contact, isJidGroup, type WAMessage, type WASocket } from 'baileys';
import type { ContactInfo, HistoryBatch, HistorySyncPolicy } from '../../domain/network/engine-history.js';
import type { MediaSource } from '../../domain/media/media-source.js';
import type { Logger } from '../../infra/logger.js';
import { chunkReport, historyNotices, type LidPhones, migratedMappings, readHistory } from './history.js';
import { lidOf } from './inbound.js';
import type { BaileysMediaSource } from './media-source.js';
import { userJidDigits } from './message-refs.js';

/** What turning a socket's history and contact news into reports needs. */
export interface HistoryDeps {
  sock: WASocket;
  media: MediaSource;
  /** The instance's history policy now (its link terms). */
  policy(): HistorySyncPolicy;
  /** The media hosts the network announced to this connection. */
  hosts(): Promise<string[]>;
  log: Logger;
}

/** The phone digits the library's LID mapping knows for a LID jid. */
export const knownPhones =
  (sock: WASocket): LidPhones =>
  async (jid) =>
    userJidDigits(await sock.signalRepository.lidMapping.getPNForLID(jid).catch(() => null));

/**
 * The history chunks and LID mappings among upserted messages, as batches and contacts: each chunk
 * read, filtered by the policy and its mappings kept for the library; a chunk that cannot be read is
 * skipped (the phone's sync goes on without it).
 */
export async function historyReports(messages: WAMessage[], deps: HistoryDeps): Promise<{ history?: HistoryBatch[]; contacts?: ContactInfo[] }> {
  const notices = historyNotices(messages);
  const contacts = migratedMappings(messages);
  if (!notices.length) return contacts.length ? { contacts } : {};
  const history: HistoryBatch[] = [];
  const hosts = await deps.hosts();
  for (const notice of notices) {
    try {
      const sync = await readHistory(notice, deps.media, hosts);
      const report = await chunkReport(notice, sync, deps.policy(), knownPhones(deps.sock));
      if (report.mappings.length) await deps.sock.signalRepository.lidMapping.storeLIDPNMappings(report.mappings).catch(() => {});
      if (report.batch) {
        for (const { message } of report.batch.messages) if (message.media) (message.media.source as unknown as BaileysMediaSource).hosts = hosts;
        history.push(report.batch);
      }
      contacts.push(...report.contacts);
    } catch (error) {
      deps.log.warn({ err: error, chunk: notice.id }, 'a history chunk could not be read; it is skipped');
    }
  }
  return { history, contacts };
}

/** People the library reports (contacts.upsert or .update): number, LID and names, as far as known. */
export async function contactInfos(contacts: Partial<Contact>[], phones: LidPhones): Promise<ContactInfo[]> {
  const infos: ContactInfo[] = [];
  for (const contact of contacts) {
    if (!contact.id || isJidGroup(contact.id)) continue;
    const lid = lidOf(contact.id) ?? lidOf(contact.lid);
    const phone = userJidDigits(contact.id) ?? userJidDigits(contact.phoneNumber) ?? (lid ? await phones(`${lid}@lid`) : null);
    if (!phone && !lid) continue;
    infos.push({
      phone,
      ...(lid ? { lid } : {}),
      ...(contact.name ? { name: contact.name } : {}),
      ...(contact.notify ? { pushName: contact.notify } : {}),
    });
  }
  return infos;
}

/**
 * The LID ↔ phone pairs of messages addressed by LID with the number beside it, each once per `seen`
 * (a message addressed by number already names its sender by number).
 */
export function keyMappings(messages: WAMessage[], seen: Set<string>): ContactInfo[] {
  const found: ContactInfo[] = [];
  for (const { key } of messages) {
    for (const [jid, alt] of [
      [key.remoteJid, key.remoteJidAlt],
      [key.participant, key.participantAlt],
    ]) {
      const lid = lidOf(jid);
      const phone = userJidDigits(alt);
      if (!lid || !phone || seen.has(lid)) continue;
      seen.add(lid);
      found.push({ phone, lid });
    }
  }
  return found;
}

/** A LID ↔ phone pair the library learnt (lid-mapping.update), as a contact. */
export function mappedContact(update: { lid?: string; pn?: string }): ContactInfo[] {
  const lid = lidOf(update.lid);
  const phone = userJidDigits(update.pn);
  return lid && phone ? [{ phone, lid }] : [];
}
