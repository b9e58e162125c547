import { promisify } from 'node:util';
import { deflate } from 'node:zlib';
import { proto } from 'baileys';
import type { LinkedDevice } from '../state/accounts.js';
import type { NetworkContext } from '../state/context.js';
import { badRequest } from '../errors.js';
import { normalizePhone } from '../protocol/jids.js';
import { encryptMedia } from '../protocol/media-crypto.js';
import { buildMessage } from '../protocol/message-content.js';
import { type HistoryChunk, historyChunks, onDemandChunk, type PhonePast, settled } from '../state/history.js';
import { newMessageId, type Phones } from './phones.js';

const deflated = promisify(deflate);

/** A history request a linked device sent its phone (`fetchMessageHistory`), as the phone read it. */
export interface HistoryRequest {
  phone: string;
  deviceId: number;
  chat: string;
  oldestMessageId: string;
  count: number;
  at: Date;
}

/** What a device got of the sync: the notifications handed to it (by message id), and how many chunks so far. */
interface DeviceSync {
  notifications: Promise<{ id: string; message: proto.IMessage }[]>;
  handed: number;
}

/**
 * The phones' history sync (test/networks/README.md, "History"): a phone with a past sends each linked
 * device notifications pointing at a deflated, encrypted `HistorySync` blob on the media host, chunk by
 * chunk over its first connections, and answers ON_DEMAND requests for older messages.
 */
export class HistorySyncs {
  private readonly pasts = new Map<string, PhonePast>();
  private readonly devices = new Map<LinkedDevice, DeviceSync>();
  readonly requests: HistoryRequest[] = [];

  constructor(
    private readonly ctx: NetworkContext,
    private readonly phones: Phones,
  ) {}

  /** The phone's past from now on: devices linked later get it in their history sync. */
  set(phoneInput: string, past: PhonePast): void {
    const phone = normalizePhone(phoneInput);
    for (const chat of past.chats) {
      if (!chat.with.endsWith('@g.us')) normalizePhone(chat.with);
      if (!Array.isArray(chat.messages)) throw badRequest('invalid_history', 'each chat needs its messages');
      if (chat.messages.some((message) => message.text === undefined && !message.content)) throw badRequest('invalid_history', 'each message needs a text or content');
    }
    this.pasts.set(phone, settled(past));
  }

  /** A device logged in: the next chunks of its sync go to it (the ones it did not acknowledge wait in its queue anyway). */
  loggedIn(device: LinkedDevice): void {
    const past = this.pasts.get(device.phone);
    if (!past) return;
    let sync = this.devices.get(device);
    if (!sync) this.devices.set(device, (sync = { notifications: this.notifications(device, past), handed: 0 }));
    const current = sync;
    void current.notifications
      .then((all) => {
        const next = all.slice(current.handed, current.handed + (past.chunksPerConnection ?? all.length));
        current.handed += next.length;
        for (const { id, message } of next) this.phones.toOwnDevice(device, message, id);
      })
      .catch((error: unknown) => this.ctx.logger.warn({ err: error }, 'could not build the history sync'));
  }

  /** Hands every chunk already handed to `phone`'s devices over again, under the same ids (as for one not acknowledged). */
  async again(phoneInput: string): Promise<number> {
    const phone = normalizePhone(phoneInput);
    let count = 0;
    for (const [device, sync] of this.devices) {
      if (device.phone !== phone || device.loggedOut) continue;
      for (const { id, message } of (await sync.notifications).slice(0, sync.handed)) {
        this.phones.toOwnDevice(device, message, id);
        count++;
      }
    }
    return count;
  }

  /** The device asked its phone for older messages of a chat: the phone answers with an ON_DEMAND chunk. */
  async peerRequest(device: LinkedDevice, message: proto.IMessage, requestId: string): Promise<void> {
    const request = message.protocolMessage?.peerDataOperationRequestMessage?.historySyncOnDemandRequest;
    if (!request?.chatJid) return;
    this.requests.push({
      phone: device.phone,
      deviceId: device.id,
      chat: request.chatJid,
      oldestMessageId: request.oldestMsgId ?? '',
      count: request.onDemandMsgCount ?? 0,
      at: new Date(),
    });
    this.ctx.journal.changed();
    const past = this.pasts.get(device.phone);
    const chunk =
      past &&
      onDemandChunk(
        device.account,
        past,
        { chatJid: request.chatJid, oldestMsgId: request.oldestMsgId ?? '', oldestMsgTimestampMs: Number(request.oldestMsgTimestampMs ?? Date.now()), count: request.onDemandMsgCount ?? 50 },
        this.ctx.accounts,
      );
    if (!chunk) return;
    this.phones.toOwnDevice(device, await this.notification(chunk, requestId));
  }

  private async notifications(device: LinkedDevice, past: PhonePast) {
    for (const chat of past.chats) {
      for (const message of chat.messages) if (message.content && !message.built) message.built = (await buildMessage(message.content, this.ctx.media, {})).message;
    }
    const chunks = historyChunks(device.account, past, this.ctx.accounts);
    const built = [];
    for (const chunk of chunks) built.push({ id: newMessageId(), message: await this.notification(chunk) });
    return built;
  }

  /** The chunk deflated, encrypted as media of type `md-msg-hist`, put on the media host, and the notification pointing at it. */
  private async notification(chunk: HistoryChunk, peerDataRequestSessionId?: string): Promise<proto.IMessage> {
    const blob = await deflated(proto.HistorySync.encode(chunk.sync).finish());
    const media = await encryptMedia(blob, 'md-msg-hist');
    const { directPath } = this.ctx.media.put(media.encrypted);
    return {
      protocolMessage: {
        type: proto.Message.ProtocolMessage.Type.HISTORY_SYNC_NOTIFICATION,
        historySyncNotification: {
          fileSha256: media.fileSha256,
          fileLength: media.fileLength,
          mediaKey: media.mediaKey,
          fileEncSha256: media.fileEncSha256,
          directPath,
          syncType: chunk.syncType,
          chunkOrder: chunk.chunkOrder,
          ...(chunk.progress === null ? {} : { progress: chunk.progress }),
          ...(peerDataRequestSessionId ? { peerDataRequestSessionId } : {}),
        },
      },
    };
  }
}
