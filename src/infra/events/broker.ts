/** One event as a broker carries it: the webhook's exact body, its delivery id and its signed headers. */
export interface BrokerMessage {
  tenantId: string;
  instanceId: string;
  event: string;
  /** The id the event's webhook delivery carries (the message id, the dedupe key). */
  id: string;
  body: Buffer;
  /** Named as on webhooks: X-Webhook-Id, X-Webhook-Event, X-Hub-Signature-256, webhook-id, webhook-timestamp, webhook-signature. */
  headers: Record<string, string>;
}

export type BrokerName = 'amqp' | 'nats';

/**
 * A broker the event streams publish to. It keeps its own connection (reconnecting with backoff,
 * declaring its exchange or stream each time) and says when it is back, so the stream can go on.
 */
export interface Broker {
  readonly name: BrokerName;
  /** Connected, with the exchange or stream declared. */
  isUp(): boolean;
  /**
   * Publishes in order and waits for the broker's confirms; resolves with how many of the first
   * messages were confirmed (those after the first failure count as not published, so an instance's
   * events never go out of order).
   */
  publish(messages: BrokerMessage[]): Promise<number>;
  /** Called each time the broker becomes usable. */
  onUp(listener: () => void): void;
  /** Called each time a usable broker stops being so. */
  onDown(listener: () => void): void;
  start(): void;
  close(): Promise<void>;
}

/** Reconnection pace: from half a second, doubling, to five seconds (the backlog goes out well within 30 s of a return). */
export function reconnectDelayMs(failures: number): number {
  return Math.min(5000, 500 * 2 ** Math.max(0, failures - 1));
}

/** The webhook headers under the names both brokers carry them by. */
export function brokerHeaders(signed: Record<string, string>): Record<string, string> {
  return {
    'X-Webhook-Id': signed['x-webhook-id']!,
    'X-Webhook-Event': signed['x-webhook-event']!,
    'X-Hub-Signature-256': signed['x-hub-signature-256']!,
    'webhook-id': signed['webhook-id']!,
    'webhook-timestamp': signed['webhook-timestamp']!,
    'webhook-signature': signed['webhook-signature']!,
  };
}

/** A URL without its password, for logs. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}
