import { randomBytes } from 'node:crypto';
import { normalizeMessageContent, proto, type MediaType } from 'baileys';
import { badRequest } from '../errors.js';
import { encryptMedia } from './media-crypto.js';
import type { InboundContent, PhoneMedia, PhoneMessage, PhoneMessageType } from '../types.js';

/** The fields of a phone message that come from its content alone (no download yet). */
export type DescribedContent = Pick<
  PhoneMessage,
  'type' | 'text' | 'caption' | 'mimetype' | 'fileName' | 'voice' | 'seconds' | 'location' | 'contact' | 'contacts' | 'reaction' | 'poll' | 'quoted'
> & { media: MediaReference | null; mentionedJids: string[] };

export interface MediaReference {
  mediaType: MediaType;
  mediaKey: Uint8Array;
  directPath: string | null;
  url: string | null;
  fileSha256: Uint8Array | null;
  fileEncSha256: Uint8Array | null;
}

type MediaMessage = proto.Message.IImageMessage &
  proto.Message.IVideoMessage &
  proto.Message.IAudioMessage &
  proto.Message.IDocumentMessage &
  proto.Message.IStickerMessage;

const MEDIA_FIELDS = [
  ['imageMessage', 'image', 'image'],
  ['videoMessage', 'video', 'video'],
  ['ptvMessage', 'video', 'video'],
  ['audioMessage', 'audio', 'audio'],
  ['documentMessage', 'document', 'document'],
  ['stickerMessage', 'sticker', 'sticker'],
] as const satisfies readonly (readonly [keyof proto.IMessage, PhoneMessageType, MediaType])[];

/** What a message is about, read the way a phone renders it (wrappers like ephemeral/view-once removed). */
export function describeContent(message: proto.IMessage): DescribedContent {
  const content = normalizeMessageContent(message) ?? {};
  const described: DescribedContent = {
    type: 'other',
    text: null,
    caption: null,
    mimetype: null,
    fileName: null,
    voice: false,
    seconds: null,
    location: null,
    contact: null,
    contacts: null,
    reaction: null,
    poll: null,
    quoted: null,
    media: null,
    mentionedJids: [],
  };
  let context: proto.IContextInfo | null | undefined;
  if (content.conversation != null) {
    described.type = 'text';
    described.text = content.conversation;
  } else if (content.extendedTextMessage) {
    described.type = 'text';
    described.text = content.extendedTextMessage.text ?? '';
    context = content.extendedTextMessage.contextInfo;
  } else if (content.locationMessage || content.liveLocationMessage) {
    const location = content.locationMessage ?? content.liveLocationMessage!;
    described.type = 'location';
    described.location = {
      latitude: location.degreesLatitude ?? 0,
      longitude: location.degreesLongitude ?? 0,
      name: content.locationMessage?.name ?? null,
      address: content.locationMessage?.address ?? null,
    };
    context = location.contextInfo;
  } else if (content.contactMessage) {
    described.type = 'contact';
    described.contact = { displayName: content.contactMessage.displayName ?? '', vcard: content.contactMessage.vcard ?? '' };
    described.contacts = [described.contact];
    context = content.contactMessage.contextInfo;
  } else if (content.contactsArrayMessage) {
    described.type = 'contacts';
    described.contacts = (content.contactsArrayMessage.contacts ?? []).map((card) => ({ displayName: card.displayName ?? '', vcard: card.vcard ?? '' }));
    context = content.contactsArrayMessage.contextInfo;
  } else if (pollOf(content)) {
    const poll = pollOf(content)!;
    const secret = content.messageContextInfo?.messageSecret;
    described.type = 'poll';
    described.poll = {
      name: poll.name ?? '',
      options: (poll.options ?? []).map((option) => option.optionName ?? ''),
      selectableCount: poll.selectableOptionsCount ?? 0,
      secret: secret?.length ? Buffer.from(secret).toString('base64') : null,
    };
    context = poll.contextInfo;
  } else if (content.reactionMessage) {
    described.type = 'reaction';
    described.reaction = { messageId: content.reactionMessage.key?.id ?? '', emoji: content.reactionMessage.text ?? '' };
  } else {
    for (const [field, type, mediaType] of MEDIA_FIELDS) {
      const media = content[field] as MediaMessage | null | undefined;
      if (!media) continue;
      described.type = type;
      described.caption = media.caption ?? null;
      described.mimetype = media.mimetype ?? null;
      described.fileName = media.fileName ?? null;
      described.voice = field === 'audioMessage' && !!media.ptt;
      described.seconds = media.seconds ?? null;
      context = media.contextInfo;
      described.media = media.mediaKey?.length
        ? {
            mediaType,
            mediaKey: media.mediaKey,
            directPath: media.directPath ?? null,
            url: media.url ?? null,
            fileSha256: media.fileSha256 ?? null,
            fileEncSha256: media.fileEncSha256 ?? null,
          }
        : null;
      break;
    }
  }
  if (context?.stanzaId) described.quoted = { messageId: context.stanzaId, participant: context.participant ?? null };
  described.mentionedJids = context?.mentionedJid ?? [];
  return described;
}

/** A poll in any of its versions (V3 single choice, V1 multiple, V2 for announcement groups). */
export function pollOf(content: proto.IMessage): proto.Message.IPollCreationMessage | null | undefined {
  return content.pollCreationMessageV3 ?? content.pollCreationMessage ?? content.pollCreationMessageV2;
}

/** A revoke or an edit of an earlier message, which changes that message instead of being one. */
export type MessageChange = { kind: 'revoke'; messageId: string } | { kind: 'edit'; messageId: string; message: proto.IMessage };

export function changeOf(message: proto.IMessage): MessageChange | undefined {
  const protocol = normalizeMessageContent(message)?.protocolMessage;
  if (!protocol?.key?.id) return undefined;
  if (protocol.type === proto.Message.ProtocolMessage.Type.REVOKE) return { kind: 'revoke', messageId: protocol.key.id };
  if (protocol.type === proto.Message.ProtocolMessage.Type.MESSAGE_EDIT && protocol.editedMessage) {
    return { kind: 'edit', messageId: protocol.key.id, message: protocol.editedMessage };
  }
  return undefined;
}

/** Only content a person sees becomes an inbox entry (not protocol or key-distribution messages). */
export function isVisible(message: proto.IMessage): boolean {
  const content = normalizeMessageContent(message);
  if (!content) return false;
  return Object.entries(content).some(
    ([field, value]) =>
      value != null &&
      field !== 'messageContextInfo' &&
      field !== 'protocolMessage' &&
      field !== 'senderKeyDistributionMessage' &&
      field !== 'deviceSentMessage',
  );
}

/** The message a reply quotes: its id, its author's jid and its content. */
export interface QuotedMessage {
  id: string;
  participant: string;
  message: proto.IMessage;
}

const MEDIA_SEND_TYPES = {
  image: ['imageMessage', 'image'],
  video: ['videoMessage', 'video'],
  audio: ['audioMessage', 'audio'],
  document: ['documentMessage', 'document'],
  sticker: ['stickerMessage', 'sticker'],
} as const;

/** Where a phone's media goes before its message is sent: the network's media host. */
export interface MediaUploads {
  put(encrypted: Buffer): { directPath: string; url: string };
  expire(urlOrPath: string): boolean;
}

/** The message a phone sends for `content`; media is encrypted and put on the media host first. */
export async function buildMessage(
  content: InboundContent,
  media: MediaUploads,
  extras: { quoted?: QuotedMessage; reactionKey?: proto.IMessageKey; mentionedJids?: string[] },
): Promise<{ message: proto.IMessage; mediaUrl?: string }> {
  const mentions = extras.mentionedJids?.length ? { mentionedJid: extras.mentionedJids } : undefined;
  const contextInfo: proto.IContextInfo | undefined =
    extras.quoted || mentions
      ? {
          ...(extras.quoted && { stanzaId: extras.quoted.id, participant: extras.quoted.participant, quotedMessage: extras.quoted.message }),
          ...mentions,
        }
      : undefined;
  if ('text' in content) {
    return {
      message: contextInfo ? { extendedTextMessage: { text: content.text, contextInfo } } : { conversation: content.text },
    };
  }
  if ('location' in content) {
    const { latitude, longitude, name, address } = content.location;
    return { message: { locationMessage: { degreesLatitude: latitude, degreesLongitude: longitude, name, address, contextInfo } } };
  }
  if ('contact' in content) {
    return { message: { contactMessage: { displayName: content.contact.displayName, vcard: content.contact.vcard, contextInfo } } };
  }
  if ('contacts' in content) {
    if (!content.contacts.length) throw badRequest('invalid_content', 'contacts needs at least one card');
    const displayName = content.contacts.length === 1 ? content.contacts[0]!.displayName : `${content.contacts.length} contacts`;
    return { message: { contactsArrayMessage: { displayName, contacts: content.contacts, contextInfo } } };
  }
  if ('poll' in content) {
    const { name, options, selectableCount = 0 } = content.poll;
    if (options.length < 2 || selectableCount < 0 || selectableCount > options.length) {
      throw badRequest('invalid_content', 'a poll needs at least two options and a selectable count between 0 and their number');
    }
    const poll = { name, options: options.map((optionName) => ({ optionName })), selectableOptionsCount: selectableCount, contextInfo };
    // As clients send them: V3 for single choice, V1 otherwise; the secret is what votes are encrypted with.
    return {
      message: {
        messageContextInfo: { messageSecret: randomBytes(32) },
        ...(selectableCount === 1 ? { pollCreationMessageV3: poll } : { pollCreationMessage: poll }),
      },
    };
  }
  if ('reaction' in content) {
    if (!extras.reactionKey) throw badRequest('unknown_message', `no message ${content.reaction.messageId} to react to`);
    return {
      message: {
        reactionMessage: { key: extras.reactionKey, text: content.reaction.emoji, senderTimestampMs: Date.now() },
      },
    };
  }
  for (const [kind, [field, mediaType]] of Object.entries(MEDIA_SEND_TYPES)) {
    const item = (content as Record<string, PhoneMedia | undefined>)[kind];
    if (!item) continue;
    const encrypted = await encryptMedia(item.bytes, mediaType);
    const stored = Buffer.from(encrypted.encrypted);
    if (item.corrupt) stored[Math.floor(stored.length / 2)]! ^= 0x01;
    const { url, directPath } = media.put(stored);
    if (item.expired) media.expire(directPath);
    const mediaMessage: MediaMessage = {
      url: item.forged && 'url' in item.forged ? item.forged.url : url,
      directPath: item.forged && 'directPath' in item.forged ? item.forged.directPath : directPath,
      mediaKey: encrypted.mediaKey,
      mediaKeyTimestamp: Math.floor(Date.now() / 1000),
      fileSha256: encrypted.fileSha256,
      fileEncSha256: encrypted.fileEncSha256,
      fileLength: item.forged?.fileLength ?? encrypted.fileLength,
      mimetype: item.mimetype,
      contextInfo,
    };
    if (kind !== 'audio' && kind !== 'sticker' && item.caption != null) mediaMessage.caption = item.caption;
    if (kind === 'document') mediaMessage.fileName = item.fileName ?? 'file';
    if (kind === 'audio') {
      mediaMessage.ptt = item.ptt ?? false;
      if (item.seconds != null) mediaMessage.seconds = item.seconds;
    }
    if (kind === 'video' && item.seconds != null) mediaMessage.seconds = item.seconds;
    return { message: { [field]: mediaMessage }, mediaUrl: url };
  }
  throw badRequest('invalid_content', 'content must be one of text, location, image, video, audio, document, sticker, contact, contacts, reaction, poll');
}

/** The stanza `type` and the `mediatype` the enc node carries, as clients set them. */
export function stanzaTypes(message: proto.IMessage): { type: string; mediatype?: string } {
  const content = normalizeMessageContent(message) ?? {};
  if (content.reactionMessage) return { type: 'reaction' };
  if (content.imageMessage) return { type: 'media', mediatype: 'image' };
  if (content.videoMessage) return { type: 'media', mediatype: content.videoMessage.gifPlayback ? 'gif' : 'video' };
  if (content.audioMessage) return { type: 'media', mediatype: content.audioMessage.ptt ? 'ptt' : 'audio' };
  if (content.documentMessage) return { type: 'media', mediatype: 'document' };
  if (content.stickerMessage) return { type: 'media', mediatype: 'sticker' };
  if (content.contactMessage) return { type: 'media', mediatype: 'vcard' };
  if (content.contactsArrayMessage) return { type: 'media', mediatype: 'contact_array' };
  if (pollOf(content) || content.pollUpdateMessage) return { type: 'poll' };
  if (content.locationMessage) return { type: 'media', mediatype: 'location' };
  return { type: 'text' };
}
