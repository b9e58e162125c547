import { randomBytes } from 'node:crypto';
import { aesEncryptGCM, hmacSign, proto, sha256 } from 'baileys';

/** Who a vote is bound to: both jids go into the key and the associated data, as the receiving client recomputes them. */
export interface PollVoteParties {
  pollMessageId: string;
  /** The poll's author and the voter, as bare user jids (no device): `<digits>@s.whatsapp.net` or `<lid>@lid`. */
  pollCreatorJid: string;
  voterJid: string;
}

/**
 * A vote as phones encrypt it (the inverse of the client's `decryptPollVote`): the chosen options'
 * SHA-256 in a `PollVoteMessage`, sealed with AES-256-GCM under a key derived from the poll's
 * `messageSecret`, the poll id and both parties' jids, with the poll id and voter as associated data.
 */
export function encryptPollVote(secret: Uint8Array, options: string[], parties: PollVoteParties): proto.Message.IPollEncValue {
  const { pollMessageId, pollCreatorJid, voterJid } = parties;
  const plaintext = proto.Message.PollVoteMessage.encode({
    selectedOptions: options.map((option) => sha256(Buffer.from(option))),
  }).finish();
  const sign = Buffer.concat([
    Buffer.from(pollMessageId),
    Buffer.from(pollCreatorJid),
    Buffer.from(voterJid),
    Buffer.from('Poll Vote'),
    Buffer.from([1]),
  ]);
  const key = hmacSign(sign, hmacSign(secret, new Uint8Array(32)));
  const iv = randomBytes(12);
  const encPayload = aesEncryptGCM(plaintext, key, iv, Buffer.from(`${pollMessageId}\u0000${voterJid}`));
  return { encPayload, encIv: iv };
}
