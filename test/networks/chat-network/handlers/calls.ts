import { randomBytes } from 'node:crypto';
import { getAllBinaryNodeChildren, type BinaryNode } from 'baileys';
import type { LinkedDevice } from '../state/accounts.js';
import type { NetworkContext } from '../state/context.js';
import { badRequest, notFound } from '../errors.js';
import { normalizePhone, unixSeconds } from '../protocol/jids.js';

/** A call a phone placed to an account, and how it went. */
export interface PhoneCall {
  id: string;
  from: string;
  to: string;
  video: boolean;
  /** `rejected`: a linked device of the callee rejected it (`rejectedBy` names it). */
  status: 'ringing' | 'rejected' | 'accepted' | 'timeout' | 'missed';
  rejectedBy: string | null;
  at: Date;
}

export type CallOutcome = 'accept' | 'reject' | 'timeout' | 'hangup';

/**
 * Calls from phones to accounts: the offer rings on the callee's connected linked devices as the
 * network's `<call><offer/></call>`, a device's `<call><reject/></call>` (the library's `rejectCall`)
 * is acknowledged and recorded, and a call still ringing ends taken on the phone, unanswered or hung up.
 */
export class Calls {
  private readonly calls = new Map<string, PhoneCall>();

  constructor(private readonly ctx: NetworkContext) {}

  /** Phone `fromInput` calls account `toInput`; returns the call's id. */
  place(fromInput: string, toInput: string, video = false): string {
    const from = this.ctx.accounts.get(normalizePhone(fromInput));
    const to = this.ctx.accounts.get(normalizePhone(toInput));
    const id = randomBytes(16).toString('hex').toUpperCase();
    this.calls.set(id, { id, from: from.phone, to: to.phone, video, status: 'ringing', rejectedBy: null, at: new Date() });
    const media: BinaryNode[] = [
      { tag: 'audio', attrs: { enc: 'opus', rate: '16000' } },
      { tag: 'audio', attrs: { enc: 'opus', rate: '8000' } },
      ...(video ? [{ tag: 'video', attrs: { enc: 'vp8', dec: 'vp8', orientation: '0', screen_width: '1920', screen_height: '1080', device_orientation: '0' } }] : []),
    ];
    this.ring(to.phone, from.jid('pn'), { tag: 'offer', attrs: { 'call-id': id, 'call-creator': from.jid('pn') }, content: media });
    this.ctx.journal.changed();
    return id;
  }

  /** A ringing call ends: taken or declined on the callee's phone (`accept`, `reject`), unanswered (`timeout`) or given up by the caller (`hangup`). */
  end(callId: string, outcome: CallOutcome): void {
    const call = this.find(callId);
    if (call.status !== 'ringing') throw badRequest('call_not_ringing', `call ${callId} is ${call.status}, not ringing`);
    call.status = ({ accept: 'accepted', reject: 'rejected', timeout: 'timeout', hangup: 'missed' } as const)[outcome];
    const creator = this.ctx.accounts.get(call.from).jid('pn');
    const attrs = { 'call-id': call.id, 'call-creator': creator };
    // Answered or declined on the phone, the devices stop ringing (`accept`, `reject`); otherwise the call is over (`terminate`).
    const node: BinaryNode =
      outcome === 'accept' || outcome === 'reject' ? { tag: outcome, attrs } : { tag: 'terminate', attrs: outcome === 'timeout' ? { ...attrs, reason: 'timeout' } : attrs };
    this.ring(call.to, creator, node);
    this.ctx.journal.changed();
  }

  /** The calls `phone` placed, oldest first. */
  placedBy(phoneInput: string): PhoneCall[] {
    const phone = normalizePhone(phoneInput);
    return [...this.calls.values()].filter((call) => call.from === phone).map((call) => ({ ...call }));
  }

  /** A `<call>` from a linked device: a reject of a call ringing on it is recorded and acknowledged. */
  fromDevice(device: LinkedDevice, node: BinaryNode): BinaryNode {
    const [child] = getAllBinaryNodeChildren(node);
    const call = child ? this.calls.get(child.attrs['call-id'] ?? '') : undefined;
    if (child?.tag === 'reject' && call && call.to === device.phone && call.status === 'ringing') {
      call.status = 'rejected';
      call.rejectedBy = device.jid('pn');
      this.ctx.journal.changed();
    }
    // What the client's query waits for: an ack of the stanza's id.
    return { tag: 'ack', attrs: { id: node.attrs.id ?? '', class: 'call', ...(child ? { type: child.tag } : {}), from: node.attrs.to ?? 's.whatsapp.net' } };
  }

  private find(callId: string): PhoneCall {
    const call = this.calls.get(callId);
    if (!call) throw notFound('unknown_call', `no call ${callId}`);
    return call;
  }

  /** One step of a call to the callee's connected devices (a call never waits for a later login). */
  private ring(to: string, creator: string, child: BinaryNode) {
    const account = this.ctx.accounts.get(to);
    for (const device of account.linkedDevices()) {
      const id = randomBytes(8).toString('hex').toUpperCase();
      device.hold({ key: `c:${id}`, node: { tag: 'call', attrs: { from: creator, id, t: unixSeconds() }, content: [child] }, transient: true });
    }
  }
}
