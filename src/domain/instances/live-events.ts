/**
 * What live subscribers (GraphQL subscriptions) see of an instance: its QR codes and its connection
 * status, taken from the same committed events the webhooks carry (DESIGN §12).
 */
export type LiveEvent =
  | { kind: 'qr'; instanceId: string; qrCode: string; expiresAt: string; attemptId: string }
  /** `status` in the instance's own status words (v1 or session), as in its webhooks. */
  | { kind: 'connection'; instanceId: string; status: string; phoneNumber: string; timestamp: string };

/** Live events by instance; in-process, or across nodes through Redis pub/sub. */
export interface LiveFeed {
  publish(events: LiveEvent[]): void;
  /** Events of one kind for one instance from now on, until the iterator is returned. */
  subscribe<K extends LiveEvent['kind']>(instanceId: string, kind: K): AsyncIterableIterator<Extract<LiveEvent, { kind: K }>>;
  close(): Promise<void>;
}

/** The live view of a committed event, or null for events subscribers do not watch. */
export function liveEventOf(e: { instanceId: string; event: string; data: Record<string, unknown>; createdAt: Date }): LiveEvent | null {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  if (e.event === 'qr.update') {
    return { kind: 'qr', instanceId: e.instanceId, qrCode: text(e.data.qrCode), expiresAt: text(e.data.expiresAt), attemptId: text(e.data.attemptId) };
  }
  if (e.event === 'connection.update') {
    return {
      kind: 'connection',
      instanceId: e.instanceId,
      status: text(e.data.status),
      phoneNumber: text(e.data.phoneNumber),
      timestamp: e.createdAt.toISOString(),
    };
  }
  return null;
}
