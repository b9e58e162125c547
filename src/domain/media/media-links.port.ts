/**
 * Links to a message's media that work without a key, for a while (docs/media.md, "Signed links"):
 * an HMAC-signed path of the gateway's own, never a public object.
 */
export interface MediaLinks {
  /** The message's media link, valid until `expiresAt` (MEDIA_LINK_TTL from now). */
  linkFor(messageId: string): { url: string; expiresAt: string };
  /** Whether `signature` signs this message id until `expires` (unix seconds), and that time has not passed. */
  verify(messageId: string, expires: number, signature: string): boolean;
}
