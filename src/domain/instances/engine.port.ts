/** An outbound message as an engine carries it. */
export interface EngineMessage {
  messageId: string;
  to: string;
  type: 'text' | 'image' | 'video' | 'audio' | 'document';
  text: string | null;
  mediaUrl: string | null;
  caption: string | null;
}

import type { InstanceRecord } from './instances.ports.js';
import type { Lease } from './ownership.js';

/**
 * What the domain asks of a chat network. Engines report back through EngineEvents; a real engine
 * can be added without touching the domain. Only the node owning an instance (see ownership.ts)
 * attaches it, sends through it and runs its clocks.
 */
export interface ChatEngine {
  /** Shown as `integration`, e.g. CHAT-SANDBOX. */
  readonly integration: string;
  /** The network domain of chat ids, as in `<digits>@<domain>` (session webhooks' remoteJid). */
  readonly jidDomain: string;
  /** The text of a new, unguessable pairing code for the instance's QR image. */
  newPairingCode(instanceId: string): Promise<string>;
  /**
   * Hands messages to the network, in order, under the owner's lease; resolves with how many the
   * network took (the first n). Throws LeaseLost, having handed nothing, when the lease is no
   * longer current.
   */
  send(instance: { id: string; phone: string }, messages: EngineMessage[], lease: Lease): Promise<number>;
  /**
   * Of these messages, the ones the network already took: after a takeover or a hand-off whose
   * `sent` mark was not stored, the owner marks those instead of handing them over again. An engine
   * that cannot tell answers none (a crash between hand-off and mark then sends twice).
   */
  holding(instanceId: string, messageIds: string[]): Promise<Set<string>>;
  /** This node now owns the instance: open (or restore) its connection as its state says. Idempotent. */
  attach(instance: InstanceRecord, lease: Lease): Promise<void>;
  /** This node no longer owns the instance: let go of its connection without logging out. */
  detach(instanceId: string): void;
  logout(instanceId: string): Promise<void>;
}

export interface InboundMessage {
  from: string;
  type: 'text' | 'image' | 'location';
  text: string | null;
  location: { name?: string; latitude?: number; longitude?: number } | null;
  pushName: string | null;
}

/** What an engine reports; the domain turns each report into state changes and events. */
export interface EngineEvents {
  /** The phone scanned a pairing code. */
  scanned(code: string, phone: string): Promise<{ instanceId: string }>;
  dropped(instanceId: string): Promise<void>;
  /** The owner's connection came back; refused (LeaseLost) when `lease` is no longer current. */
  reconnected(instanceId: string, lease?: Lease): Promise<void>;
  banned(instanceId: string): Promise<void>;
  /**
   * A message to an instance's phone. While the phone's linked instance is offline but still paired
   * (dropped, reconnecting, disconnected by the network) the answer is `held`: the network keeps the
   * message and reports it again once the instance is connected.
   */
  inbound(instancePhone: string, message: InboundMessage): Promise<{ messageId: string } | { held: true }>;
  receipt(messageId: string, status: 'delivered' | 'read'): Promise<void>;
  deleted(messageId: string, deletedBy: string, forEveryone: boolean): Promise<void>;
}
