import { randomInt } from 'node:crypto';
import { getBinaryNodeChild, type BinaryNode } from 'baileys';
import type { Account } from './accounts.js';
import type { NetworkContext } from './context.js';
import { normalizePhone, unixSeconds } from '../protocol/jids.js';

export interface ProfileChange {
  /** The name the phone's messages carry from now on (`notify`), which clients turn into contact names. */
  pushName?: string;
  /** A new profile picture (its bytes), or null to remove it. */
  picture?: Buffer | null;
  /** Whose linked devices hear of a picture change: every other account's by default. */
  to?: string[];
}

/**
 * What people see of a phone: its push name (carried by its messages) and its profile picture
 * (announced with a `picture` notification and served through `w:profile:picture`).
 */
export class Profiles {
  private readonly pictures = new Map<string, { id: string; url: string; directPath: string; bytes: Buffer }>();

  constructor(private readonly ctx: NetworkContext) {}

  change(phoneInput: string, change: ProfileChange): void {
    const account = this.ctx.accounts.get(normalizePhone(phoneInput));
    if (change.pushName !== undefined) account.pushName = change.pushName;
    if (change.picture === undefined) return;
    const id = `${randomInt(10 ** 9, 2 ** 31)}`;
    if (change.picture) {
      const { url, directPath } = this.ctx.media.put(change.picture);
      this.pictures.set(account.phone, { id, url, directPath, bytes: change.picture });
    } else {
      this.pictures.delete(account.phone);
    }
    const audience = change.to
      ? change.to.map((input) => this.ctx.accounts.get(normalizePhone(input)))
      : this.ctx.accounts.all().filter((other) => other !== account);
    const child: BinaryNode = change.picture
      ? { tag: 'set', attrs: { jid: account.jid('pn'), id, author: account.jid('pn') } }
      : { tag: 'delete', attrs: { jid: account.jid('pn'), author: account.jid('pn') } };
    for (const other of audience) {
      for (const device of other.linkedDevices()) {
        const notificationId = `${randomInt(10 ** 9, 2 ** 31)}`;
        device.hold({
          key: `n:${notificationId}`,
          node: { tag: 'notification', attrs: { from: account.jid('pn'), type: 'picture', id: notificationId, t: unixSeconds() }, content: [child] },
        });
      }
    }
    this.ctx.journal.changed();
  }

  /**
   * `w:profile:picture`: a get answers the target's picture; a set without a target is the device's
   * own account changing its picture (a `<picture>` with the bytes), or removing it (none).
   */
  pictureQuery(iq: BinaryNode, viewer: Account): BinaryNode | undefined {
    if (iq.attrs.type === 'get') return this.pictureOf(this.ctx.accounts.resolve(iq.attrs.target)?.account, viewer);
    if (iq.attrs.target) return undefined;
    const bytes = getBinaryNodeChild(iq, 'picture')?.content;
    this.change(viewer.phone, { picture: bytes instanceof Uint8Array ? Buffer.from(bytes) : null });
    return undefined;
  }

  /** The picture's URL, 404 as for someone without one, 401 when its owner shows it to nobody. */
  pictureOf(target: Account | undefined, viewer?: Account): BinaryNode {
    const picture = target && this.pictures.get(target.phone);
    if (!picture) return { tag: 'error', attrs: { code: '404', text: 'item-not-found' } };
    if (viewer !== target && target.privacy.profile === 'none') return { tag: 'error', attrs: { code: '401', text: 'not-authorized' } };
    return { tag: 'picture', attrs: { id: picture.id, type: 'image', url: picture.url, direct_path: picture.directPath } };
  }

  /** What another phone sees of `phone`'s profile: its push name, about text and picture (the bytes). */
  seen(phoneInput: string): { name: string; about: string; picture: Buffer | null } {
    const account = this.ctx.accounts.get(normalizePhone(phoneInput));
    return { name: account.pushName, about: account.status, picture: this.pictures.get(account.phone)?.bytes ?? null };
  }
}
