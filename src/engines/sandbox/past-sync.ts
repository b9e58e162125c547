import type { LinkTerms } from '../../domain/network/engine.port.js';
import type { MessageRef } from '../../domain/network/engine-messages.js';
import type { SandboxDirectory } from './directory.js';
import { addressBook, backfillBatch, historyBatches } from './past-batches.js';
import { pastTag, type PhonePast } from './past.js';
import type { SandboxPasts } from './pasts.js';
import { sandboxProfile } from './pictures.js';
import type { SandboxReports } from './reports.js';

const NO_PAST: PhonePast = { chats: [], contacts: [], messages: [] };

/**
 * What a sandbox phone tells its linked device of its past (docs/engines.md, "The sandbox's past"),
 * for one session: its address book and history sync once connected (again whenever it is given a new
 * past), older messages on request, and people's profiles.
 */
export function createPastSync(deps: { instanceId: string; pasts: SandboxPasts; directory: SandboxDirectory; reports: SandboxReports; publicUrl: string; detached: () => boolean }) {
  const { instanceId, pasts, reports } = deps;
  /** The past and terms last synced (or syncing) by this session: the same again is not sent. */
  let synced: string | undefined;

  /** Reports until stored; stops when the session let go or a report is refused for good. */
  const report = async (work: () => Promise<unknown>) => !deps.detached() && (await reports.once(work));

  async function sync(phone: string, terms: LinkTerms) {
    const past = await pasts.of(phone);
    if (!past) return;
    const tag = `${pastTag(past)}:${terms.history.mode}:${terms.history.days}`;
    if (tag === synced) return;
    synced = tag;
    try {
      const book = addressBook(past);
      if (book.length && !(await report(() => reports.events.contacts(instanceId, book)))) return;
      // After a restart the batches come again under the same keys: those stored are skipped, the rest resume.
      for (const batch of historyBatches(phone, past, terms.history, new Date())) {
        if (!(await report(() => reports.events.history(instanceId, batch)))) return;
      }
    } catch (error) {
      synced = undefined;
      throw error;
    }
  }

  return {
    /** The instance is connected as `phone` (+digits): its phone's past comes, unless this session sent it already. */
    connected(phone: string, terms: LinkTerms) {
      reports.later(0, () => sync(phone.slice(1), terms));
    },
    /** Older messages of a chat, answered as a history batch shortly after. */
    async backfill(chat: string, count: number, oldest: MessageRef | null, oldestAt: Date | null) {
      const phone = await deps.directory.phoneOf(instanceId);
      if (!phone) return;
      const batch = backfillBatch(phone, (await pasts.of(phone)) ?? NO_PAST, chat, count, { networkMessageId: oldest?.networkMessageId ?? null, at: oldestAt });
      reports.later(0, () => report(() => reports.events.history(instanceId, batch)));
    },
    /** A person's profile: made up from the number, for numbers on the network (paired, written to, or in the phone's past). */
    async profile(person: string) {
      const phone = await deps.directory.phoneOf(instanceId);
      const past = phone ? await pasts.of(phone) : null;
      const inPast = past?.contacts.some((contact) => contact.phone === person) || past?.messages.some((message) => (message.from ?? message.chat) === person);
      const known = inPast || (await deps.directory.registered([person])).has(person) || (await deps.directory.wroteTo(instanceId, person));
      return known ? sandboxProfile(person, true, deps.publicUrl) : { about: null, pictureUrl: null, business: false, onNetwork: false };
    },
  };
}
