/**
 * The instance's own account as others see it (docs/settings.md, "Profile and privacy"): its name,
 * about text and picture, and who may see what of it.
 */
export interface OwnProfile {
  name: string | null;
  about: string | null;
  /** Where the picture can be fetched, as the network answers it; null when there is none. */
  picture: string | null;
}

/** A picture to set: a URL the engine fetches under the outbound URL policy, or the bytes as base64. */
export type PictureSource = { url: string } | { data: string; mimetype: string };

/** Each field given replaces that part of the profile; a null picture removes it. */
export interface OwnProfileChange {
  name?: string;
  about?: string;
  picture?: PictureSource | null;
}

/**
 * The privacy settings and the values each takes, as the network names them (`contact_blacklist`:
 * the contacts except those excluded on the phone; `match_last_seen`: as lastSeen).
 */
export const PRIVACY_VALUES = {
  lastSeen: ['all', 'contacts', 'contact_blacklist', 'none'],
  online: ['all', 'match_last_seen'],
  picture: ['all', 'contacts', 'contact_blacklist', 'none'],
  about: ['all', 'contacts', 'contact_blacklist', 'none'],
  readReceipts: ['all', 'none'],
  groupsAdd: ['all', 'contacts', 'contact_blacklist'],
} as const;

export type PrivacyKey = keyof typeof PRIVACY_VALUES;
export type PrivacySettings = { [K in PrivacyKey]: (typeof PRIVACY_VALUES)[K][number] };
export const PRIVACY_KEYS = Object.keys(PRIVACY_VALUES) as PrivacyKey[];

/** A fresh account's privacy: everyone sees everything. */
export const DEFAULT_PRIVACY: PrivacySettings = { lastSeen: 'all', online: 'all', picture: 'all', about: 'all', readReceipts: 'all', groupsAdd: 'all' };
