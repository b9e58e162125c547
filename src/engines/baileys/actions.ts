import { type AnyMessageContent, jidDecode, USyncQuery, USyncUser, type WASocket } from 'baileys';
import type { NumberCheck, PresenceState, SessionActions } from '../../domain/network/engine.port.js';
import type { MessageRef } from '../../domain/network/engine-messages.js';
import { NetworkError } from '../../domain/errors.js';
import { chatJid, keyOf, userJidDigits } from './message-refs.js';
import { onTheNetwork } from './on-the-network.js';

/** A change of an earlier message this instance makes itself: the library reports it back, and that report is not news. */
export type OwnChange = 'edit' | 'revoke';

/** An instance's open session, as an action needs it (connection.ts `session`). */
export interface ActionSession {
  sock: WASocket;
  /** Sends `content` to `jid` and waits for the network to take it: refused or unanswered is a NetworkError. */
  relay(jid: string, content: AnyMessageContent): Promise<void>;
  /** This instance changes message `networkMessageId` itself now: its echo is not reported. */
  expectEcho(change: OwnChange, networkMessageId: string): void;
}

/**
 * The actions CHAT-BAILEYS carries out on the network through an instance's live socket
 * (docs/messaging.md). `sessionOf` throws `instance_unavailable` when the socket is not open here.
 */
export function baileysActions(sessionOf: () => ActionSession): Pick<SessionActions, 'edit' | 'delete' | 'markRead' | 'presence' | 'checkNumbers'> {
  return {
    async edit(target, text) {
      const session = sessionOf();
      session.expectEcho('edit', target.networkMessageId);
      // `linkPreview: null`: no fetch of a URL in the new text (outbound-kinds.ts).
      await session.relay(chatJid(target.chat), { text, edit: keyOf(target), linkPreview: null });
    },

    async delete(target) {
      const session = sessionOf();
      session.expectEcho('revoke', target.networkMessageId);
      await session.relay(chatJid(target.chat), { delete: keyOf(target) });
    },

    async markRead(targets: MessageRef[]) {
      const { sock } = sessionOf();
      await onTheNetwork('take the read mark', () => sock.readMessages(targets.map(keyOf)));
    },

    async presence(chat, state: PresenceState) {
      const { sock } = sessionOf();
      if (state !== 'available' && state !== 'unavailable') {
        await onTheNetwork('take the chat state', () => sock.sendPresenceUpdate(state, chatJid(chat)));
        return;
      }
      // The library silently drops online/away until the account has a push name; the node is the
      // same with or without one, so it is sent here and always reaches the network.
      const name = sock.user?.name?.replace(/@/g, '');
      await onTheNetwork('take the presence', () => sock.sendNode({ tag: 'presence', attrs: { ...(name ? { name } : {}), type: state } }));
    },

    async checkNumbers(phones): Promise<NumberCheck[]> {
      const { sock } = sessionOf();
      if (!phones.length) return [];
      // One query of the network's user directory: whether each number has an account, and its LID.
      const query = new USyncQuery().withContactProtocol().withLIDProtocol();
      for (const phone of phones) query.withUser(new USyncUser().withPhone(`+${phone}`));
      const result = await onTheNetwork('answer the number check', () => sock.executeUSyncQuery(query));
      if (!result) throw new NetworkError('The network did not answer the number check.');
      const answers = new Map<string, NumberCheck>();
      for (const entry of result.list) {
        const phone = userJidDigits(entry.id);
        if (!phone || !phones.includes(phone)) continue;
        const lid = typeof entry.lid === 'string' ? jidDecode(entry.lid)?.user : undefined;
        answers.set(phone, { phone, exists: entry.contact === true, ...(entry.contact === true && lid ? { lid } : {}) });
      }
      return phones.map((phone) => answers.get(phone) ?? { phone, exists: false });
    },
  };
}
