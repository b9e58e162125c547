import type { InboundMediaType, MediaDescriptor } from '../media/media-source.js';

/** The kinds of message the network hands the gateway. */
export type InboundType = 'text' | 'location' | 'contact' | 'reaction' | InboundMediaType;

/** A contact card received (vCard 3.0 as the sender's app made it). */
export interface InboundContact {
  displayName: string;
  vcard: string;
}

/**
 * A message of a chat as the network knows it: what a reply quotes, a reaction or an edit targets.
 * `chat` is the peer's digits or a group id; `participant` the sender's digits in a group (null for
 * our own messages and direct chats); `text` the quoted message's text or caption, when it had one.
 */
export interface MessageRef {
  chat: string;
  networkMessageId: string;
  fromMe: boolean;
  participant: string | null;
  text: string | null;
}

/** The kinds of outbound message (docs/messaging.md); `template` only on engines with the capability. */
export type OutboundKind = 'text' | 'image' | 'video' | 'audio' | 'document' | 'sticker' | 'location' | 'contact' | 'reaction' | 'poll' | 'template';

/** An outbound message as an engine carries it. */
export interface EngineMessage {
  messageId: string;
  /** Phone digits, or a group id (`<digits>@g.us`, `<digits>-<digits>@g.us`). */
  to: string;
  type: OutboundKind;
  text: string | null;
  /** Show typing to the chat before this text (the instance's `sending.typing`, docs/settings.md); absent is no. */
  typing?: boolean;
  /** A template message's template (only engines with the `template` capability carry them). */
  template: MessageTemplate | null;
  /** Media to fetch (under the gateway's URL policy), or null when the file was uploaded (`mediaData`). */
  mediaUrl: string | null;
  /** The content type the media was accepted with (checked again when an engine fetches it). */
  mediaType: string | null;
  /** The bytes of an uploaded file (base64 in the request), read by the dispatcher for the engine. */
  mediaData?: Buffer | null;
  /** The file name a document is shown with (an upload's own, else the URL's last segment). */
  fileName?: string | null;
  /** Audio sent as a voice note (push-to-talk), not as a file. */
  voice?: boolean;
  caption: string | null;
  /** Phones named in the text as `@<digits>`. */
  mentions?: string[];
  /** The message this one replies to. */
  quoted?: MessageRef | null;
  location?: { latitude: number; longitude: number; name?: string; address?: string } | null;
  contacts?: Array<{ displayName: string; vcard: string }> | null;
  /** A reaction to `target`; `emoji: ''` takes ours back. */
  reaction?: { target: MessageRef; emoji: string } | null;
  /** A poll; `secret` is the poll's messageSecret, which its votes are encrypted with. */
  poll?: { name: string; options: string[]; selectableCount: number; secret?: Buffer | null } | null;
}

/** A pre-approved message of the business API, the only kind it sends outside the 24-hour window. */
export interface MessageTemplate {
  name: string;
  language: string;
  components?: unknown[];
}

/** What became of one message handed to an engine. */
export type SendOutcome =
  /** The network took it, under its own id. */
  | { messageId: string; networkMessageId: string }
  /** The network refused it for good (the message fails with this error). */
  | { messageId: string; failed: { code: string; message: string } };

/** An inbound message as an engine reports it. */
export interface InboundMessage {
  /** The network's id of the message: a message reported twice (after a reconnect) is stored once. */
  networkMessageId: string | null;
  /** The sender's phone digits; null when the network gave only a LID (`fromLid`) it knows no number for. */
  from: string | null;
  fromLid?: string | null;
  type: InboundType;
  text: string | null;
  caption?: string | null;
  location: { name?: string; latitude?: number; longitude?: number; address?: string } | null;
  media?: MediaDescriptor | null;
  contacts?: InboundContact[] | null;
  /** A reaction: the emoji ('' takes a reaction back) and the network's id of the message reacted to. */
  reaction?: { emoji: string; networkMessageId: string } | null;
  /** The network's id of the message this one replies to. */
  quotedNetworkId?: string | null;
  /** Phones the text names as `@<digits>`. */
  mentions?: string[] | null;
  /** A group message: the group (its subject as the engine knows it); `from` is then the participant who wrote. */
  group?: { id: string; subject: string | null } | null;
  /** A message to a broadcast list or a status update (an instance's settings may ignore them). */
  chatKind?: 'broadcast' | 'status' | null;
  pushName: string | null;
  /** What a network's message carries that has no field of its own (a business API's button or list reply). */
  content?: Record<string, unknown> | null;
}

/** A receipt for a message this instance sent, by the network's id of it. */
export interface Receipt {
  networkMessageId: string;
  status: 'delivered' | 'read' | 'failed';
  /** Why a `failed` message failed, in the network's words (its code). */
  error?: { code: string; message: string };
}
