import type { InboundMessage } from '../network/engine-messages.js';

/** What a network's message says, as a stored message keeps it: received live or from the phone's history. */
export function inboundContent(message: InboundMessage) {
  return {
    type: message.type,
    text: message.text,
    caption: message.caption ?? null,
    location: message.location,
    media: message.media ?? null,
    contacts: message.contacts ?? null,
    mentions: message.mentions?.length ? message.mentions : null,
    group: message.group ?? null,
    content: message.content ?? null,
  };
}
