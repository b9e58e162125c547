import type { EngineMessage, SendOutcome } from '../../domain/network/engine-messages.js';
import type { Logger } from '../../infra/logger.js';
import type { Live } from './link-socket.js';
import { networkMessageIdOf } from './network-id.js';
import { type AnyMessageContent, generateMessageIDV2 } from 'baileys';
import { NetworkError } from '../../domain/errors.js';
import { type mediaFetcher, MediaUnavailable } from './outbound.js';
import { addressOf, contentOf } from './outbound-kinds.js';
import { typedBeforeSending, typingMsOf } from '../../domain/settings/typing.js';

/** How long a hand-off waits for the network's acknowledgement of each message. */
const ACK_TIMEOUT_MS = 15_000;

export interface SenderDeps {
  fetchMedia: ReturnType<typeof mediaFetcher>;
  /** Whether the socket is still the link's current one: nothing more is handed to a retired one. */
  stillCurrent(): boolean;
  log: Logger;
  /** The network held back a message (error 463, docs/settings.md "Restrictions"): told before the outcomes are answered. */
  onHeld?(): Promise<void>;
}

/** The network's answer to a first message to a new contact while the account may not reach out. */
const REACH_OUT_REFUSED = '463';

/** Settles each hand-off as the network acknowledges it, or says why it did not take it. */
export function listenForAcks(live: Live) {
  // The network acknowledges every message it takes (or says why it did not): that is "sent".
  live.sock.ws.on('CB:ack,class:message', (node: { attrs: Record<string, string> }) => {
    const settle = live.acks.get(node.attrs.id ?? '');
    if (!settle) return;
    live.acks.delete(node.attrs.id!);
    if (node.attrs.error === REACH_OUT_REFUSED) settle('held: the account may not reach out now');
    else settle(node.attrs.error ? `refused: the network refused the message (error ${node.attrs.error})` : null);
  });
}

/**
 * Hands messages to the network in order, each under its own network id, and answers what became
 * of them once the network acknowledged them (or refused them). None while the session is not open.
 */
export async function sendWithAcks(live: Live, messages: EngineMessage[], deps: SenderDeps): Promise<SendOutcome[]> {
  /**
   * Each message's outcome once known; 'again' when it was not taken this time (it goes out again, under
   * the same id), 'held' when the network held it back (it stays queued while the ones after it are answered).
   */
  const pending: Array<Promise<SendOutcome | 'again' | 'held'>> = [];
  for (const message of messages) {
    const networkMessageId = networkMessageIdOf(message.messageId);
    let content;
    try {
      content = await contentOf(message, deps.fetchMedia);
    } catch (error) {
      if (!(error instanceof MediaUnavailable)) throw error;
      if (!error.lasting) break;
      pending.push(Promise.resolve({ messageId: message.messageId, failed: { code: 'media_unavailable', message: error.message } }));
      continue;
    }
    if (!deps.stillCurrent()) break;
    const { jid, options } = addressOf(message);
    if (typedBeforeSending(message)) {
      // Best effort: a chat state the network did not take does not hold the message back.
      await live.sock.sendPresenceUpdate('composing', jid).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, typingMsOf(message.text!)));
      if (!deps.stillCurrent()) break;
    }
    pending.push(acknowledged(live, message.messageId, networkMessageId));
    try {
      await live.sock.sendMessage(jid, content, { ...options, messageId: networkMessageId });
    } catch (error) {
      live.acks.get(networkMessageId)?.(null);
      deps.log.warn({ err: { message: (error as Error).message } }, 'a message could not be handed to the network; it stays queued');
      break;
    }
  }
  const outcomes: SendOutcome[] = [];
  const answers = await Promise.all(pending);
  for (const outcome of answers) {
    // Taken up to the first that was not: the rest stay queued, in order.
    if (outcome === 'again') break;
    // Held back by the network: later ones it took are answered, so none of them goes out twice.
    if (outcome === 'held') continue;
    outcomes.push(outcome);
  }
  if (answers.includes('held')) await deps.onHeld?.();
  return outcomes;
}

/** The network's answer to one hand-off: taken, refused (the message fails), or nothing (it goes again). */
function acknowledged(live: Live, messageId: string, networkMessageId: string): Promise<SendOutcome | 'again' | 'held'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      live.acks.delete(networkMessageId);
      resolve('again');
    }, ACK_TIMEOUT_MS);
    live.acks.set(networkMessageId, (error) => {
      clearTimeout(timer);
      if (error === null) resolve({ messageId, networkMessageId });
      else if (error.startsWith('held:')) resolve('held');
      else if (error.startsWith('refused:')) resolve({ messageId, failed: { code: 'network_refused', message: error.slice('refused:'.length).trim() } });
      else resolve('again');
    });
  });
}

/** One message of an action (an edit, a delete), sent and acknowledged by the network, or a NetworkError saying why not. */
export async function relayWithAck(live: Live, jid: string, content: AnyMessageContent): Promise<void> {
  const id = generateMessageIDV2(live.sock.user?.id);
  const answer = new Promise<string | null>((resolve) => {
    const timer = setTimeout(() => {
      live.acks.delete(id);
      resolve('the network did not acknowledge it in time');
    }, ACK_TIMEOUT_MS);
    live.acks.set(id, (error) => {
      clearTimeout(timer);
      resolve(error);
    });
  });
  try {
    await live.sock.sendMessage(jid, content, { messageId: id });
  } catch (error) {
    live.acks.get(id)?.('not sent');
    throw new NetworkError(`The network did not take it: ${(error as Error).message}`, { cause: error });
  }
  const error = await answer;
  if (error !== null) throw new NetworkError(`The network did not take it: ${error.replace(/^refused: /, '')}.`);
}
