import type { Statements } from '../../infra/db/statements.js';
import { DEFAULT_PRIVACY, type OwnProfile, type OwnProfileChange, type PictureSource, type PrivacySettings } from '../../domain/network/own-profile.js';

/** A number's own profile as the sandbox keeps it: a picture as given (a URL, or the bytes). */
export interface StoredOwnProfile {
  name: string | null;
  about: string | null;
  picture: PictureSource | null;
}

const NONE: StoredOwnProfile = { name: null, about: null, picture: null };

/** The latest state of one kind an instance told its own phone (a profile, privacy settings). */
const LATEST = `SELECT state FROM "SandboxSignal" WHERE "from" = $1 AND "to" = $1 AND kind = $2 ORDER BY at DESC, id DESC LIMIT 1`;
/** Per person, the latest block or unblock the number's instances made: its block list. */
const BLOCKS = `SELECT DISTINCT ON (text) text, state FROM "SandboxSignal" WHERE "from" = $1 AND kind = 'block' ORDER BY text, at DESC, id DESC`;

/**
 * A sandbox number's own account (docs/settings.md, "Profile and privacy"): its profile, privacy and
 * block list are what its instances told its phone last (SandboxSignal rows `own_profile`, `privacy`,
 * `block`), so every node reads the same.
 */
export function createSandboxOwnAccount(statements: Statements, publicUrl: string) {
  async function latest<T>(phone: string, kind: 'own_profile' | 'privacy'): Promise<T | null> {
    const [row] = await statements.run<{ state: string | null }>(LATEST, [phone, kind]);
    return row?.state ? (JSON.parse(row.state) as T) : null;
  }

  return {
    async profile(phone: string): Promise<StoredOwnProfile> {
      return (await latest<StoredOwnProfile>(phone, 'own_profile')) ?? NONE;
    },
    /** The profile after `change`, as the next `own_profile` signal records it. */
    changed(current: StoredOwnProfile, change: OwnProfileChange): StoredOwnProfile {
      return {
        name: change.name ?? current.name,
        about: change.about ?? current.about,
        picture: change.picture === undefined ? current.picture : change.picture,
      };
    },
    /** As others see it: a picture given as bytes is served by the control API. */
    shown(phone: string, stored: StoredOwnProfile): OwnProfile {
      const picture = !stored.picture ? null : 'url' in stored.picture ? stored.picture.url : `${publicUrl}/sandbox/phones/${phone}/picture`;
      return { name: stored.name, about: stored.about, picture };
    },
    async privacy(phone: string): Promise<PrivacySettings> {
      return { ...DEFAULT_PRIVACY, ...(await latest<Partial<PrivacySettings>>(phone, 'privacy')) };
    },
    async blocked(phone: string): Promise<string[]> {
      const rows = await statements.run<{ text: string; state: string }>(BLOCKS, [phone]);
      return rows.filter((row) => row.state === 'blocked').map((row) => row.text);
    },
  };
}

export type SandboxOwnAccount = ReturnType<typeof createSandboxOwnAccount>;
