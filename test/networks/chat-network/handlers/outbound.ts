import {
  encodeBigEndian,
  getBinaryNodeChild,
  getBinaryNodeChildren,
  isJidGroup,
  jidNormalizedUser,
  KEY_BUNDLE_TYPE,
  proto,
  unpadRandomMax16,
  type BinaryNode,
} from 'baileys';
import type { Account, ResolvedJid, LinkedDevice } from '../state/accounts.js';
import type { ClientConnection } from '../state/client-connection.js';
import type { NetworkContext } from '../state/context.js';
import { unixSeconds } from '../protocol/jids.js';
import type { Phones } from './phones.js';

/** A `<to>` of a message stanza: one device and the ciphertext for it. */
interface Copy {
  jid: string;
  enc: BinaryNode;
}

/** How often a phone asks for the same message again before it gives up on it. */
const MAX_RETRY_COUNT = 5;

/** Group messages are handled by the groups part; it registers here. */
export interface GroupMessageHandler {
  /** Why the network refuses the device's message to `group` (an error code for the ack), if it does. */
  refusal(device: LinkedDevice, group: string): string | undefined;
  message(device: LinkedDevice, node: BinaryNode, copies: Copy[]): Promise<void>;
}

/**
 * Messages linked devices send. The network acks each, then looks at every copy: copies for a phone
 * are decrypted as that phone would (and land in its inbox), copies for other linked devices are
 * relayed to them as they are, still encrypted end to end.
 */
export class DeviceMessages {
  private readonly retries = new Map<string, number>();
  groups?: GroupMessageHandler;
  /** What a device asks its own phone (a peer data operation, e.g. older history); the history part registers here. */
  peerRequest?: (device: LinkedDevice, message: proto.IMessage, id: string) => Promise<void>;

  constructor(
    private readonly ctx: NetworkContext,
    private readonly phones: Phones,
  ) {}

  async handle(connection: ClientConnection, device: LinkedDevice, node: BinaryNode): Promise<void> {
    const { id, to } = node.attrs;
    if (!id || !to) {
      connection.send({ tag: 'ack', attrs: { class: 'message', id: id ?? '', error: '400' } });
      return;
    }
    const refusal = isJidGroup(to) ? this.groups?.refusal(device, to) : undefined;
    if (refusal) {
      // Not carried: the client marks its message failed with this code.
      connection.send({ tag: 'ack', attrs: { class: 'message', id, from: to, t: unixSeconds(), error: refusal } });
      return;
    }
    // A first message to a stranger over the account's reach-out cap, or while it is timelocked: 463, not carried.
    const recipient = isJidGroup(to) ? undefined : this.ctx.accounts.resolve(to)?.account;
    if (recipient && !this.ctx.reachOut.admits(device.phone, recipient.phone)) {
      connection.send({ tag: 'ack', attrs: { class: 'message', id, from: to, t: unixSeconds(), error: '463' } });
      return;
    }
    connection.send({ tag: 'ack', attrs: { class: 'message', id, from: to, t: unixSeconds() } });
    const participants = getBinaryNodeChild(node, 'participants');
    const single = getBinaryNodeChild(node, 'enc');
    // A resend after a retry receipt carries one pairwise copy, addressed to the one device that asked
    // (`to`, or `participant` in a group); the group ciphertext itself is an `skmsg`, not a copy.
    const resendTo = isJidGroup(to) ? node.attrs.participant : to;
    const copies: Copy[] = participants
      ? getBinaryNodeChildren(participants, 'to').flatMap((target) => {
          const enc = getBinaryNodeChild(target, 'enc');
          return target.attrs.jid && enc ? [{ jid: target.attrs.jid, enc }] : [];
        })
      : single && single.attrs.type !== 'skmsg' && resendTo
        ? [{ jid: resendTo, enc: single }]
        : [];
    this.ctx.journal.recordReceived({
      connectionId: connection.id,
      phone: device.phone,
      deviceId: device.id,
      id,
      to,
      recipients: copies.map((copy) => copy.jid),
      at: new Date(),
    });
    if (isJidGroup(to)) {
      await this.groups?.message(device, node, copies);
      return;
    }
    for (const copy of copies) {
      const target = this.ctx.accounts.resolve(copy.jid);
      if (!target) continue;
      if (target.device === 0) await this.toPhone(device, target, node, copy);
      else this.relay(device, target, node, copy);
    }
  }

  /** The phone decrypts its copy; a copy meant for the sender's own phone keeps that session in step. */
  private async toPhone(device: LinkedDevice, target: ResolvedJid, node: BinaryNode, copy: Copy): Promise<void> {
    const message = await this.decrypt(device, target, node, copy);
    if (message && target.account !== device.account) {
      await this.land(target.account, device, node, message.deviceSentMessage?.message ?? message, jidNormalizedUser(node.attrs.recipient ?? node.attrs.to));
    } else if (message) {
      // What a device says to its own phone comes wrapped as a message it sent itself.
      const own = message.deviceSentMessage?.message ?? message;
      if (own.protocolMessage?.peerDataOperationRequestMessage) await this.peerRequest?.(device, own, node.attrs.id!);
    }
  }

  /** The phone's copy, decrypted; on failure the phone asks the device for the message again. */
  async decrypt(device: LinkedDevice, target: ResolvedJid, node: BinaryNode, copy: Copy): Promise<proto.IMessage | undefined> {
    const type = copy.enc.attrs.type;
    if (type !== 'pkmsg' && type !== 'msg') return undefined;
    try {
      const plaintext = await target.account.signal.decrypt(device.address, type, Buffer.from(copy.enc.content as Uint8Array));
      return proto.Message.decode(unpadRandomMax16(plaintext));
    } catch (error) {
      this.ctx.logger.debug({ err: error, id: node.attrs.id, to: copy.jid }, 'phone could not decrypt, asking for a retry');
      this.askAgain(device, target, node);
      return undefined;
    }
  }

  /** A message the phone could read goes to its inbox (once per sender and id). */
  async land(recipient: Account, device: LinkedDevice, node: BinaryNode, message: proto.IMessage, chat: string): Promise<void> {
    const id = node.attrs.id!;
    const entry = await this.ctx.inboxes.accept(recipient.phone, { id, from: device.phone, fromDevice: device.id, chat, message });
    if (entry && this.ctx.options.autoDeliveryReceipts) this.phones.receipt(recipient.phone, id, 'delivered');
  }

  /**
   * The phone could not decrypt (its session went out of step with the device's): it answers with a
   * retry receipt carrying its registration id and a fresh pre-key bundle, and the device sends the
   * message again on a new session.
   */
  askAgain(device: LinkedDevice, target: ResolvedJid, node: BinaryNode): void {
    const id = node.attrs.id!;
    const recipient: Account = target.account;
    const retryKey = `${recipient.phone}|${device.phone}.${device.id}|${id}`;
    const count = (this.retries.get(retryKey) ?? 0) + 1;
    if (count > MAX_RETRY_COUNT) return;
    this.retries.set(retryKey, count);
    if (this.retries.size > 10_000) this.retries.delete(this.retries.keys().next().value!);
    const bundle = recipient.signal.bundle();
    const own = recipient === device.account;
    const chat = node.attrs.recipient ?? node.attrs.to!;
    const group = isJidGroup(chat);
    device.replace({
      key: `r:${recipient.phone}:${id}:retry`,
      node: {
        tag: 'receipt',
        attrs: {
          id,
          // As the device addressed the phone, so it finds the message it keeps under that chat.
          from: group ? chat : own ? recipient.jid(target.addressing) : jidNormalizedUser(chat),
          ...(group ? { participant: recipient.jid(target.addressing) } : own ? { recipient: chat } : {}),
          type: 'retry',
          t: unixSeconds(),
        },
        content: [
          { tag: 'retry', attrs: { count: `${count}`, id, t: unixSeconds(), v: '1', error: '0' } },
          { tag: 'registration', attrs: {}, content: encodeBigEndian(bundle.registrationId) },
          {
            tag: 'keys',
            attrs: {},
            content: [
              { tag: 'type', attrs: {}, content: KEY_BUNDLE_TYPE },
              { tag: 'identity', attrs: {}, content: bundle.identityKey },
              {
                tag: 'key',
                attrs: {},
                content: [
                  { tag: 'id', attrs: {}, content: encodeBigEndian(bundle.preKey.keyId, 3) },
                  { tag: 'value', attrs: {}, content: bundle.preKey.publicKey },
                ],
              },
              {
                tag: 'skey',
                attrs: {},
                content: [
                  { tag: 'id', attrs: {}, content: encodeBigEndian(bundle.signedPreKey.keyId, 3) },
                  { tag: 'value', attrs: {}, content: bundle.signedPreKey.publicKey },
                  { tag: 'signature', attrs: {}, content: bundle.signedPreKey.signature },
                ],
              },
            ],
          },
        ],
      },
    });
  }

  /** A copy for another linked device goes to it unread, from the sending device, as the network relays it. */
  relay(device: LinkedDevice, target: ResolvedJid, node: BinaryNode, copy: Copy, extra: Record<string, string> = {}): void {
    const receiver = target.account.devices.get(target.device);
    if (!receiver || receiver.loggedOut || receiver === device) return;
    const own = target.account === device.account;
    const alt: Record<string, string> =
      target.addressing === 'pn' ? { sender_lid: device.account.jid('lid') } : { sender_pn: device.account.jid('pn') };
    const identity = getBinaryNodeChild(node, 'device-identity');
    receiver.hold({
      key: `m:${device.phone}:${node.attrs.id}`,
      node: {
        tag: 'message',
        attrs: {
          from: device.jid(target.addressing),
          id: node.attrs.id!,
          t: unixSeconds(),
          type: node.attrs.type ?? 'text',
          ...(node.attrs.edit ? { edit: node.attrs.edit } : {}),
          ...(own ? { recipient: node.attrs.recipient ?? node.attrs.to! } : { notify: device.account.pushName, ...alt }),
          ...extra,
        },
        content: [copy.enc, ...(identity ? [identity] : [])],
      },
    });
  }
}
