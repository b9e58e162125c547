import type { MediaLinkSettings } from '../../domain/media/signed-links.js';
import type { DatabaseTimeouts } from '../db/database.js';
import type { BrokerName } from './broker.js';
import type { BrokerSettings } from './brokers.js';
import type { EventStreamOptions } from './event-stream.js';

/** What the publisher thread starts with. */
export interface PublisherData {
  settings: BrokerSettings;
  databaseUrl: string;
  timeouts: DatabaseTimeouts;
  logLevel: string;
  options?: EventStreamOptions;
  mediaLinks?: MediaLinkSettings;
  /** Per broker, in configuration order: [up (1/0), oldest event known to wait (ms since the epoch, 0 for none)]. */
  state: Float64Array;
  /** [1 while a commit has been announced and the publisher has not taken it yet]. */
  announced: Int32Array;
}

export type ToPublisher = { kind: 'committed'; at: number } | { kind: 'stop' };

export type ToMain =
  | { kind: 'published' | 'failed'; broker: BrokerName; count: number }
  | { kind: 'log'; line: string }
  | { kind: 'query'; text: string };

/** Shared memory for `brokers` brokers' state. */
export function brokerStateMemory(brokers: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT * 2 * brokers));
}

export function writeBrokerState(state: Float64Array, brokers: ReadonlyArray<{ isUp(): boolean; oldestWaiting(): Date | null }>): void {
  brokers.forEach((broker, n) => {
    state[2 * n] = broker.isUp() ? 1 : 0;
    state[2 * n + 1] = broker.oldestWaiting()?.getTime() ?? 0;
  });
}

/** Every broker down (the thread is gone); what is known of their backlogs' age stays. */
export function markBrokersDown(state: Float64Array): void {
  for (let n = 0; n < state.length; n += 2) state[n] = 0;
}

export function readBrokerState(state: Float64Array, n: number): { up: boolean; oldestWaiting: number } {
  return { up: state[2 * n] === 1, oldestWaiting: state[2 * n + 1]! };
}
