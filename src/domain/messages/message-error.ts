import type { JsonValue } from './message-values.js';

/**
 * Why a message failed, for a program to act on: `code` is stable (the API's own code on
 * CHAT-CLOUD, e.g. "131047" for a closed 24-hour window; the gateway's codes below elsewhere),
 * `message` is for people. docs/rest.md lists the codes.
 */
export type MessageError = { code: string; message: string };

/** The gateway's own codes, whatever the engine. */
export const GATEWAY_ERRORS = {
  /** Queued for 24 hours without a connected instance to carry it. */
  expired: { code: 'expired', message: 'No connected instance carried the message within 24 hours.' },
  /** A template routed to an instance whose engine has no templates. */
  templateUnsupported: { code: 'template_unsupported', message: 'Only CHAT-CLOUD instances send template messages.' },
} as const satisfies Record<string, MessageError>;

/** The error stored with a message, as answers and events show it (null unless it failed). */
export function messageErrorOf(stored: JsonValue): MessageError | null {
  if (typeof stored === 'string') {
    // Written before errors had a code: "<code>: <message>", or a bare message.
    const match = /^([A-Za-z0-9_]+): (.*)$/s.exec(stored);
    return match ? { code: match[1]!, message: match[2]! } : { code: 'failed', message: stored };
  }
  if (stored && typeof stored === 'object' && !Array.isArray(stored) && typeof stored.code === 'string') {
    return { code: stored.code, message: typeof stored.message === 'string' ? stored.message : '' };
  }
  return null;
}
