import { getBinaryNodeChild, getBinaryNodeChildren, proto, unpadRandomMax16, type BinaryNode } from 'baileys';
import type { Account, LinkedDevice } from '../state/accounts.js';
import type { NetworkContext } from '../state/context.js';
import type { Groups } from '../state/groups.js';
import { unixSeconds } from '../protocol/jids.js';
import type { DeviceMessages, GroupMessageHandler } from './outbound.js';

interface Copy {
  jid: string;
  enc: BinaryNode;
}

/**
 * Messages linked devices send to groups: one `skmsg` under the sender key, plus a pairwise copy of
 * that key for members lacking it. Phones read it into their inboxes, devices get it relayed
 * (test/networks/README.md, "How the chat network is built").
 */
export class GroupMessages implements GroupMessageHandler {
  constructor(
    private readonly ctx: NetworkContext,
    private readonly groups: Groups,
    private readonly messages: DeviceMessages,
  ) {}

  /** Only members write to a group, and only admins to an announcement-only one. */
  refusal(device: LinkedDevice, jid: string): string | undefined {
    const group = this.groups.get(jid);
    if (!group?.members.has(device.phone)) return '403';
    if (group.announce && !this.groups.isAdmin(group, device.account)) return '403';
    return undefined;
  }

  async message(device: LinkedDevice, node: BinaryNode, copies: Copy[]): Promise<void> {
    const group = this.groups.get(node.attrs.to!);
    if (!group?.members.has(device.phone)) return;
    const groupMessage = getBinaryNodeChildren(node, 'enc').find((enc) => enc.attrs.type === 'skmsg');
    const copyFor = new Map<string, Copy>();
    for (const copy of copies) {
      const target = this.ctx.accounts.resolve(copy.jid);
      if (target) copyFor.set(`${target.account.phone}.${target.device}`, copy);
    }
    for (const { account } of group.members.values()) {
      await this.toPhone(device, account, group.jid, node, copyFor.get(`${account.phone}.0`), groupMessage);
      for (const receiver of account.linkedDevices()) {
        if (receiver === device) continue;
        const copy = copyFor.get(`${account.phone}.${receiver.id}`);
        this.relay(device, receiver, group.jid, node, [...(copy ? [copy.enc] : []), ...(groupMessage ? [groupMessage] : [])]);
      }
    }
  }

  /** A member's phone: takes the sender key from its pairwise copy, then reads the group message. */
  private async toPhone(device: LinkedDevice, member: Account, group: string, node: BinaryNode, copy: Copy | undefined, groupMessage: BinaryNode | undefined) {
    const target = { account: member, device: 0, addressing: 'lid' as const };
    if (copy) {
      const pairwise = await this.messages.decrypt(device, target, node, copy);
      if (!pairwise) return;
      const distribution = pairwise.senderKeyDistributionMessage?.axolotlSenderKeyDistributionMessage;
      if (distribution) await member.signal.acceptSenderKey(group, device.address, distribution);
      // A resend after a retry comes pairwise, content and sender key together, with no group ciphertext.
      if (!groupMessage && member !== device.account) await this.messages.land(member, device, node, pairwise, group);
    }
    if (!groupMessage || member === device.account) return;
    let message: proto.IMessage;
    try {
      const plaintext = await member.signal.decryptGroup(group, device.address, groupMessage.content as Uint8Array);
      message = proto.Message.decode(unpadRandomMax16(plaintext));
    } catch (error) {
      this.ctx.logger.debug({ err: error, id: node.attrs.id, group, member: member.phone }, 'phone could not read a group message');
      this.messages.askAgain(device, target, node);
      return;
    }
    await this.messages.land(member, device, node, message, group);
  }

  private relay(device: LinkedDevice, receiver: LinkedDevice, group: string, node: BinaryNode, encs: BinaryNode[]) {
    if (!encs.length) return;
    const identity = getBinaryNodeChild(node, 'device-identity');
    receiver.hold({
      key: `m:${device.phone}:${node.attrs.id}`,
      node: {
        tag: 'message',
        attrs: {
          from: group,
          participant: device.jid('lid'),
          participant_pn: device.account.jid('pn'),
          addressing_mode: 'lid',
          id: node.attrs.id!,
          t: unixSeconds(),
          type: node.attrs.type ?? 'text',
          notify: device.account.pushName,
          ...(node.attrs.edit ? { edit: node.attrs.edit } : {}),
        },
        content: [...encs, ...(identity ? [identity] : [])],
      },
    });
  }
}
