import type { PresenceState, SessionActions } from '../../domain/network/engine.port.js';
import type { MessageRef } from '../../domain/network/engine-messages.js';
import type { CloudCredentials } from './credentials-input.js';
import { Conflict, NetworkError, NotSupported } from '../../domain/errors.js';
import type { GraphApi, GraphResult } from './graph-api.js';

const CLOUD = 'CHAT-CLOUD';

/** Network ids of the targets, by chat, in the order given. */
function byChat(targets: MessageRef[]) {
  const chats = new Map<string, string[]>();
  for (const target of targets) chats.set(target.chat, [...(chats.get(target.chat) ?? []), target.networkMessageId]);
  return chats;
}

/**
 * What the business API documents beside sending (the API's reference): marking received messages read, and a
 * typing indicator, which rides on a read mark. It has no edit, no delete, no number check and no
 * online/away presence, so the engine offers no methods for them (the domain refuses them).
 */
export function createCloudActions(deps: {
  graph: GraphApi;
  /** The instance's credentials while this node owns it and they are known. */
  credentials: () => CloudCredentials | null;
  lastReceived: (chat: string) => Promise<string | null>;
  /** The token stopped working (code 190): the instance disconnects, as a send would. */
  tokenExpired: () => Promise<void>;
}): Pick<SessionActions, 'markRead' | 'presence' | 'ownProfile'> {
  function credentials(): CloudCredentials {
    const found = deps.credentials();
    if (!found) throw new Conflict('instance_unavailable', 'The instance has no checked credentials on its owner yet; retry shortly.');
    return found;
  }

  /** An answer's value, or the refusal as the tenant sees it (a token that stopped working disconnects). */
  async function valueOf<T>(answer: GraphResult<T>, what: string): Promise<T> {
    if (answer.ok) return answer.value;
    if (answer.failure.code === 190) {
      await deps.tokenExpired();
      throw new Conflict('instance_unavailable', 'The access token no longer works; the instance is disconnected until a new one is given.');
    }
    throw new NetworkError(`The business API refused ${what}: ${answer.failure.message}${answer.failure.code === null ? '' : ` (code ${answer.failure.code})`}.`);
  }

  async function read(messageId: string, typing: boolean) {
    await valueOf(await deps.graph.markRead(credentials(), messageId, typing), 'the read mark');
  }

  return {
    /**
     * The business profile (docs/settings.md, "Profile and privacy"): its about text is set here; the
     * name is the number's verified name, set with the network's review, and the picture takes an upload
     * handle of the app, whose id the instance's credentials do not carry.
     */
    async ownProfile(change) {
      if (change?.name !== undefined) throw new NotSupported(CLOUD, 'own_profile (the field name: a business number shows its verified name)');
      if (change?.picture !== undefined) throw new NotSupported(CLOUD, "own_profile (the field picture: the business API takes a picture by the app's upload handle)");
      if (change?.about !== undefined) await valueOf(await deps.graph.setBusinessProfile(credentials(), { about: change.about }), 'the about text');
      return valueOf(await deps.graph.businessProfile(credentials()), 'the business profile');
    },
    async markRead(targets: MessageRef[]) {
      // The API takes one id and marks the ones before it in the chat too: a chat read whole (its
      // last received message among the targets) costs one call, any other set one per message.
      for (const [chat, ids] of byChat(targets)) {
        const last = ids.length > 1 ? await deps.lastReceived(chat) : null;
        for (const id of last && ids.includes(last) ? [last] : ids) await read(id, false);
      }
    },

    /**
     * The API's only presence is a typing indicator riding on a read mark of a received message, so only
     * `composing` is carried (marking the chat's last received message read); the other states, and a chat
     * that never wrote to the number, are refused (docs/messaging.md, the `typing` row).
     */
    async presence(chat: string, state: PresenceState) {
      if (state !== 'composing') {
        throw new NotSupported(CLOUD, `the presence state "${state}" (its API shows only a typing indicator, state composing)`);
      }
      const last = await deps.lastReceived(chat);
      if (!last) {
        throw new NotSupported(
          CLOUD,
          `typing in a chat that has sent the number no message (its API shows the indicator only on a received message, which it also marks read)`,
        );
      }
      await read(last, true);
    },
  };
}
