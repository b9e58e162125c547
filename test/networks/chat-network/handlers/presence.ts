import { getAllBinaryNodeChildren, isJidGroup, type BinaryNode } from 'baileys';
import type { Account, LinkedDevice } from '../state/accounts.js';
import type { NetworkContext } from '../state/context.js';
import { badRequest } from '../errors.js';
import { normalizePhone, unixSeconds } from '../protocol/jids.js';
import type { PresenceType } from '../types.js';

/** Who is online (or typing) as an account last said; presence is never queued for offline devices. */
export interface PresenceState {
  type: 'available' | 'unavailable';
  lastSeen: number | null;
}

/** A chat state (typing, recording) a linked device sent to a phone. */
export interface ChatState {
  from: string;
  /** The chat the device named: the phone's own number, or a group the phone is in. */
  chat: string;
  state: 'composing' | 'recording' | 'paused';
  at: Date;
}

const PRESENCE_TYPES: readonly PresenceType[] = ['available', 'unavailable', 'composing', 'recording', 'paused'];

/**
 * Presence both ways: a phone shows itself online or typing to an account's linked devices (only
 * those connected hear it), and what devices announce is kept per account for tests to read.
 */
export class Presence {
  private readonly states = new Map<string, PresenceState>();
  private readonly chatStates = new Map<string, ChatState[]>();

  constructor(
    private readonly ctx: NetworkContext,
    /** The members of a group, if the network has it. */
    private readonly groupMembers: (jid: string) => Account[] | undefined = () => undefined,
  ) {}

  of(phoneInput: string): PresenceState {
    return this.states.get(normalizePhone(phoneInput)) ?? { type: 'unavailable', lastSeen: null };
  }

  chatStatesSeenBy(phoneInput: string): ChatState[] {
    return [...(this.chatStates.get(normalizePhone(phoneInput)) ?? [])];
  }

  /** Phone `from` is online, offline, typing… in the eyes of `to`'s linked devices. */
  fromPhone(fromInput: string, toInput: string, type: PresenceType): void {
    if (!PRESENCE_TYPES.includes(type)) throw badRequest('invalid_presence', `presence must be one of ${PRESENCE_TYPES.join(', ')}`);
    const from = this.ctx.accounts.get(normalizePhone(fromInput));
    const to = this.ctx.accounts.get(normalizePhone(toInput));
    if (type === 'available' || type === 'unavailable') {
      this.states.set(from.phone, { type, lastSeen: type === 'unavailable' ? Math.floor(Date.now() / 1000) : null });
    }
    for (const device of to.linkedDevices()) this.tell(device, from, type);
  }

  /** `<presence>` and `<chatstate>` from a linked device. */
  fromDevice(device: LinkedDevice, node: BinaryNode): void {
    if (node.tag === 'presence') {
      const { type, to } = node.attrs;
      if (type === 'subscribe' && to) {
        const target = this.ctx.accounts.resolve(to);
        if (target) this.tellState(device, target.account);
        return;
      }
      if (type === 'available' || type === 'unavailable') {
        this.states.set(device.phone, { type, lastSeen: type === 'unavailable' ? Math.floor(Date.now() / 1000) : null });
        this.ctx.journal.changed();
      }
      return;
    }
    const to = node.attrs.to ?? '';
    const [state] = getAllBinaryNodeChildren(node);
    const kind = state?.tag === 'composing' && state.attrs.media === 'audio' ? 'recording' : state?.tag;
    if (kind !== 'composing' && kind !== 'recording' && kind !== 'paused') return;
    // Typing in a group shows to every other member; in a one-to-one chat to the other account.
    const group = isJidGroup(to) ? this.groupMembers(to) : undefined;
    const target = group ? undefined : this.ctx.accounts.resolve(to);
    const audience = group ? group.filter((member) => member !== device.account) : target ? [target.account] : [];
    for (const account of audience) {
      let list = this.chatStates.get(account.phone);
      if (!list) this.chatStates.set(account.phone, (list = []));
      list.push({ from: device.phone, chat: group ? to : account.phone, state: kind, at: new Date() });
      if (list.length > 1_000) list.shift();
      if (!group) for (const receiver of account.linkedDevices()) this.tell(receiver, device.account, kind);
    }
    this.ctx.journal.changed();
  }

  private tellState(device: LinkedDevice, about: Account) {
    this.tell(device, about, this.states.get(about.phone)?.type ?? 'unavailable');
  }

  private tell(device: LinkedDevice, from: Account, type: PresenceType) {
    const node: BinaryNode =
      type === 'available' || type === 'unavailable'
        ? {
            tag: 'presence',
            attrs: {
              from: from.jid('pn'),
              ...(type === 'unavailable' ? { type, last: `${this.states.get(from.phone)?.lastSeen ?? unixSeconds()}` } : {}),
            },
          }
        : {
            tag: 'chatstate',
            attrs: { from: from.jid('pn') },
            content: [{ tag: type === 'recording' ? 'composing' : type, attrs: type === 'recording' ? { media: 'audio' } : {} }],
          };
    device.hold({ key: `p:${from.phone}`, node, transient: true });
  }
}
