import type { NewChatMessageCapInfo, ReachoutTimelockState, WASocket } from 'baileys';
import type { AccountRestrictions } from '../../domain/network/engine.port.js';
import { onTheNetwork } from './on-the-network.js';

/** Until when the account may not write to new contacts, as the network tells it; null when it may. */
export function timelockEnd(state: ReachoutTimelockState, now = Date.now()): Date | null {
  if (!state.isActive) return null;
  // An active lock without an end lasts a minute, as the network's own web client assumes.
  const end = state.timeEnforcementEnds ? new Date(state.timeEnforcementEnds) : new Date(now + 60_000);
  return end.getTime() > now ? end : null;
}

/**
 * After a 463 the account's timelock is asked of the network; when the answer fails or says none, the
 * hold lasts a minute and the queue tries again (docs/settings.md, "Restrictions").
 */
export async function timelockAfterRefusal(sock: WASocket, now = Date.now()): Promise<Date> {
  const state = await sock.fetchAccountReachoutTimelock().catch(() => null);
  return (state && timelockEnd(state, now)) ?? new Date(now + 60_000);
}

const fromSeconds = (value: string | undefined) => (value && Number(value) > 0 ? new Date(Number(value) * 1000).toISOString() : null);

/** The account's timelock and new-contact cap, asked of the network (`reach_limits`). */
export async function accountRestrictions(sock: WASocket): Promise<AccountRestrictions> {
  const lock = await onTheNetwork('answer the timelock query', () => sock.fetchAccountReachoutTimelock());
  const cap: NewChatMessageCapInfo = await onTheNetwork('answer the message cap query', () => sock.fetchNewChatMessageCap());
  const until = timelockEnd(lock);
  return {
    timelock: until && { reason: 'reach_out_timelock', until: until.toISOString() },
    messageCap: typeof cap.total_quota === 'number' ? { limit: cap.total_quota, used: cap.used_quota ?? 0, resetAt: fromSeconds(cap.cycle_end_timestamp) } : null,
  };
}
