import type { WACallEvent, WASocket } from 'baileys';
import type { CallReport } from '../../domain/network/engine.port.js';
import type { Logger } from '../../infra/logger.js';
import { userJidDigits } from './message-refs.js';

/** Calls remembered per socket, to tell a hang-up before anyone answered (missed) from the end of a call. */
const REMEMBERED = 500;

/**
 * The library's call events as the gateway's call reports (docs/settings.md, "Calls"): offer, accept,
 * reject and timeout as they are; a `terminate` of a call nobody answered is a missed call, of one
 * answered or rejected the end of it (not reported). Ringing, transport and latency steps are not reported.
 */
export class CallSteps {
  private readonly answered = new Map<string, true>();

  statusOf(call: WACallEvent): CallReport['status'] | null {
    switch (call.status) {
      case 'offer':
      case 'timeout':
        return call.status;
      case 'accept':
      case 'reject':
        this.remember(call.id);
        return call.status;
      case 'terminate':
        return this.answered.has(call.id) ? null : 'missed';
      default:
        return null;
    }
  }

  /** The instance rejected the call itself: its end is no missed call. */
  remember(callId: string) {
    this.answered.set(callId, true);
    if (this.answered.size > REMEMBERED) this.answered.delete(this.answered.keys().next().value!);
  }
}

/** The caller's phone digits: the phone jid the network gave, else the one the LID mapping knows. */
async function callerDigits(call: WACallEvent, sock: WASocket): Promise<string | null> {
  const told = userJidDigits(call.callerPn) ?? userJidDigits(call.from);
  if (told) return told;
  const mapped = await sock.signalRepository.lidMapping.getPNForLID(call.from).catch(() => null);
  return userJidDigits(mapped);
}

/**
 * One batch of the library's call events, reported in order; an offer is rejected at once when the
 * instance's `calls.reject` is on, and that rejection reported as the instance's own.
 */
export async function callReports(calls: WACallEvent[], deps: { sock: WASocket; steps: CallSteps; rejects: () => boolean; log: Logger }): Promise<CallReport[]> {
  const reports: CallReport[] = [];
  for (const call of calls) {
    const status = deps.steps.statusOf(call);
    if (!status || !call.id) continue;
    const from = await callerDigits(call, deps.sock);
    if (!from) continue;
    const base = { id: call.id, from, video: call.isVideo === true };
    reports.push({ ...base, status, at: call.date instanceof Date && !Number.isNaN(call.date.getTime()) ? call.date : new Date() });
    if (status !== 'offer' || !deps.rejects()) continue;
    try {
      await deps.sock.rejectCall(call.id, call.from);
    } catch (error) {
      deps.log.warn({ err: error, callId: call.id }, 'the network did not take the rejection of a call; it rings on');
      continue;
    }
    deps.steps.remember(call.id);
    reports.push({ ...base, status: 'reject', rejectedByInstance: true, at: new Date() });
  }
  return reports;
}
