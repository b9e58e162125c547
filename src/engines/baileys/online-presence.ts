import type { AuthenticationCreds, WASocket } from 'baileys';
import type { Logger } from '../../infra/logger.js';

/** How often an account kept online says so again, so the network never takes it for gone. */
const AGAIN_MS = 4 * 60_000;

/**
 * alwaysOnline (docs/settings.md): the session shows the account online while it is connected, and
 * says so again now and then; turned off, it shows the account offline once.
 */
export class OnlinePresence {
  private timer: NodeJS.Timeout | undefined;
  private shown = false;

  constructor(
    private readonly socket: { sock: WASocket; creds: AuthenticationCreds },
    private readonly log: Logger,
  ) {}

  apply(on: boolean): void {
    if (on === this.shown) return;
    this.shown = on;
    this.stop();
    this.send(on ? 'available' : 'unavailable');
    if (on) this.timer = setInterval(() => this.send('available'), AGAIN_MS).unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private send(type: 'available' | 'unavailable') {
    // Sent as the library would, but without waiting for a push name: the library sends none until the
    // phone's app state names the account, which may never come to a linked device.
    const name = this.socket.creds.me?.name?.replace(/@/g, '');
    this.socket.sock
      .sendNode({ tag: 'presence', attrs: { type, ...(name ? { name } : {}) } })
      .catch((error: unknown) => this.log.warn({ err: error }, 'the account could not be shown online'));
  }
}
