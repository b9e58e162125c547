import type { proto } from 'baileys';
import type { Journal } from './journal.js';
import { decryptMedia } from '../protocol/media-crypto.js';
import type { MediaHost } from './media-host.js';
import { changeOf, describeContent, isVisible, type MediaReference } from '../protocol/message-content.js';
import type { PhoneMessage } from '../types.js';

export interface IncomingEnvelope {
  id: string;
  /** Sender account (phone digits) and device. */
  from: string;
  fromDevice: number;
  chat: string;
  message: proto.IMessage;
}

/**
 * What each phone received from linked devices. A phone shows a message once per sender and id: a
 * client that sends the same id again (a retry, a resend after reconnecting) does not make a second.
 */
export class Inboxes {
  private readonly byPhone = new Map<string, PhoneMessage[]>();
  private readonly index = new Map<string, PhoneMessage>();
  /** Each phone takes its messages one at a time, so entries keep arrival order and are complete when listed. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly media: MediaHost,
    private readonly journal: Journal,
    /** The phone digits behind a jid (a phone jid or a LID the network gave out), to show mentions as digits. */
    private readonly phoneOf: (jid: string) => string | undefined = () => undefined,
  ) {}

  list(phone: string): PhoneMessage[] {
    return [...(this.byPhone.get(phone) ?? [])];
  }

  find(phone: string, messageId: string): PhoneMessage | undefined {
    const list = this.byPhone.get(phone) ?? [];
    for (let i = list.length - 1; i >= 0; i--) if (list[i]!.id === messageId) return list[i];
    return undefined;
  }

  /** Takes a decrypted message for `phone`; returns the entry it made, if it made one. */
  accept(phone: string, envelope: IncomingEnvelope): Promise<PhoneMessage | undefined> {
    const result = (this.queues.get(phone) ?? Promise.resolve()).then(() => this.acceptNow(phone, envelope));
    const settled = result.catch(() => undefined);
    this.queues.set(phone, settled);
    void settled.then(() => {
      if (this.queues.get(phone) === settled) this.queues.delete(phone);
    });
    return result;
  }

  private async acceptNow(phone: string, envelope: IncomingEnvelope): Promise<PhoneMessage | undefined> {
    const change = changeOf(envelope.message);
    if (change) {
      const target = this.index.get(this.key(phone, envelope.from, change.messageId));
      const at = new Date();
      if (target && change.kind === 'revoke') {
        target.revoked = true;
        target.revokedAt = at;
      }
      if (target && change.kind === 'edit') {
        const edited = describeContent(change.message);
        target.text = edited.text ?? target.text;
        target.caption = edited.caption ?? target.caption;
        target.edited = true;
        target.editedAt = at;
        target.edits.push({ text: edited.text ?? edited.caption, at });
      }
      this.journal.changed();
      return undefined;
    }
    if (!isVisible(envelope.message)) return undefined;
    const key = this.key(phone, envelope.from, envelope.id);
    if (this.index.has(key)) return undefined;
    const described = describeContent(envelope.message);
    const entry: PhoneMessage = {
      id: envelope.id,
      from: envelope.from,
      fromDevice: envelope.fromDevice,
      chat: envelope.chat,
      type: described.type,
      text: described.text,
      caption: described.caption,
      mimetype: described.mimetype,
      fileName: described.fileName,
      bytes: null,
      mediaError: null,
      voice: described.voice,
      seconds: described.seconds,
      location: described.location,
      contact: described.contact,
      contacts: described.contacts,
      reaction: described.reaction,
      poll: described.poll,
      mentions: described.mentionedJids.map((jid) => this.phoneOf(jid) ?? jid),
      quoted: described.quoted,
      revoked: false,
      revokedAt: null,
      edited: false,
      editedAt: null,
      edits: [],
      receivedAt: new Date(),
      message: envelope.message,
    };
    this.index.set(key, entry);
    if (described.media) {
      try {
        entry.bytes = await this.download(described.media);
      } catch (error) {
        entry.mediaError = error instanceof Error ? error.message : String(error);
      }
    }
    let list = this.byPhone.get(phone);
    if (!list) this.byPhone.set(phone, (list = []));
    list.push(entry);
    this.journal.changed();
    return entry;
  }

  /** The phone fetches the file from the media host and decrypts it with the message's key. */
  private async download(media: MediaReference): Promise<Buffer> {
    const where = media.directPath ?? media.url;
    if (!where) throw new Error('media message without url or direct path');
    const encrypted = this.media.get(where);
    if (!encrypted) throw new Error(`media host has no file at ${where}`);
    if (this.media.isExpired(where)) throw new Error(`media at ${where} has expired`);
    return decryptMedia(encrypted, media.mediaKey, media.mediaType, media);
  }

  private key(phone: string, sender: string, id: string) {
    return `${phone}|${sender}|${id}`;
  }
}
