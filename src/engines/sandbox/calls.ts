import { randomBytes } from 'node:crypto';
import type { CallReport } from '../../domain/network/engine.port.js';
import { Conflict, Invalid, NotFound } from '../../domain/errors.js';
import type { SandboxDirectory } from './directory.js';
import { answerOf, type SandboxDevices } from './devices.js';
import type { SandboxReports } from './reports.js';

/** How a call a phone placed stands, as the phone sees it. */
export interface PlacedCall {
  id: string;
  from: string;
  /** The instance's phone digits. */
  to: string;
  video: boolean;
  status: 'ringing' | 'rejected' | 'accepted' | 'timeout' | 'missed';
  at: Date;
}

/** Calls a phone keeps, at most, in memory: a simulated network's recent history. */
const KEPT = 1000;

/**
 * Phones calling instances' numbers (docs/settings.md, "Calls"): each step is reported as a call, and
 * the instance's device rejects at once when its settings say so. Calls live on the node that placed
 * them, like the messages the network holds for offline phones.
 */
export function createSandboxCalls(deps: { directory: SandboxDirectory; devices: SandboxDevices; reports: SandboxReports }) {
  const calls = new Map<string, PlacedCall & { instanceId: string }>();

  const report = (instanceId: string, call: PlacedCall, step: Pick<CallReport, 'status' | 'rejectedByInstance'>) =>
    deps.reports.once(() => deps.reports.events.call(instanceId, { id: call.id, from: call.from, video: call.video, at: new Date(), ...step }));

  const shown = ({ instanceId: _instance, ...call }: PlacedCall & { instanceId: string }): PlacedCall => ({ ...call });

  return {
    /** Phone `from` (digits) calls the instance paired with `to` (digits): it rings, or the device rejects it at once. */
    async place(from: string, to: string, video: boolean): Promise<PlacedCall> {
      const instance = await deps.directory.connectedByPhone(`+${to}`);
      if (!instance) throw new Conflict('instance_unavailable', 'No connected instance has that number; the call rings nowhere the gateway sees.');
      const call = { id: randomBytes(16).toString('hex').toUpperCase(), from, to, video, status: 'ringing' as PlacedCall['status'], at: new Date(), instanceId: instance.id };
      calls.set(call.id, call);
      if (calls.size > KEPT) calls.delete(calls.keys().next().value!);
      await report(instance.id, call, { status: 'offer' });
      const answer = answerOf(deps.devices.get(instance.id));
      if (answer) {
        call.status = 'rejected';
        await report(instance.id, call, answer);
      }
      return shown(call);
    },
    /**
     * A ringing call ends: the number's owner takes or declines it on the phone (`accept`, `reject`),
     * nobody does (`timeout`), or the caller hangs up first (`hangup`, a missed call).
     */
    async end(callId: string, outcome: 'accept' | 'reject' | 'timeout' | 'hangup'): Promise<PlacedCall> {
      const call = calls.get(callId);
      if (!call) throw new NotFound('Call');
      if (call.status !== 'ringing') throw Invalid.at('callId', `is no longer ringing (${call.status})`);
      call.status = ({ accept: 'accepted', reject: 'rejected', timeout: 'timeout', hangup: 'missed' } as const)[outcome];
      await report(call.instanceId, call, { status: outcome === 'hangup' ? 'missed' : outcome });
      return shown(call);
    },
    /** The calls phone `from` (digits) placed, oldest first. */
    placedBy: (from: string): PlacedCall[] => [...calls.values()].filter((call) => call.from === from).map(shown),
  };
}

export type SandboxCalls = ReturnType<typeof createSandboxCalls>;
