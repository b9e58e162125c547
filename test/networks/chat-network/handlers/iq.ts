import { createHash } from 'node:crypto';
import {
  Curve,
  decodeSyncdPatch,
  newLTHashState,
  encodeBigEndian,
  getAllBinaryNodeChildren,
  getBinaryNodeChild,
  getBinaryNodeChildBuffer,
  getBinaryNodeChildren,
  getBinaryNodeChildUInt,
  KEY_BUNDLE_TYPE,
  proto,
  type BinaryNode,
} from 'baileys';
import type { Account, LinkedDevice } from '../state/accounts.js';
import type { ClientConnection } from '../state/client-connection.js';
import type { NetworkContext } from '../state/context.js';
import { SERVER_JID, unixSeconds } from '../protocol/jids.js';
import type { Pairing } from './pairing.js';
import type { PreKeyBundle } from '../protocol/signal.js';

type IqHandler = (iq: BinaryNode, connection: ClientConnection) => BinaryNode | BinaryNode[] | undefined | Promise<BinaryNode | BinaryNode[] | undefined>;

const buffer = (node: BinaryNode | undefined, tag: string) => {
  const value = getBinaryNodeChildBuffer(node, tag);
  return value ? Buffer.from(value) : undefined;
};

/** Extra groups handlers plug in here (`w:g2`), so this file stays about the one-to-one protocol. */
export type ExtraIqHandlers = Record<string, IqHandler>;

/**
 * Answers to what clients ask the server (`<iq>`): keys, device lists, media hosts, settings. Each
 * answer is shaped as the client's parser reads it; anything unknown gets a 501 error, as from the
 * real server, rather than an empty result the client might misread.
 */
export class IqAnswers {
  private readonly handlers: Record<string, IqHandler>;

  constructor(
    private readonly ctx: NetworkContext,
    private readonly pairing: Pairing,
    extra: ExtraIqHandlers = {},
  ) {
    this.handlers = {
      'w:p': () => undefined,
      encrypt: (iq, connection) => this.encrypt(iq, connection),
      usync: (iq) => this.usync(iq),
      passive: () => undefined,
      abt: () => ({ tag: 'props', attrs: { protocol: '1', hash: 'chat-network-1', refresh: '86400' } }),
      blocklist: (iq, connection) => this.blocklist(iq, connection),
      privacy: (iq, connection) => {
        const account = connection.device!.account;
        if (getBinaryNodeChild(iq, 'privacy') && iq.attrs.type === 'get') {
          return { tag: 'privacy', attrs: {}, content: Object.entries(account.privacy).map(([name, value]) => ({ tag: 'category', attrs: { name, value } })) };
        }
        if (getBinaryNodeChild(iq, 'privacy')) {
          // A device changes a setting: kept as sent (clients send the network's own values).
          for (const { attrs } of getBinaryNodeChildren(getBinaryNodeChild(iq, 'privacy'), 'category')) {
            if (!attrs.name || !attrs.value || !(attrs.name in account.privacy)) return this.error(400, 'bad-request');
            account.privacy[attrs.name] = attrs.value;
          }
          this.ctx.journal.changed();
          return undefined;
        }
        // Trusted-contact tokens the device issues to contacts: kept, so tests can count them.
        for (const token of getBinaryNodeChildren(getBinaryNodeChild(iq, 'tokens'), 'token')) {
          this.ctx.journal.recordTokenIssued({ phone: connection.device!.account.phone, to: token.attrs.jid ?? '', t: Number(token.attrs.t), at: new Date() });
        }
        return undefined;
      },
      'w:m': () => ({
        tag: 'media_conn',
        attrs: { auth: this.ctx.media.auth, ttl: '21600', auth_ttl: '3600', max_buckets: '12' },
        content: [{ tag: 'host', attrs: { hostname: this.ctx.media.hostname, maxContentLengthBytes: `${64 * 1024 * 1024}` } }],
      }),
      md: (iq, connection) => this.md(iq, connection),
      status: (iq, connection) => {
        const status = getBinaryNodeChild(iq, 'status')?.content;
        if (connection.device && status) connection.device.account.status = Buffer.from(status as Uint8Array).toString('utf8');
        return undefined;
      },
      'w:profile:picture': (iq) => (iq.attrs.type === 'get' ? this.error(404, 'item-not-found') : undefined),
      'w:sync:app:state': (iq, connection) => this.appState(iq, connection.device!.account),
      'w:stats': () => undefined,
      'urn:xmpp:whatsapp:dirty': () => undefined,
      disappearing_mode: () => undefined,
      bot: () => ({ tag: 'bot', attrs: {} }),
      // No account of this network is a business: the profile query answers with none.
      'w:biz': () => ({ tag: 'business_profile', attrs: {} }),
      ...extra,
    };
  }

  /** The answer to send, or undefined when the query gets none (it was handled otherwise). */
  async answer(iq: BinaryNode, connection: ClientConnection): Promise<BinaryNode | undefined> {
    const handler = this.handlers[iq.attrs.xmlns ?? ''];
    if (!handler) {
      this.ctx.logger.warn({ xmlns: iq.attrs.xmlns, type: iq.attrs.type, child: getAllBinaryNodeChildren(iq)[0]?.tag }, 'unanswered iq');
      return this.wrap(iq, [this.error(501, 'feature-not-implemented')], 'error');
    }
    const needsDevice = iq.attrs.xmlns !== 'md' && iq.attrs.xmlns !== 'w:p';
    if (needsDevice && !connection.device) return this.wrap(iq, [this.error(401, 'not-authorized')], 'error');
    const answer = await handler(iq, connection);
    const content = answer === undefined ? undefined : Array.isArray(answer) ? answer : [answer];
    const isError = content?.length === 1 && content[0]!.tag === 'error';
    return this.wrap(iq, content, isError ? 'error' : 'result');
  }

  private wrap(iq: BinaryNode, content: BinaryNode[] | undefined, type: 'result' | 'error'): BinaryNode {
    return { tag: 'iq', attrs: { from: SERVER_JID, type, id: iq.attrs.id ?? '' }, ...(content ? { content } : {}) };
  }

  private error(code: number, text: string): BinaryNode {
    return { tag: 'error', attrs: { code: `${code}`, text } };
  }

  /**
   * App state: a get answers each collection at the version asked, with nothing new; a set carries a
   * patch the device encrypted with the account's app-state key, whose push-name setting the network
   * takes (the rest of a patch is not kept).
   */
  private async appState(iq: BinaryNode, account: Account): Promise<BinaryNode> {
    const collections = getBinaryNodeChildren(getBinaryNodeChild(iq, 'sync'), 'collection');
    if (iq.attrs.type === 'set') {
      for (const collection of collections) {
        const patch = getBinaryNodeChildBuffer(collection, 'patch');
        const key = account.appStateKey;
        if (!patch) continue;
        if (!key) return this.error(400, 'bad-request');
        // The patch comes without its version: it is the one after the collection's version sent.
        const decoded = { ...proto.SyncdPatch.decode(patch), version: { version: Number(collection.attrs.version ?? 0) + 1 } };
        try {
          await decodeSyncdPatch(decoded as never, collection.attrs.name as never, newLTHashState(), async () => ({ keyData: key.data }) as never, ({ syncAction }) => {
            const name = syncAction.value?.pushNameSetting?.name;
            if (name) account.pushName = name;
          }, true);
        } catch {
          return this.error(400, 'bad-request');
        }
      }
      this.ctx.journal.changed();
    }
    return {
      tag: 'sync',
      attrs: {},
      content: collections.map(({ attrs }) => ({ tag: 'collection', attrs: { name: attrs.name ?? '', version: attrs.version ?? '0' } })),
    };
  }

  /** The account's blocklist: read, or changed by an item naming the person (by LID, with `pn_jid` when blocking). */
  private blocklist(iq: BinaryNode, connection: ClientConnection): BinaryNode | undefined {
    const account = connection.device!.account;
    if (iq.attrs.type === 'get') {
      const items = [...account.blocked].map((phone) => ({ tag: 'item', attrs: { jid: this.ctx.accounts.get(phone).jid('lid') } }));
      return { tag: 'list', attrs: { dhash: '0' }, content: items };
    }
    const item = getBinaryNodeChild(iq, 'item');
    const person = this.ctx.accounts.resolve(item?.attrs.jid)?.account;
    if (!item || !person || (item.attrs.action !== 'block' && item.attrs.action !== 'unblock')) return this.error(400, 'bad-request');
    if (item.attrs.action === 'block') account.blocked.add(person.phone);
    else account.blocked.delete(person.phone);
    this.ctx.journal.changed();
    return undefined;
  }

  private md(iq: BinaryNode, connection: ClientConnection): BinaryNode | BinaryNode[] | undefined {
    const request = getBinaryNodeChild(iq, 'link_code_companion_reg');
    if (request?.attrs.stage === 'companion_hello') return this.unwrap(this.pairing.companionHello(connection, iq, request));
    if (request?.attrs.stage === 'companion_finish') return this.unwrap(this.pairing.companionFinish(connection, iq, request));
    if (getBinaryNodeChild(iq, 'remove-companion-device') && connection.device) {
      // The device logs itself out: it may never log in again.
      connection.device.loggedOut = true;
      this.ctx.journal.changed();
      return undefined;
    }
    return this.error(400, 'bad-request');
  }

  /** Pairing builds whole iq answers; the content is what this dispatcher wraps. */
  private unwrap(answer: BinaryNode): BinaryNode | BinaryNode[] | undefined {
    const content = answer.content;
    return Array.isArray(content) ? content : undefined;
  }

  private encrypt(iq: BinaryNode, connection: ClientConnection): BinaryNode | BinaryNode[] | undefined {
    const device = connection.device!;
    if (getBinaryNodeChild(iq, 'count')) return { tag: 'count', attrs: { value: `${device.preKeys.size}` } };
    if (getBinaryNodeChild(iq, 'registration')) return this.upload(iq, device);
    if (getBinaryNodeChild(iq, 'digest')) return this.digest(device);
    if (getBinaryNodeChild(iq, 'rotate')) {
      const skey = getBinaryNodeChild(getBinaryNodeChild(iq, 'rotate'), 'skey');
      const signed = skey && this.signedPreKey(skey);
      if (!signed || !device.keys) return this.error(400, 'bad-request');
      device.keys = { ...device.keys, signedPreKey: signed };
      return undefined;
    }
    const key = getBinaryNodeChild(iq, 'key');
    if (key) {
      const users = getBinaryNodeChildren(key, 'user').flatMap(({ attrs }) => {
        const bundle = this.bundleFor(attrs.jid);
        return bundle ? [bundle] : [];
      });
      return { tag: 'list', attrs: {}, content: users };
    }
    return this.error(400, 'bad-request');
  }

  private upload(iq: BinaryNode, device: LinkedDevice): BinaryNode | undefined {
    const registrationId = getBinaryNodeChildUInt(iq, 'registration', 4);
    const identityKey = buffer(iq, 'identity');
    const skey = getBinaryNodeChild(iq, 'skey');
    const signedPreKey = skey && this.signedPreKey(skey);
    if (registrationId == null || identityKey?.length !== 32 || !signedPreKey) return this.error(400, 'bad-request');
    const preKeys = getBinaryNodeChildren(getBinaryNodeChild(iq, 'list'), 'key').flatMap((key) => {
      const keyId = getBinaryNodeChildUInt(key, 'id', 3);
      const publicKey = buffer(key, 'value');
      return keyId != null && publicKey?.length === 32 ? [{ keyId, publicKey }] : [];
    });
    device.uploadKeys({ registrationId, identityKey, signedPreKey }, preKeys);
    return undefined;
  }

  private signedPreKey(skey: BinaryNode) {
    const keyId = getBinaryNodeChildUInt(skey, 'id', 3);
    const publicKey = buffer(skey, 'value');
    const signature = buffer(skey, 'signature');
    return keyId != null && publicKey?.length === 32 && signature?.length === 64 ? { keyId, publicKey, signature } : undefined;
  }

  /** What the server holds of the device's keys, so the client can check it uploaded what it thinks. */
  private digest(device: LinkedDevice): BinaryNode {
    const keys = device.keys;
    if (!keys) return this.error(404, 'item-not-found');
    const ids = device.preKeys.ids();
    const hash = createHash('sha1')
      .update(keys.identityKey)
      .update(keys.signedPreKey.publicKey)
      .update(keys.signedPreKey.signature)
      .update(Buffer.from(ids.join(',')))
      .digest();
    return {
      tag: 'digest',
      attrs: {},
      content: [
        { tag: 'registration', attrs: {}, content: encodeBigEndian(keys.registrationId) },
        { tag: 'type', attrs: {}, content: KEY_BUNDLE_TYPE },
        { tag: 'identity', attrs: {}, content: keys.identityKey },
        this.skeyNode(keys.signedPreKey),
        { tag: 'list', attrs: {}, content: ids.map((id) => ({ tag: 'id', attrs: {}, content: encodeBigEndian(id, 3) })) },
        { tag: 'hash', attrs: {}, content: hash },
      ],
    };
  }

  /** A key bundle for a device the client wants a session with (`<user jid>` of `encrypt`/`key`). */
  private bundleFor(jid: string | undefined): BinaryNode | undefined {
    const resolved = this.ctx.accounts.resolve(jid);
    if (!resolved || !jid) return undefined;
    let bundle: PreKeyBundle | undefined;
    let identity: Uint8Array | undefined;
    if (resolved.device === 0) {
      bundle = resolved.account.signal.bundle();
    } else {
      const device = resolved.account.devices.get(resolved.device);
      bundle = device?.bundle();
      identity = device?.identity.signedIdentity;
    }
    if (!bundle) return undefined;
    return { tag: 'user', attrs: { jid }, content: this.bundleNodes(bundle, identity) };
  }

  bundleNodes(bundle: PreKeyBundle, deviceIdentity?: Uint8Array): BinaryNode[] {
    return [
      { tag: 'registration', attrs: {}, content: encodeBigEndian(bundle.registrationId) },
      { tag: 'type', attrs: {}, content: KEY_BUNDLE_TYPE },
      { tag: 'identity', attrs: {}, content: bundle.identityKey },
      this.skeyNode(bundle.signedPreKey),
      ...(bundle.preKey
        ? [
            {
              tag: 'key',
              attrs: {},
              content: [
                { tag: 'id', attrs: {}, content: encodeBigEndian(bundle.preKey.keyId, 3) },
                { tag: 'value', attrs: {}, content: bundle.preKey.publicKey },
              ],
            },
          ]
        : []),
      ...(deviceIdentity ? [{ tag: 'device-identity', attrs: {}, content: deviceIdentity }] : []),
    ];
  }

  private skeyNode(signed: { keyId: number; publicKey: Uint8Array; signature: Uint8Array }): BinaryNode {
    return {
      tag: 'skey',
      attrs: {},
      content: [
        { tag: 'id', attrs: {}, content: encodeBigEndian(signed.keyId, 3) },
        { tag: 'value', attrs: {}, content: signed.publicKey },
        { tag: 'signature', attrs: {}, content: signed.signature },
      ],
    };
  }

  /**
   * A usync query: per user, what each asked protocol says (devices, LID, whether the number is on
   * the network, status). Clients are LID-first: sending fails unless the answer names the LID.
   */
  private usync(iq: BinaryNode): BinaryNode {
    const usync = getBinaryNodeChild(iq, 'usync');
    const protocols = getAllBinaryNodeChildren(getBinaryNodeChild(usync, 'query') ?? { tag: 'query', attrs: {} }).map((node) => node.tag);
    const users = getBinaryNodeChildren(getBinaryNodeChild(usync, 'list'), 'user').map((user) => {
      const phoneContact = getBinaryNodeChild(user, 'contact')?.content;
      const asked =
        user.attrs.jid ??
        (phoneContact ? `${Buffer.from(phoneContact as Uint8Array).toString('utf8').replace(/\D/g, '')}@${SERVER_JID}` : undefined);
      const resolved = this.ctx.accounts.resolve(asked);
      if (!asked || !resolved) return { tag: 'user', attrs: { jid: asked ?? '' } };
      if (!resolved.account.registered) {
        // A number not on the network: the contact check says so, and there is no LID or device to name.
        const out: BinaryNode[] = protocols.includes('contact') ? [{ tag: 'contact', attrs: { type: 'out' } }] : [];
        return { tag: 'user', attrs: { jid: resolved.account.jid('pn') }, content: out };
      }
      const jid = resolved.account.jid(resolved.addressing);
      const content = protocols.flatMap((protocol) => this.usyncProtocol(protocol, resolved.account, resolved.addressing, phoneContact));
      return { tag: 'user', attrs: { jid }, content };
    });
    return {
      tag: 'usync',
      attrs: { sid: usync?.attrs.sid ?? '', mode: usync?.attrs.mode ?? 'query', context: usync?.attrs.context ?? 'interactive', index: '0', last: 'true' },
      content: [{ tag: 'list', attrs: {}, content: users }],
    };
  }

  private usyncProtocol(protocol: string, account: Account, addressing: 'pn' | 'lid', phoneContact: unknown): BinaryNode[] {
    switch (protocol) {
      case 'devices':
        return [this.deviceList(account)];
      case 'lid':
        return addressing === 'pn' ? [{ tag: 'lid', attrs: { val: account.jid('lid') } }] : [];
      case 'contact':
        return [{ tag: 'contact', attrs: { type: 'in' }, ...(phoneContact ? { content: phoneContact as Uint8Array } : {}) }];
      case 'status':
        return [{ tag: 'status', attrs: { t: unixSeconds() }, content: Buffer.from(account.status) }];
      case 'disappearing_mode':
        return [{ tag: 'disappearing_mode', attrs: { duration: '0', t: '0' } }];
      default:
        return [];
    }
  }

  /**
   * The phone (device 0) and every linked device that can receive: one that uploaded keys and was not
   * logged out. Companion devices carry their key index, without which clients skip them.
   */
  private deviceList(account: Account): BinaryNode {
    const companions = account.linkedDevices().filter((device) => device.keys);
    const devices: BinaryNode[] = [
      { tag: 'device', attrs: { id: '0' } },
      ...companions.map((device) => ({ tag: 'device', attrs: { id: `${device.id}`, 'key-index': `${device.identity.keyIndex}` } })),
    ];
    const content: BinaryNode[] = [{ tag: 'device-list', attrs: {}, content: devices }];
    if (companions.length) {
      content.push({ tag: 'key-index-list', attrs: { ts: unixSeconds() }, content: this.keyIndexList(account, companions) });
    }
    return { tag: 'devices', attrs: {}, content };
  }

  /** The account's signed list of valid key indexes, signed again only when the device list changed. */
  private keyIndexList(account: Account, companions: LinkedDevice[]): Uint8Array {
    const validIndexes = companions.map((device) => device.identity.keyIndex);
    const indexes = validIndexes.join(',');
    if (account.keyIndexList?.indexes !== indexes) {
      const details = proto.ADVKeyIndexList.encode({
        rawId: 1,
        timestamp: Math.floor(Date.now() / 1000),
        currentIndex: Math.max(...validIndexes),
        validIndexes,
      }).finish();
      const accountSignature = Curve.sign(account.signal.identity.private, details);
      account.keyIndexList = { indexes, node: proto.ADVSignedKeyIndexList.encode({ details, accountSignature }).finish() };
    }
    return account.keyIndexList.node;
  }
}
