/** The largest file a message carries, sent (by URL or base64) or received (docs/messaging.md). */
export const MAX_MEDIA_BYTES = 16 * 1024 * 1024;

/**
 * The largest JSON body of a send that may carry a file as base64 (docs/rest.md, "Limits"): that file's
 * base64 (4 bytes per 3), plus 1 MiB for the other fields and JSON escapes (`\/`) inside the base64.
 */
export const MAX_MEDIA_BODY_BYTES = Math.ceil(MAX_MEDIA_BYTES / 3) * 4 + 1024 * 1024;
