import type { SessionActions } from '../../domain/network/engine.port.js';
import type { ContactProfile } from '../../domain/network/engine-history.js';
import type { ActionSession } from './actions.js';
import { chatJid, keyOf, phoneJid } from './message-refs.js';
import { onTheNetwork } from './on-the-network.js';
import { isNoPicture } from './no-picture.js';


/**
 * What CHAT-BAILEYS does for conversations (docs/engines.md, "History sync"): older messages asked of
 * the phone, blocks, and a person's profile as the network shows it.
 */
export function baileysChatActions(sessionOf: () => ActionSession): Pick<SessionActions, 'backfill' | 'block' | 'profile'> {
  return {
    async backfill(chat, count, oldest, oldestAt) {
      const { sock } = sessionOf();
      // With nothing stored yet the request names no message: the phone sends the chat's newest ones.
      const key = oldest ? keyOf(oldest) : { remoteJid: chatJid(chat), fromMe: false, id: '' };
      await onTheNetwork('take the history request', () => sock.fetchMessageHistory(count, key, (oldestAt ?? new Date()).getTime()));
    },

    async block(phone, blocked) {
      const { sock } = sessionOf();
      await onTheNetwork(blocked ? 'take the block' : 'take the unblock', () => sock.updateBlockStatus(phoneJid(phone), blocked ? 'block' : 'unblock'));
    },

    async profile(phone): Promise<ContactProfile> {
      const { sock } = sessionOf();
      const jid = phoneJid(phone);
      const [found] = (await onTheNetwork('answer the number check', () => sock.onWhatsApp(jid))) ?? [];
      if (!found?.exists) return { about: null, pictureUrl: null, business: false, onNetwork: false };
      const [pictureUrl, statuses, business] = await Promise.all([
        sock.profilePictureUrl(jid, 'image').then(
          (url) => url ?? null,
          (error: unknown) => {
            if (isNoPicture(error)) return null;
            throw error;
          },
        ),
        sock.fetchStatus(jid).catch(() => undefined),
        // A network without business profiles answers the query with an error: not a business.
        sock.getBusinessProfile(jid).catch(() => undefined),
      ]).catch((error: unknown) => onTheNetwork('answer the profile', () => Promise.reject(error as Error)));
      const status = (statuses?.[0] as { status?: { status?: string | null } } | undefined)?.status?.status;
      return { about: typeof status === 'string' && status ? status : null, pictureUrl, business: !!business, onNetwork: true };
    },
  };
}
