import { createHash } from 'node:crypto';
import { decryptPollVote, isJidGroup, jidNormalizedUser, type proto, type WAMessage } from 'baileys';
import { userJidDigits } from './message-refs.js';

/** A vote as it came, still encrypted: the poll it is on, and every jid the encryption may be bound to. */
export interface SealedVote {
  pollNetworkMessageId: string;
  vote: proto.Message.IPollEncValue;
  /** The voter's jids: phone jid and LID, whichever the network gave (and the LID mapping knew). */
  voterJids: string[];
  at: Date;
}

/** A vote opened: who (phone digits) chose which options, by name. */
export interface OpenedVote {
  pollNetworkMessageId: string;
  voter: string;
  options: string[];
  at: Date;
}

const unique = (jids: Array<string | null | undefined>) => [...new Set(jids.filter((jid): jid is string => !!jid).map((jid) => jidNormalizedUser(jid)))];

/** The poll votes among received messages (votes are messages of their own on the network). */
export function sealedVotes(messages: WAMessage[]): SealedVote[] {
  const votes: SealedVote[] = [];
  for (const message of messages) {
    const update = message.message?.pollUpdateMessage;
    const pollId = update?.pollCreationMessageKey?.id;
    if (!update?.vote?.encPayload || !update.vote.encIv || !pollId || message.key.fromMe) continue;
    const { remoteJid, remoteJidAlt, participant, participantAlt } = message.key;
    const voterJids = isJidGroup(remoteJid ?? undefined) ? unique([participant, participantAlt]) : unique([remoteJid, remoteJidAlt]);
    const ms = Number(update.senderTimestampMs ?? 0) || Number(message.messageTimestamp ?? 0) * 1000;
    votes.push({ pollNetworkMessageId: pollId, vote: update.vote, voterJids, at: ms > 0 ? new Date(ms) : new Date() });
  }
  return votes;
}

/**
 * Opens a vote with the poll's secret. The key comes from the poll's id and the two jids the voter's app
 * bound it to (phone jids, or LIDs), so each pair is tried and the cipher's tag tells the right one. Null
 * when none opens it, or the voter has no phone number the gateway knows.
 */
export function openVote(
  sealed: SealedVote,
  poll: { secret: Buffer; options: string[] },
  creatorJids: Array<string | null | undefined>,
  phoneOf: (jid: string) => string | null,
): OpenedVote | null {
  const voter = sealed.voterJids.map((jid) => userJidDigits(jid) ?? phoneOf(jid)).find((digits) => digits);
  if (!voter) return null;
  for (const pollCreatorJid of unique(creatorJids)) {
    for (const voterJid of sealed.voterJids) {
      let selected: Uint8Array[];
      try {
        selected = decryptPollVote(sealed.vote, { pollCreatorJid, pollMsgId: sealed.pollNetworkMessageId, pollEncKey: poll.secret, voterJid }).selectedOptions ?? [];
      } catch {
        continue;
      }
      // Options are named by the SHA-256 of their text, as the library's aggregate does.
      const byHash = new Map(poll.options.map((name) => [createHash('sha256').update(name).digest('hex'), name]));
      const options = selected.map((hash) => byHash.get(Buffer.from(hash).toString('hex'))).filter((name): name is string => name !== undefined);
      return { pollNetworkMessageId: sealed.pollNetworkMessageId, voter, options, at: sealed.at };
    }
  }
  return null;
}
