import { randomBytes } from 'node:crypto';
import {
  encodeWAMessage,
  getBinaryNodeChild,
  getBinaryNodeChildBuffer,
  getBinaryNodeChildUInt,
  isJidGroup,
  normalizeMessageContent,
  proto,
  type BinaryNode,
} from 'baileys';
import type { Account, DeliveryOptions, SentMessage, LinkedDevice } from '../state/accounts.js';
import type { NetworkContext } from '../state/context.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import type { Group, Groups } from '../state/groups.js';
import { normalizePhone, unixSeconds } from '../protocol/jids.js';
import { buildMessage, pollOf, stanzaTypes, type QuotedMessage } from '../protocol/message-content.js';
import { encryptPollVote, type PollVoteParties } from '../protocol/poll-vote.js';
import type { PreKeyBundle } from '../protocol/signal.js';
import type { InboundContent, ReceiptType, SendOptions } from '../types.js';

/** Clients give up after this many retries of one message; so does the phone. */
const MAX_RETRY_COUNT = 5;

/** What a phone's own message ids look like (32 hex digits, as Android phones make them). */
export const newMessageId = () => randomBytes(16).toString('hex').toUpperCase();

const RECEIPT_TYPES: Record<ReceiptType, string | undefined> = { delivered: undefined, read: 'read', played: 'played' };

/** A vote a phone sent: its message id, and the jids its encryption is bound to. */
export interface PollVote extends PollVoteParties {
  id: string;
}

/** A chat as a phone names it: another account, or a group it is in. */
type Chat = { kind: 'user'; account: Account } | { kind: 'group'; group: Group };

/**
 * The phones' side of the network: what a person does on a phone (send, read, delete for everyone)
 * reaches the linked devices of the other account (or of the group's members), encrypted by the
 * sending phone as device 0: pairwise for one-to-one chats, with its sender key for groups.
 */
export class Phones {
  /** Which devices hold a phone's sender key for a group (`group|phone|device address`). */
  private readonly senderKeysGiven = new Set<string>();

  constructor(
    private readonly ctx: NetworkContext,
    private readonly groups: Groups,
  ) {}

  async send(fromInput: string, toInput: string, content: InboundContent, options: SendOptions = {}): Promise<string> {
    const sender = this.ctx.accounts.get(normalizePhone(fromInput));
    const chat = this.chat(sender, toInput);
    if (chat.kind === 'group' && chat.group.announce && !this.groups.isAdmin(chat.group, sender)) {
      throw forbidden('announcement_only', `only admins write to ${chat.group.jid}`);
    }
    const mentionAddressing = chat.kind === 'group' ? 'lid' : 'pn';
    const { message } = await buildMessage(content, this.ctx.media, {
      quoted: options.quoted ? this.quoted(sender, chat, options.quoted) : undefined,
      reactionKey: 'reaction' in content ? this.keyOf(sender, chat, content.reaction.messageId, 'react to') : undefined,
      mentionedJids: options.mentions?.map((phone) => this.ctx.accounts.get(normalizePhone(phone)).jid(mentionAddressing)),
    });
    return this.dispatch(sender, chat, message, {
      id: options.id,
      pushName: options.pushName ?? sender.pushName,
      addressing: options.asLid ? 'lid-only' : (options.addressing ?? 'pn'),
    });
  }

  /**
   * `phone` posts a text status update that its contacts `viewers` see: each one's devices get it
   * from `status@broadcast`, with the phone as its participant, encrypted pairwise.
   */
  async postStatus(fromInput: string, viewers: string[], text: string): Promise<string> {
    const sender = this.ctx.accounts.get(normalizePhone(fromInput));
    const { message } = await buildMessage({ text }, this.ctx.media, {});
    const id = newMessageId();
    const attrs = { from: 'status@broadcast', participant: sender.jid('pn') };
    for (const viewer of viewers) await this.dispatch(sender, this.chat(sender, viewer), message, { id, pushName: sender.pushName, addressing: 'pn', attrs });
    return id;
  }

  /** `phone` deletes for everyone a message it sent to `toInput` (a phone number or a group). */
  async revoke(phoneInput: string, messageId: string, toInput: string): Promise<string> {
    const sender = this.ctx.accounts.get(normalizePhone(phoneInput));
    const chat = this.chat(sender, toInput);
    const original = sender.sentMessage(messageId);
    if (!original || original.to !== this.chatId(chat)) {
      throw notFound('unknown_message', `${sender.phone} sent no message ${messageId} to ${toInput}`);
    }
    const remoteJid = chat.kind === 'group' ? chat.group.jid : chat.account.jid('pn');
    const message = { protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: { remoteJid, fromMe: true, id: messageId } } };
    return this.dispatch(sender, chat, message, { ...original.options, attrs: { edit: '7' } });
  }

  /** `phone` edits the text of a message it sent to `toInput` (number or group), as phones send edits. */
  async edit(phoneInput: string, messageId: string, toInput: string, text: string): Promise<string> {
    const sender = this.ctx.accounts.get(normalizePhone(phoneInput));
    const chat = this.chat(sender, toInput);
    const original = sender.sentMessage(messageId);
    if (!original || original.to !== this.chatId(chat)) {
      throw notFound('unknown_message', `${sender.phone} sent no message ${messageId} to ${toInput}`);
    }
    if (!text) throw badRequest('invalid_text', 'an edit needs the new text');
    const remoteJid = chat.kind === 'group' ? chat.group.jid : chat.account.jid('pn');
    const message: proto.IMessage = {
      protocolMessage: {
        type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
        key: { remoteJid, fromMe: true, id: messageId },
        editedMessage: { conversation: text },
        timestampMs: Date.now(),
      },
    };
    return this.dispatch(sender, chat, message, { ...original.options, attrs: { edit: '1' } });
  }

  /**
   * `phone` votes by option names on a poll in its chat with `toInput` (none withdraws the vote),
   * bound to phone jids or LIDs as the README's `vote` says. Returns the id and the jids bound.
   */
  async vote(phoneInput: string, pollMessageId: string, toInput: string, options: string[], voteOptions: { addressing?: 'pn' | 'lid'; id?: string } = {}): Promise<PollVote> {
    const sender = this.ctx.accounts.get(normalizePhone(phoneInput));
    const chat = this.chat(sender, toInput);
    const { author, message } = this.find(sender, chat, pollMessageId, 'vote on');
    const content = normalizeMessageContent(message);
    const poll = content && pollOf(content);
    const secret = content?.messageContextInfo?.messageSecret;
    if (!poll) throw badRequest('not_a_poll', `${pollMessageId} is not a poll`);
    if (!secret?.length) throw badRequest('no_poll_secret', `poll ${pollMessageId} came without a secret: nobody can vote on it`);
    const names = (poll.options ?? []).map((option) => option.optionName ?? '');
    const unknown = options.filter((option) => !names.includes(option));
    if (unknown.length) throw badRequest('unknown_option', `the poll has no option ${unknown.map((name) => `"${name}"`).join(', ')}`);
    if (new Set(options).size !== options.length) throw badRequest('duplicate_option', 'each option may be chosen once');
    const limit = poll.selectableOptionsCount ?? 0;
    if (limit > 0 && options.length > limit) throw badRequest('too_many_options', `the poll allows ${limit} option(s)`);
    const addressing = chat.kind === 'group' ? 'lid' : (voteOptions.addressing ?? 'pn');
    const parties = { pollMessageId, pollCreatorJid: author.jid(addressing), voterJid: sender.jid(addressing) };
    const vote = encryptPollVote(secret, options, parties);
    const update: proto.IMessage = {
      pollUpdateMessage: {
        pollCreationMessageKey: this.keyOf(sender, chat, pollMessageId, 'vote on'),
        vote,
        senderTimestampMs: Date.now(),
      },
    };
    const id = await this.dispatch(sender, chat, update, {
      id: voteOptions.id,
      pushName: sender.pushName,
      addressing: chat.kind === 'group' ? 'pn' : addressing,
    });
    return { id, ...parties };
  }

  /** `phone` acknowledges a message a linked device sent it; the receipt goes to that device. */
  receipt(phoneInput: string, messageId: string, type: ReceiptType): void {
    const phone = normalizePhone(phoneInput);
    const received = this.ctx.inboxes.find(phone, messageId);
    if (!received) throw notFound('unknown_message', `${phone} received no message ${messageId}`);
    if (!(type in RECEIPT_TYPES)) throw badRequest('invalid_receipt_type', 'type must be delivered, read or played');
    const device = this.ctx.accounts.find(received.from)?.devices.get(received.fromDevice);
    if (!device || device.loggedOut) return;
    const receiptType = RECEIPT_TYPES[type];
    // From the chat as the device named it, so the receipt finds the message it keeps under that jid.
    const from: Record<string, string> = isJidGroup(received.chat)
      ? { from: received.chat, participant: this.ctx.accounts.get(phone).jid('lid') }
      : { from: received.chat };
    device.hold({
      key: `r:${phone}:${messageId}:${receiptType ?? ''}`,
      node: { tag: 'receipt', attrs: { ...from, id: messageId, t: unixSeconds(), ...(receiptType ? { type: receiptType } : {}) } },
    });
  }

  /**
   * The account's own phone tells its linked devices which LID belongs to which of its contacts
   * (a LID-migration mapping sync), as phones do for contacts first seen by LID only.
   */
  shareLidMapping(phoneInput: string, contactInputs: string[]): Promise<string> {
    const account = this.ctx.accounts.get(normalizePhone(phoneInput));
    const contacts = contactInputs.map((input) => this.ctx.accounts.get(normalizePhone(input)));
    if (!contacts.length) throw badRequest('no_contacts', 'name at least one contact whose LID to share');
    const payload = proto.LIDMigrationMappingSyncPayload.encode({
      // Phone numbers and LIDs stay below 2^53, so plain numbers carry them exactly.
      pnToLidMappings: contacts.map((contact) => ({ pn: Number(contact.phone), assignedLid: Number(contact.lid) })),
      chatDbMigrationTimestamp: Math.floor(Date.now() / 1000),
    }).finish();
    const message = {
      protocolMessage: {
        type: proto.Message.ProtocolMessage.Type.LID_MIGRATION_MAPPING_SYNC,
        lidMigrationMappingSyncMessage: { encodedMappingPayload: payload },
      },
    };
    const options = { pushName: account.pushName, addressing: 'pn' as const, attrs: { category: 'peer', push_priority: 'high_force' } };
    return this.dispatch(account, { kind: 'user', account }, message, options);
  }

  /**
   * `phone`'s own phone shares its app-state key with its linked devices, as phones do after linking:
   * with it a device can change the account's settings (its push name); returns how many got it.
   */
  shareAppStateKey(phoneInput: string): number {
    const account = this.ctx.accounts.get(normalizePhone(phoneInput));
    account.appStateKey ??= { id: randomBytes(6), data: randomBytes(32) };
    const { id, data } = account.appStateKey;
    const message: proto.IMessage = {
      protocolMessage: {
        type: proto.Message.ProtocolMessage.Type.APP_STATE_SYNC_KEY_SHARE,
        appStateSyncKeyShare: { keys: [{ keyId: { keyId: id }, keyData: { keyData: data, fingerprint: { rawId: 1, currentIndex: 0, deviceIndexes: [0] }, timestamp: Date.now() } }] },
      },
    };
    const devices = account.linkedDevices();
    for (const device of devices) this.toOwnDevice(device, message);
    return devices.length;
  }

  /** The account's own phone sends `message` to one of its linked devices alone (history sync and other peer messages). */
  toOwnDevice(device: LinkedDevice, message: proto.IMessage, id = newMessageId()): string {
    const account = device.account;
    const sent: SentMessage = {
      id,
      to: account.phone,
      message,
      at: Date.now(),
      options: { pushName: account.pushName, addressing: 'pn', attrs: { category: 'peer', push_priority: 'high_force' } },
    };
    account.rememberSent(sent);
    this.deliver(device, account, sent);
    return id;
  }

  /** The device could not decrypt a message from `sender`'s phone and asks for it again. */
  async retryRequested(device: LinkedDevice, sender: Account, receipt: BinaryNode): Promise<void> {
    const sent = sender.sentMessage(receipt.attrs.id ?? '');
    const count = Number(getBinaryNodeChild(receipt, 'retry')?.attrs.count ?? 1) || 1;
    device.settle(`m:${sender.phone}:${receipt.attrs.id}`, 'ack');
    if (!sent || count > MAX_RETRY_COUNT) return;
    let again = sent;
    if (sent.group) {
      // A group message goes again under the sender key as it is now, with that key for the device.
      const encrypted = await sender.signal.encryptGroup(sent.group.jid, sender.signal.self(sender.phone), encodeWAMessage(sent.message));
      again = { ...sent, group: { jid: sent.group.jid, ...encrypted } };
      this.senderKeysGiven.delete(this.senderKeyGiven(sent.group.jid, sender, device));
    }
    this.deliver(device, sender, again, { count, bundle: retryBundle(receipt) });
  }

  /** Messages that waited for the account's first linked device. */
  deliverHeld(device: LinkedDevice): void {
    const held = device.account.heldForNewDevices.splice(0);
    for (const { sender, sent } of held) this.deliver(device, sender, sent);
  }

  private chat(sender: Account, toInput: string): Chat {
    if (!toInput.endsWith('@g.us')) return { kind: 'user', account: this.ctx.accounts.get(normalizePhone(toInput)) };
    const group = this.groups.find(toInput);
    if (!group.members.has(sender.phone)) throw badRequest('not_a_member', `${sender.phone} is not a member of ${group.jid}`);
    return { kind: 'group', group };
  }

  private chatId(chat: Chat): string {
    return chat.kind === 'group' ? chat.group.jid : chat.account.phone;
  }

  /** Sends `message` into the chat: to every linked device of the recipient, or of every group member. */
  private async dispatch(sender: Account, chat: Chat, message: proto.IMessage, options: DeliveryOptions & { id?: string }): Promise<string> {
    const { id = newMessageId(), ...delivery } = options;
    const sent: SentMessage = { id, to: this.chatId(chat), message, at: Date.now(), options: delivery };
    if (chat.kind === 'group') {
      const jid = chat.group.jid;
      sent.group = { jid, ...(await sender.signal.encryptGroup(jid, sender.signal.self(sender.phone), encodeWAMessage(message))) };
    }
    sender.rememberSent(sent);
    if (chat.kind === 'group') {
      for (const { account } of chat.group.members.values()) for (const device of account.linkedDevices()) this.deliver(device, sender, sent);
      return id;
    }
    // The recipient blocked the sender: the message is taken but never delivered, as on the real network.
    if (chat.account.blocked.has(sender.phone)) return id;
    const devices = chat.account.linkedDevices();
    if (!devices.length) chat.account.heldForNewDevices.push({ sender, sent });
    for (const device of devices) this.deliver(device, sender, sent);
    return id;
  }

  /**
   * Queues `sent` for `device`, encrypted when it goes out: a device that just linked has no keys
   * uploaded yet, and the message waits for them. A retry starts a fresh session, from the keys in
   * the retry receipt when it carried some, else from the device's uploaded pre-keys.
   */
  private deliver(device: LinkedDevice, sender: Account, sent: SentMessage, retry?: { count: number; bundle?: PreKeyBundle }) {
    const signal = sender.signal;
    const pairwise = async (message: proto.IMessage) => {
      if (retry?.bundle) {
        await signal.startSession(device.address, retry.bundle);
      } else if (retry || !signal.hasSession(device.address)) {
        const bundle = device.bundle();
        if (!bundle) return undefined;
        await signal.startSession(device.address, bundle);
      }
      return signal.encrypt(device.address, encodeWAMessage(message));
    };
    const build = async (): Promise<BinaryNode | undefined> => {
      const { type, mediatype } = stanzaTypes(sent.message);
      const count: Record<string, string> = retry ? { count: `${retry.count}` } : {};
      const media: Record<string, string> = mediatype ? { mediatype } : {};
      if (!sent.group) {
        const encrypted = await pairwise(sent.message);
        if (!encrypted) return undefined;
        const enc: BinaryNode = { tag: 'enc', attrs: { v: '2', type: encrypted.type, ...media, ...count }, content: encrypted.ciphertext };
        return { tag: 'message', attrs: { ...this.origin(sender, sent.options), id: sent.id, t: unixSeconds(sent.at), type, notify: sent.options.pushName, ...sent.options.attrs }, content: [enc] };
      }
      const { jid, ciphertext, distribution } = sent.group;
      const encs: BinaryNode[] = [];
      const given = this.senderKeyGiven(jid, sender, device);
      if (!this.senderKeysGiven.has(given)) {
        if (!device.keys && !retry?.bundle) return undefined;
        const encrypted = await pairwise({ senderKeyDistributionMessage: { groupId: jid, axolotlSenderKeyDistributionMessage: distribution } });
        if (!encrypted) return undefined;
        encs.push({ tag: 'enc', attrs: { v: '2', type: encrypted.type, ...count }, content: encrypted.ciphertext });
        this.senderKeysGiven.add(given);
      }
      encs.push({ tag: 'enc', attrs: { v: '2', type: 'skmsg', ...media, ...count }, content: ciphertext });
      return {
        tag: 'message',
        attrs: {
          from: jid,
          participant: sender.jid('lid'),
          participant_pn: sender.jid('pn'),
          addressing_mode: 'lid',
          id: sent.id,
          t: unixSeconds(sent.at),
          type,
          notify: sent.options.pushName,
          ...sent.options.attrs,
        },
        content: encs,
      };
    };
    const item = {
      key: `m:${sender.phone}:${sent.id}`,
      build,
      settled: (how: 'receipt' | 'ack') => {
        if (how === 'receipt') signal.confirmSession(device.address);
      },
    };
    if (retry) device.replace(item);
    else device.hold(item);
  }

  private senderKeyGiven(group: string, sender: Account, device: LinkedDevice) {
    return `${group}|${sender.phone}|${device.address.toString()}`;
  }

  /** How a one-to-one stanza names the sending phone. */
  private origin(sender: Account, options: DeliveryOptions): Record<string, string> {
    if (options.addressing === 'pn') return { from: sender.jid('pn'), sender_lid: sender.jid('lid') };
    if (options.addressing === 'lid') return { from: sender.jid('lid'), sender_pn: sender.jid('pn') };
    return { from: sender.jid('lid') };
  }

  private quoted(sender: Account, chat: Chat, messageId: string): QuotedMessage {
    const { fromMe, author, message } = this.find(sender, chat, messageId, 'reply to');
    const addressing = chat.kind === 'group' ? 'lid' : 'pn';
    return { id: messageId, participant: (fromMe ? sender : author).jid(addressing), message };
  }

  /** A reaction or a vote names the message as the phone sees it: the chat, and whether it sent it. */
  private keyOf(sender: Account, chat: Chat, messageId: string, what: string): proto.IMessageKey {
    const { fromMe, author } = this.find(sender, chat, messageId, what);
    if (chat.kind === 'user') return { remoteJid: chat.account.jid('pn'), fromMe, id: messageId };
    return { remoteJid: chat.group.jid, fromMe, id: messageId, ...(fromMe ? {} : { participant: author.jid('lid') }) };
  }

  /** A message of this chat, sent by the phone or received by it. */
  private find(sender: Account, chat: Chat, messageId: string, what: string): { fromMe: boolean; author: Account; message: proto.IMessage } {
    const own = sender.sentMessage(messageId);
    if (own && own.to === this.chatId(chat)) return { fromMe: true, author: sender, message: own.message };
    const received = this.ctx.inboxes.find(sender.phone, messageId);
    const inChat = received && (chat.kind === 'group' ? received.chat === chat.group.jid : received.from === chat.account.phone && !isJidGroup(received.chat));
    if (received && inChat) return { fromMe: false, author: this.ctx.accounts.get(received.from), message: received.message };
    throw notFound('unknown_message', `no message ${messageId} in ${sender.phone}'s chat with ${this.chatId(chat)} to ${what}`);
  }
}

/** The keys a retry receipt carries (`<registration>` and `<keys>`), as a bundle to start a session from. */
function retryBundle(receipt: BinaryNode): PreKeyBundle | undefined {
  const keys = getBinaryNodeChild(receipt, 'keys');
  const registrationId = getBinaryNodeChildUInt(receipt, 'registration', 4);
  const identityKey = getBinaryNodeChildBuffer(keys, 'identity');
  const skey = getBinaryNodeChild(keys, 'skey');
  const signedKey = getBinaryNodeChildBuffer(skey, 'value');
  const signature = getBinaryNodeChildBuffer(skey, 'signature');
  const signedKeyId = skey && getBinaryNodeChildUInt(skey, 'id', 3);
  if (!keys || registrationId == null || !identityKey || !signedKey || !signature || signedKeyId == null) return undefined;
  const key = getBinaryNodeChild(keys, 'key');
  const preKey = getBinaryNodeChildBuffer(key, 'value');
  const preKeyId = key && getBinaryNodeChildUInt(key, 'id', 3);
  return {
    registrationId,
    identityKey,
    signedPreKey: { keyId: signedKeyId, publicKey: signedKey, signature },
    preKey: preKey && preKeyId != null ? { keyId: preKeyId, publicKey: preKey } : undefined,
  };
}
