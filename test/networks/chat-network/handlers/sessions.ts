import type { proto } from 'baileys';
import type { ClientConnection } from '../state/client-connection.js';
import type { NetworkContext } from '../state/context.js';
import type { LinkedDevice } from '../state/accounts.js';
import { badRequest, notFound } from '../errors.js';
import { normalizePhone, unixSeconds } from '../protocol/jids.js';
import type { Pairing } from './pairing.js';
import type { StreamErrorCode } from '../types.js';

const STREAM_ERROR_CODES: readonly StreamErrorCode[] = [408, 428, 440, 401, 403, 500, 503, 515];

const failure = (reason: number) => ({ tag: 'failure', attrs: { reason: `${reason}`, location: 'chat-network' } });
const replaced = () => ({ tag: 'stream:error', attrs: {}, content: [{ tag: 'conflict', attrs: { type: 'replaced' } }] });

/**
 * Who a connection is once its handshake completes: a linked device logging in (its Noise key must
 * be the one it registered), or a new client registering. Also the network's side of ending
 * sessions: stream errors, logouts and bans.
 */
export class Sessions {
  constructor(
    private readonly ctx: NetworkContext,
    private readonly pairing: Pairing,
  ) {}

  authenticated(connection: ClientConnection, payload: proto.ClientPayload): void {
    if (payload.username != null) this.login(connection, payload);
    else if (payload.devicePairingData) this.pairing.register(connection, payload);
    else connection.endWith(failure(400));
  }

  closed(connection: ClientConnection): void {
    connection.device?.detach(connection);
    this.pairing.closed(connection);
    this.ctx.journal.changed();
  }

  private login(connection: ClientConnection, payload: proto.ClientPayload) {
    const phone = payload.username!.toString();
    const deviceId = payload.device ?? 0;
    this.ctx.journal.recordLoginAttempt(phone);
    const account = this.ctx.accounts.find(phone);
    if (account?.banned) return connection.endWith(failure(403));
    const device = account?.devices.get(deviceId);
    if (!device || device.loggedOut || !connection.clientStaticKey?.equals(device.identity.noiseKey)) {
      return connection.endWith(failure(401));
    }
    const previous = device.connection;
    if (previous && previous !== connection) {
      device.detach(previous);
      previous.endWith(replaced());
    }
    connection.device = device;
    this.ctx.journal.logins++;
    connection.send({
      tag: 'success',
      attrs: {
        t: unixSeconds(),
        lid: device.jid('lid'),
        props: '1',
        abprops: '1',
        location: 'chat-network',
        creation: unixSeconds(device.linkedAt),
      },
    });
    device.attach(connection);
    this.ctx.deviceLoggedIn(device);
    this.ctx.journal.changed();
  }

  /**
   * Ends the sessions of `phone`'s linked devices (or one) as the real network does for `code`, so the
   * client reports that code (README, "How the chat network is built"). Returns how many it ended.
   */
  streamError(phoneInput: string, code: StreamErrorCode, deviceId?: number): number {
    if (!STREAM_ERROR_CODES.includes(code)) throw badRequest('invalid_code', `code must be one of ${STREAM_ERROR_CODES.join(', ')}`);
    const phone = normalizePhone(phoneInput);
    const account = this.ctx.accounts.find(phone);
    if (!account) throw notFound('unknown_phone', `${phone} has no linked devices`);
    let devices: LinkedDevice[] = [...account.devices.values()];
    if (deviceId !== undefined) {
      const device = account.devices.get(deviceId);
      if (!device) throw notFound('unknown_device', `${phone} has no device ${deviceId}`);
      devices = [device];
    }
    if (code === 403) account.banned = true;
    let ended = 0;
    for (const device of devices) {
      if (code === 401) device.loggedOut = true;
      const connection = device.connection;
      if (!connection?.isOpen) continue;
      ended++;
      switch (code) {
        case 428:
          connection.drop();
          break;
        case 440:
          connection.endWith(replaced());
          break;
        case 401:
          connection.endWith({ tag: 'stream:error', attrs: { code: '401' }, content: [{ tag: 'conflict', attrs: { type: 'device_removed' } }] });
          break;
        case 403:
          connection.endWith(failure(403));
          break;
        default:
          connection.endWith({ tag: 'stream:error', attrs: { code: `${code}` } });
      }
    }
    this.ctx.journal.changed();
    return ended;
  }

  /** Lifts a ban: the account's devices may log in again (those the phone did not remove). */
  unban(phoneInput: string): void {
    const account = this.ctx.accounts.find(normalizePhone(phoneInput));
    if (!account) throw notFound('unknown_phone', `${phoneInput} is not on the network`);
    account.banned = false;
    this.ctx.journal.changed();
  }
}
