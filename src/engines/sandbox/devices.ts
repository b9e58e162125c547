import type { CallReport, EngineSettings } from '../../domain/network/engine.port.js';

/**
 * What an instance's device does by itself, as its owner's session set it up on this node (its terms'
 * settings, docs/settings.md): the world asks it when a call rings or a message arrives. An instance
 * whose session is held by another node has none here: its calls ring unanswered, its messages stay unread.
 */
export interface SandboxDevice {
  settings: EngineSettings;
  /** The device marks a received message read (a read receipt to its sender). */
  markRead(from: string, networkMessageId: string): Promise<void>;
}

export type SandboxDevices = Map<string, SandboxDevice>;

/** The device's answer to a call that rings: rejected at once by the instance's `calls.reject`, else it rings on. */
export const answerOf = (device: SandboxDevice | undefined): Pick<CallReport, 'status' | 'rejectedByInstance'> | null =>
  device?.settings.calls.reject ? { status: 'reject', rejectedByInstance: true } : null;
