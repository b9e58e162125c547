import type { ReachoutTimelockState, WASocket } from 'baileys';

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
