import { getBinaryNodeChild, type BinaryNode } from 'baileys';
import { randomBytes } from 'node:crypto';
import type { ClientConnection } from '../state/client-connection.js';
import type { NetworkContext } from '../state/context.js';
import { SERVER_JID, unixSeconds } from '../protocol/jids.js';

/** The query ids the client sends in `w:mex` queries (the library's `QueryIds`). */
const REACHOUT_TIMELOCK = '23983697327930364';
const MESSAGE_CAPPING_INFO = '24503548349331633';

/** Whole seconds, rounded up: a client never sees a lock end before it does. */
const seconds = (at: Date) => `${Math.ceil(at.getTime() / 1000)}`;

/**
 * What devices learn of their account's reach-out limits: the timelock and the cap, asked by a `w:mex`
 * query, and a timelock set or lifted, told by a `mex` notification as the real network tells it.
 */
export class ReachOutAnswers {
  constructor(private readonly ctx: NetworkContext) {}

  /** The answer to a `w:mex` query the network knows; a 501 error for any other. */
  query(iq: BinaryNode, connection: ClientConnection): BinaryNode {
    const queryId = getBinaryNodeChild(iq, 'query')?.attrs.query_id;
    const phone = connection.device!.account.phone;
    const result = (data: unknown) => ({ tag: 'result', attrs: {}, content: Buffer.from(JSON.stringify({ data })) });
    if (queryId === REACHOUT_TIMELOCK) {
      const lock = this.ctx.reachOut.timelockOf(phone);
      return result({
        xwa2_fetch_account_reachout_timelock: lock
          ? { is_active: true, time_enforcement_ends: seconds(lock.until), enforcement_type: 'DEFAULT' }
          : { is_active: false, time_enforcement_ends: '0', enforcement_type: 'DEFAULT' },
      });
    }
    if (queryId === MESSAGE_CAPPING_INFO) {
      const cap = this.ctx.reachOut.cap;
      const used = this.ctx.reachOut.used(phone);
      const now = new Date();
      return result({
        xwa2_message_capping_info: cap
          ? {
              total_quota: cap.count,
              used_quota: used.length,
              cycle_start_timestamp: seconds(used[0] ?? now),
              cycle_end_timestamp: seconds(new Date((used[0] ?? now).getTime() + cap.windowMs)),
              capping_status: used.length >= cap.count ? 'CAPPED' : 'NONE',
            }
          : { capping_status: 'NONE' },
      });
    }
    return { tag: 'error', attrs: { code: '501', text: 'feature-not-implemented' } };
  }

  /** Tells `phone`'s linked devices of its timelock as it is now (set, or lifted). */
  announce(phone: string): void {
    const lock = this.ctx.reachOut.timelockOf(phone);
    const payload = lock
      ? { is_active: true, time_enforcement_ends: seconds(lock.until), enforcement_type: 'DEFAULT' }
      : { is_active: false };
    for (const device of this.ctx.accounts.find(phone)?.devices.values() ?? []) {
      const id = randomBytes(4).readUInt32BE(0).toString();
      device.hold({
        key: `n:${id}`,
        node: {
          tag: 'notification',
          attrs: { from: SERVER_JID, type: 'mex', id, t: unixSeconds() },
          content: [
            {
              tag: 'update',
              attrs: { op_name: 'NotificationUserReachoutTimelockUpdate' },
              content: Buffer.from(JSON.stringify({ data: { xwa2_notify_account_reachout_timelock: payload } })),
            },
          ],
        },
      });
    }
  }
}
