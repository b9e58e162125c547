import type { OutboxEventInput } from '../messages/messages.ports.js';

/** The message whose media is kept, as the events' owner (its tenant and instance). */
export interface KeptMessage {
  id: string;
  tenantId: string;
  instanceId: string | null;
}

/**
 * Where keeping each message's media stands, in the database (docs/media.md): pending rows are
 * claimed for a while by one node, then marked stored or failed together with their event.
 */
export interface KeptMediaStore {
  /**
   * Claims pending messages whose attempt is due (the one named, or up to `limit` of any), for `leaseMs`:
   * no other node takes them meanwhile. The ids claimed.
   */
  claim(options: { messageId?: string; limit: number; leaseMs: number }): Promise<string[]>;
  /** Whether any pending message's attempt is due now (the sweep's cheap look). */
  anyDue(): Promise<boolean>;
  /**
   * Records bytes just put as held (their blob, the sweep's grace started again). False: the media sweep
   * removed them since the put found them there, and they must be put again.
   */
  hold(blob: { sha256: string; size: number; mimetype: string }): Promise<boolean>;
  /** The bytes are in the store: the blob is recorded once, the message points at it, with its events, atomically. */
  stored(message: KeptMessage, blob: { sha256: string; size: number; mimetype: string }, events: OutboxEventInput[]): Promise<void>;
  /** An attempt failed: tried again at `retryAt`, or failed for good when null; with its events, atomically. */
  failed(message: KeptMessage, error: { code: string; message: string }, retryAt: Date | null, events: OutboxEventInput[]): Promise<void>;
  /** The policy no longer keeps it (changed since it was received): not pending, nothing told. */
  dropped(messageId: string): Promise<void>;
}
