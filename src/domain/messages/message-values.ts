/** Closed sets of message values, written once; zod schemas, GraphQL enums and types derive from them. */
export const MESSAGE_STATUSES = ['queued', 'sent', 'delivered', 'read', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const MESSAGE_MODES = ['test', 'production'] as const;
export type MessageMode = (typeof MESSAGE_MODES)[number];

export const MESSAGE_DIRECTIONS = ['in', 'out'] as const;
export type MessageDirection = (typeof MESSAGE_DIRECTIONS)[number];

/** What send-media takes (spec 4.3). */
export const MEDIA_TYPES = ['image', 'video', 'audio', 'document'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** What a message carries: text, a media kind, or (received only) a location. */
export const MESSAGE_TYPES = ['text', ...MEDIA_TYPES, 'sticker', 'location', 'contact', 'reaction', 'poll', 'template'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/** A value stored as JSON (a message's location). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key in string]?: JsonValue };
