import { isLidUser, jidNormalizedUser, type WASocket } from 'baileys';
import type { SessionActions } from '../../domain/network/engine.port.js';
import { PRIVACY_VALUES, type OwnProfile, type PrivacyKey, type PrivacySettings } from '../../domain/network/own-profile.js';
import type { ActionSession } from './actions.js';
import { userJidDigits } from './message-refs.js';
import { onTheNetwork } from './on-the-network.js';
import { isNoPicture } from './no-picture.js';

/** Each privacy setting's name on the network (its `category`). */
const CATEGORY: Record<PrivacyKey, string> = { lastSeen: 'last', online: 'online', picture: 'profile', about: 'status', readReceipts: 'readreceipts', groupsAdd: 'groupadd' };

/** The library's call that sets each (the values are the network's, checked by the domain). */
const setter = (sock: WASocket, key: PrivacyKey) =>
  ({
    lastSeen: sock.updateLastSeenPrivacy,
    online: sock.updateOnlinePrivacy,
    picture: sock.updateProfilePicturePrivacy,
    about: sock.updateStatusPrivacy,
    readReceipts: sock.updateReadReceiptsPrivacy,
    groupsAdd: sock.updateGroupsAddPrivacy,
  })[key] as (value: string) => Promise<void>;


/**
 * The instance's own account on the network (docs/settings.md, "Profile and privacy"): its push name
 * (an app-state setting), about text and picture, privacy settings and block list. `picture` fetches
 * a picture given by URL under the gateway's URL policy.
 */
export function baileysOwnAccount(sessionOf: () => ActionSession, picture: (url: string) => Promise<Buffer>): Pick<SessionActions, 'ownProfile' | 'privacy' | 'blocklist'> {
  const own = (sock: WASocket) => jidNormalizedUser(sock.user!.id);

  /** `named`: a name the network just took (the library's own copy of it follows a moment later). */
  async function read(sock: WASocket, named?: string): Promise<OwnProfile> {
    const jid = own(sock);
    const [url, statuses] = await Promise.all([
      sock.profilePictureUrl(jid, 'image').catch((error: unknown) => {
        if (isNoPicture(error)) return undefined;
        throw error;
      }),
      sock.fetchStatus(jid),
    ]);
    const status = (statuses?.[0] as { status?: { status?: string | null } } | undefined)?.status?.status;
    return { name: named ?? (sock.authState.creds.me?.name || null), about: typeof status === 'string' && status ? status : null, picture: url ?? null };
  }

  return {
    async ownProfile(change) {
      const { sock } = sessionOf();
      if (change?.name !== undefined) await onTheNetwork('take the name', () => sock.updateProfileName(change.name!));
      if (change?.about !== undefined) await onTheNetwork('take the about text', () => sock.updateProfileStatus(change.about!));
      if (change?.picture === null) await onTheNetwork('remove the picture', () => sock.removeProfilePicture(own(sock)));
      else if (change?.picture) {
        const bytes = 'url' in change.picture ? await picture(change.picture.url) : Buffer.from(change.picture.data, 'base64');
        // The library makes the network's 640×640 JPEG of it.
        await onTheNetwork('take the picture', () => sock.updateProfilePicture(own(sock), bytes));
      }
      return onTheNetwork('answer the profile', () => read(sock, change?.name));
    },

    async privacy(change) {
      const { sock } = sessionOf();
      for (const [key, value] of Object.entries(change ?? {}) as Array<[PrivacyKey, string]>) {
        await onTheNetwork(`take the privacy setting ${key}`, () => setter(sock, key)(value));
      }
      const categories = await onTheNetwork('answer the privacy settings', () => sock.fetchPrivacySettings(true));
      const settings: Partial<Record<PrivacyKey, string>> = {};
      for (const key of Object.keys(CATEGORY) as PrivacyKey[]) {
        const value = categories[CATEGORY[key]];
        if (value !== undefined && (PRIVACY_VALUES[key] as readonly string[]).includes(value)) settings[key] = value;
      }
      return settings as Partial<PrivacySettings>;
    },

    async blocklist() {
      const { sock } = sessionOf();
      const jids = (await onTheNetwork('answer the block list', () => sock.fetchBlocklist())).filter((jid): jid is string => Boolean(jid));
      // The list names people by LID; the phone of each is known from the block (or a chat) with them.
      const phones = await Promise.all(jids.map(async (jid) => userJidDigits(isLidUser(jid) ? await sock.signalRepository.lidMapping.getPNForLID(jid) : jid)));
      return phones.filter((phone): phone is string => phone !== null);
    },
  };
}
