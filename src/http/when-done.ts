import type { ServerResponse } from 'node:http';
import onFinished from 'on-finished';

/**
 * Runs `done` once the response is finished or its connection is gone — also when that happened
 * before this is called (a client that hung up while its request waited for the limiter). A 'close'
 * listener added then would never run, and the request's in-flight slot would be held until it expires.
 */
export function whenDone(res: ServerResponse, done: () => void): void {
  onFinished(res, () => done());
}
