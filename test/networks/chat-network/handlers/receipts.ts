import { getBinaryNodeChild, getBinaryNodeChildren, isJidBroadcast, isJidGroup, type BinaryNode } from 'baileys';
import type { ResolvedJid, LinkedDevice } from '../state/accounts.js';
import type { ClientConnection } from '../state/client-connection.js';
import type { NetworkContext } from '../state/context.js';
import { unixSeconds } from '../protocol/jids.js';
import type { PhoneReceipt } from '../state/journal.js';
import type { Phones } from './phones.js';

/** Receipt types that tell the sender something; the rest (`sender`, `peer_msg`, `*-self`, …) stay with the network. */
const SENDER_FACING: Record<string, PhoneReceipt['type']> = { '': 'delivered', inactive: 'delivered', read: 'read', played: 'played' };

/**
 * Receipts and acks from linked devices: any receipt settles the message in the device's queue;
 * delivered, read and played travel on to the sender's phone and linked devices
 * (test/networks/README.md, "How the chat network is built").
 */
export class DeviceReceipts {
  constructor(
    private readonly ctx: NetworkContext,
    private readonly phones: Phones,
  ) {}

  async receipt(connection: ClientConnection, device: LinkedDevice, node: BinaryNode): Promise<void> {
    const { id, to, type, participant } = node.attrs;
    if (!id) return;
    connection.send({
      tag: 'ack',
      attrs: { class: 'receipt', id, ...(to ? { from: to } : {}), ...(participant ? { participant } : {}), ...(type ? { type } : {}) },
    });
    // In a group or a status update the receipt names the chat, and whose message it was as `participant`.
    const group = to && (isJidGroup(to) || isJidBroadcast(to)) ? to : undefined;
    const target: ResolvedJid | undefined = group
      ? this.ctx.accounts.resolve(participant)
      : to
        ? this.ctx.accounts.resolve(to)
        : { account: device.account, device: 0, addressing: 'pn' };
    if (!target) return;
    if (type === 'retry') {
      if (target.device === 0 && target.account !== device.account) await this.phones.retryRequested(device, target.account, node);
      else if (target.device !== 0) this.forward(device, target, node, [id], group);
      return;
    }
    const ids = [id, ...getBinaryNodeChildren(getBinaryNodeChild(node, 'list'), 'item').flatMap((item) => (item.attrs.id ? [item.attrs.id] : []))];
    for (const messageId of ids) device.settle(`m:${target.account.phone}:${messageId}`, 'receipt');
    const status = SENDER_FACING[type ?? ''];
    if (!status || target.account === device.account) return;
    if (target.device !== 0) {
      this.forward(device, target, node, ids, group);
      return;
    }
    for (const messageId of ids) {
      this.ctx.journal.recordPhoneReceipt(target.account.phone, { messageId, from: device.phone, deviceId: device.id, type: status, at: new Date() });
    }
    // The sender's linked devices see the receipt too (a message its phone sent, or one of them).
    for (const sibling of target.account.linkedDevices()) this.forward(device, { ...target, device: sibling.id }, node, ids, group);
  }

  ack(device: LinkedDevice, node: BinaryNode): void {
    const { id, to, type, participant } = node.attrs;
    const origin = this.ctx.accounts.resolve(to && (isJidGroup(to) || isJidBroadcast(to)) ? participant : to)?.account.phone ?? device.phone;
    switch (node.attrs.class) {
      case 'message':
        device.settle(`m:${origin}:${id}`, 'ack');
        return;
      case 'receipt':
        device.settle(`r:${origin}:${id}:${type ?? ''}`, 'ack');
        return;
      case 'notification':
        device.settle(`n:${id}`, 'ack');
        return;
      default:
        return;
    }
  }

  /** Passes a device's receipt on to another linked device, as from the acknowledging device. */
  private forward(device: LinkedDevice, target: ResolvedJid, node: BinaryNode, ids: string[], group?: string) {
    const receiver = target.account.devices.get(target.device);
    if (!receiver || receiver.loggedOut) return;
    const [first, ...rest] = ids;
    // `inactive` only tells the server the client is in the background; the sender sees a delivery.
    const type = node.attrs.type === 'inactive' ? undefined : node.attrs.type;
    const from: Record<string, string> = group ? { from: group, participant: device.jid('lid') } : { from: device.jid(target.addressing) };
    receiver.hold({
      key: `r:${device.phone}:${first}:${type ?? ''}`,
      node: {
        tag: 'receipt',
        attrs: { ...from, id: first!, t: node.attrs.t ?? unixSeconds(), ...(type ? { type } : {}) },
        ...(type === 'retry'
          ? { content: node.content }
          : rest.length
            ? { content: [{ tag: 'list', attrs: {}, content: rest.map((item) => ({ tag: 'item', attrs: { id: item } })) }] }
            : {}),
      },
    });
  }
}
