import type { Router } from '@koa/router';
import type { Actor } from '../../../domain/actor.js';
import { Invalid, NotSupported } from '../../../domain/errors.js';
import type { NamedStanding } from '../../../domain/instances/instances.ports.js';
import type { AppState } from '../../../http/context.js';
import type { FieldNames } from '../errors.js';
import { recipientOf, chatOf } from '../numbers.js';
import { type EvolutionDeps, operation } from '../operation.js';
import { presentSent } from '../presenters.js';

type Body = Record<string, unknown>;

/** A file as Evolution's bodies give it: a URL, or the bytes as base64 (with or without a data: prefix). */
function mediaOf(value: unknown, mimetype: unknown, fileName: unknown) {
  if (typeof value !== 'string') return value;
  if (/^https?:\/\//i.test(value)) return { url: value };
  const dataUrl = /^data:([^;,]+)(?:;[^,]*)?,(.*)$/s.exec(value);
  const data = dataUrl ? dataUrl[2]! : value;
  return { data, mimetype: typeof mimetype === 'string' ? mimetype : (dataUrl?.[1] ?? mimetype), ...(typeof fileName === 'string' ? { fileName } : {}) };
}

/** The message a reply quotes: Evolution names it by `quoted.key.id`. */
function quotedOf(body: Body) {
  const quoted = body.quoted as { key?: { id?: unknown } } | undefined;
  return quoted?.key?.id !== undefined ? { quotedMessageId: quoted.key.id } : {};
}

function refuseEveryone(instance: NamedStanding, body: Body) {
  if (body.everyOne === true || body.mentionsEveryOne === true) throw new NotSupported(instance.engine, 'mentioning everyone (everyOne)');
}

/** Evolution's `linkPreview: true` asks for a preview where one can be made; the gateway makes none (docs/evolution.md, "Differences"). */
const linkPreviewOf = (body: Body) => (body.linkPreview === undefined || body.linkPreview === true ? {} : { linkPreview: body.linkPreview });

const vcard = (card: Record<string, unknown>) => {
  const lines = ['BEGIN:VCARD', 'VERSION:3.0', `FN:${String(card.fullName ?? '')}`];
  if (typeof card.organization === 'string') lines.push(`ORG:${card.organization};`);
  if (typeof card.email === 'string') lines.push(`EMAIL:${card.email}`);
  if (typeof card.url === 'string') lines.push(`URL:${card.url}`);
  const wuid = typeof card.wuid === 'string' ? card.wuid.replace(/\D/g, '') : String(card.phoneNumber ?? '').replace(/\D/g, '');
  lines.push(`TEL;type=CELL;type=VOICE;waid=${wuid}:${String(card.phoneNumber ?? '')}`, 'END:VCARD');
  return lines.join('\n');
};

/**
 * /message/*: each send as the gateway's send through a named instance (docs/messaging.md), its
 * body translated and its answer in Evolution's shape (docs/evolution.md, "Messages").
 */
export function messageRoutes(router: Router<AppState>, deps: EvolutionDeps) {
  const { messages } = deps.services;

  /** One send kind: the Evolution body's translation and the `message` its answer shows. */
  function send(path: string, names: FieldNames, translate: (body: Body, instance: NamedStanding) => { input: Body; kind: string; message: Body }) {
    operation(router, deps, 'post', path, { named: true, light: true, media: true, names: { to: 'number', ...names } }, async ({ actor, standing: instance, body, idempotencyKey }: { actor: Actor; standing: NamedStanding; body: Body; idempotencyKey: string | undefined }) => {
      const to = recipientOf(body.number);
      const { input, kind, message } = translate(body, instance);
      const sent = await messages.sendThrough(actor, instance.id, { to, ...input }, idempotencyKey);
      return { status: 201, body: presentSent(instance, to, sent, kind, message) };
    });
  }

  send('/message/sendText', { mentions: 'mentioned', quotedMessageId: 'quoted.key.id' }, (body, instance) => {
    refuseEveryone(instance, body);
    return {
      input: { text: body.text, ...(body.mentioned !== undefined ? { mentions: body.mentioned } : {}), ...linkPreviewOf(body), ...quotedOf(body) },
      kind: 'text',
      message: { conversation: body.text },
    };
  });

  send('/message/sendMedia', { media: 'media', 'media.mimetype': 'mimetype', 'media.fileName': 'fileName', mediaType: 'mediatype', quotedMessageId: 'quoted.key.id' }, (body, instance) => {
    refuseEveryone(instance, body);
    const kind = typeof body.mediatype === 'string' ? body.mediatype : 'media';
    return {
      input: { media: mediaOf(body.media, body.mimetype, body.fileName), mediaType: body.mediatype, ...(body.caption !== undefined ? { caption: body.caption } : {}), ...quotedOf(body) },
      kind,
      message: { [`${kind}Message`]: { caption: body.caption, mimetype: body.mimetype, fileName: body.fileName } },
    };
  });

  send('/message/sendWhatsAppAudio', { media: 'audio', 'media.mimetype': 'audio', quotedMessageId: 'quoted.key.id' }, (body) => ({
    // A base64 voice note is taken as Ogg/Opus, the network's own voice format (docs/messaging.md).
    input: { media: mediaOf(body.audio, 'audio/ogg; codecs=opus', undefined), mediaType: 'audio', voice: true, ...quotedOf(body) },
    kind: 'audio',
    message: { audioMessage: { ptt: true } },
  }));

  send('/message/sendSticker', { media: 'sticker', 'media.mimetype': 'sticker', quotedMessageId: 'quoted.key.id' }, (body) => ({
    input: { media: mediaOf(body.sticker, 'image/webp', undefined), mediaType: 'sticker', ...quotedOf(body) },
    kind: 'sticker',
    message: { stickerMessage: {} },
  }));

  send('/message/sendLocation', { 'location.latitude': 'latitude', 'location.longitude': 'longitude', 'location.name': 'name', 'location.address': 'address', quotedMessageId: 'quoted.key.id' }, (body) => ({
    input: { location: { latitude: body.latitude, longitude: body.longitude, ...(body.name !== undefined ? { name: body.name } : {}), ...(body.address !== undefined ? { address: body.address } : {}) }, ...quotedOf(body) },
    kind: 'location',
    message: { locationMessage: { degreesLatitude: body.latitude, degreesLongitude: body.longitude, name: body.name, address: body.address } },
  }));

  send('/message/sendContact', { contacts: 'contact' }, (body) => {
    if (!Array.isArray(body.contact)) throw Invalid.at('contact', 'must be a list of contacts {fullName, phoneNumber, wuid?, organization?, email?, url?}');
    const cards = body.contact.map((card: unknown, index) => {
      const fields = (card && typeof card === 'object' ? card : {}) as Record<string, unknown>;
      if (typeof fields.fullName !== 'string' || fields.fullName === '') throw Invalid.at(`contact.${index}.fullName`, 'is required');
      if (typeof fields.phoneNumber !== 'string') throw Invalid.at(`contact.${index}.phoneNumber`, 'is required');
      return { displayName: fields.fullName, vcard: vcard(fields) };
    });
    return { input: { contacts: cards }, kind: 'contacts', message: cards.length === 1 ? { contactMessage: cards[0] } : { contactsArrayMessage: { contacts: cards } } };
  });

  operation(router, deps, 'post', '/message/sendReaction', { named: true, light: true, names: { to: 'key.remoteJid', 'reaction.messageId': 'key.id', 'reaction.emoji': 'reaction' } }, async ({ actor, standing: instance, body, idempotencyKey }) => {
    const key = (body.key && typeof body.key === 'object' ? body.key : {}) as Record<string, unknown>;
    const to = chatOf(key.remoteJid, 'key.remoteJid');
    const sent = await messages.sendThrough(actor, instance.id, { to, reaction: { messageId: key.id, emoji: body.reaction } }, idempotencyKey);
    return { status: 201, body: presentSent(instance, to, sent, 'reaction', { reactionMessage: { key, text: body.reaction } }) };
  });

  send('/message/sendPoll', { 'poll.name': 'name', 'poll.options': 'values', 'poll.selectableCount': 'selectableCount' }, (body) => {
    const options = Array.isArray(body.values) ? body.values : body.values;
    // Evolution's 0 is "any number of options": as many as there are.
    const count = body.selectableCount === 0 && Array.isArray(options) ? options.length : body.selectableCount;
    return {
      input: { poll: { name: body.name, options, ...(count !== undefined ? { selectableCount: count } : {}) } },
      kind: 'poll',
      message: { pollCreationMessage: { name: body.name, options: Array.isArray(options) ? options.map((optionName) => ({ optionName })) : [], selectableOptionsCount: count ?? 1 } },
    };
  });

  // Interactive lists and buttons: no engine of the gateway carries them (docs/evolution.md).
  for (const [path, what] of [['/message/sendList', 'list messages (sendList)'], ['/message/sendButtons', 'button messages (sendButtons)']] as const) {
    operation(router, deps, 'post', path, { named: true, light: true }, async ({ standing }) => {
      throw new NotSupported(standing.engine, what);
    });
  }
}
