import { randomInt } from 'node:crypto';
import type { RouterMiddleware } from '@koa/router';
import { z } from 'zod';
import { NotFound } from '../../domain/errors.js';
import { writtenPhone } from '../../domain/phone.js';
import type { InboundMediaType, MediaDescriptor } from '../../domain/media/media-source.js';
import { contactsUpdateEvent, groupsUpsertEvent, groupUpdateEvent, presenceUpdateEvent } from '../../domain/events/network-payloads.js';
import { parseInput } from '../../domain/validation.js';
import type { SandboxNetwork } from './engine.js';
import type { PhoneInbox } from './inbox.js';
import { callInput, contactChangeInput, deleteInput, endCallInput, GROUP_ID, groupChangeInput, groupInput, inboundInput, pairInput, presenceInput, readInput, scanInput } from './control-inputs.js';
import { controlOperations as op } from './control-operations.js';
import { type AppState, ok } from '../../http/context.js';
import { jsonBody } from '../../http/json-body.js';
import type { HttpRoute, Operation } from '../../http/operation.js';

/** docs/rest.md, "Sandbox control API": the control API of the simulated network, mounted only when ENGINES offers the sandbox. */
export function sandboxRoutes(sandbox: SandboxNetwork, inbox: PhoneInbox): HttpRoute[] {
  const routes: HttpRoute[] = [];
  const on = (operation: Operation, ...handlers: RouterMiddleware<AppState>[]) => routes.push({ operation, handlers });
  const { control } = sandbox;

  on(op.scan, jsonBody, async (ctx) => {
    const { code, phone } = parseInput(scanInput, ctx.state.body);
    ctx.body = ok(await control.scan(code, phone));
  });
  on(op.pair, jsonBody, async (ctx) => {
    const { code, phone } = parseInput(pairInput, ctx.state.body);
    ctx.body = ok(await control.pair(code, phone));
  });
  on(op.inbound, jsonBody, async (ctx) => {
    const data = parseInput(inboundInput, ctx.state.body);
    if (data.type === 'edit') {
      ctx.body = ok(await control.edit(data.from, `+${data.to}`, data.edit!.messageId, data.edit!.text));
      return;
    }
    if (data.type === 'poll_vote') {
      ctx.body = ok(await control.pollVote(data.from, `+${data.to}`, data.pollVote!.messageId, data.pollVote!.options, data.group ?? undefined));
      return;
    }
    // Checked before a file is kept: a refused group message leaves nothing behind.
    const group = data.group ? await control.groupOf(data.group, data.from, `+${data.to}`) : null;
    let media: MediaDescriptor | null = null;
    if (data.media) {
      const bytes = Buffer.from(data.media.data, 'base64');
      const kept = await control.keepMedia(bytes, data.media.mimetype);
      media = {
        type: data.type as InboundMediaType,
        mimetype: data.media.mimetype,
        size: bytes.length,
        fileName: data.media.fileName ?? null,
        ...(data.type === 'audio' ? { voice: data.voice === true } : {}),
        source: kept,
      };
    }
    const result = await control.inbound(`+${data.to}`, {
      networkMessageId: null,
      from: data.from,
      type: data.type,
      text: data.text ?? null,
      caption: data.caption ?? null,
      location: data.location ?? null,
      media,
      contacts: data.contacts ?? null,
      // The sandbox network knows a message by the gateway's own id.
      reaction: data.reaction ? { emoji: data.reaction.emoji, networkMessageId: data.reaction.messageId } : null,
      quotedNetworkId: data.quotedMessageId ?? null,
      mentions: data.mentions ?? null,
      group,
      pushName: data.pushName ?? null,
    });
    ctx.body = ok('held' in result ? { held: true, message: 'The instance is offline; the network holds the message until it is connected again.' } : result);
  });
  on(op.phoneMessages, async (ctx) => {
    const number = parseInput(writtenPhone, ctx.params.number);
    ctx.body = ok(await inbox.received(number));
  });
  on(op.phonePresence, async (ctx) => {
    const number = parseInput(writtenPhone, ctx.params.number);
    ctx.body = ok(await inbox.presence(number));
  });
  on(op.phoneReads, async (ctx) => {
    const number = parseInput(writtenPhone, ctx.params.number);
    ctx.body = ok(await inbox.reads(number));
  });
  on(op.phoneRead, jsonBody, async (ctx) => {
    const number = parseInput(writtenPhone, ctx.params.number);
    const { messageId } = parseInput(readInput, ctx.state.body);
    if (!(await inbox.has(number, messageId))) throw new NotFound('Message on that phone');
    await control.read(messageId);
    ctx.body = ok({ messageId, status: 'read' });
  });
  on(op.deleteMessage, jsonBody, async (ctx) => {
    const { forEveryone, deletedBy } = parseInput(deleteInput, ctx.state.body);
    const messageId = ctx.params.messageId!;
    await control.deleted(messageId, deletedBy ?? (await inbox.senderOf(messageId)), forEveryone);
    ctx.body = ok({ messageId, forEveryone });
  });
  on(op.expireMedia, async (ctx) => {
    await control.expireMedia(ctx.params.messageId!);
    ctx.body = ok({ messageId: ctx.params.messageId, expired: true });
  });
  // Session-variant events, one endpoint per kind: what a real network tells a linked device.
  on(op.raiseGroup, jsonBody, async (ctx) => {
    const body = parseInput(groupInput, ctx.state.body);
    const id = `120363${randomInt(1e9, 1e10)}${randomInt(1e5, 1e6)}@g.us`;
    const owner = body.owner ?? body.participants[0]!;
    const members = [...new Set([owner, ...body.participants])];
    const group = {
      id,
      subject: body.subject,
      description: body.description ?? null,
      owner: { phone: owner },
      participants: members.map((phone) => ({ phone, admin: phone === owner ? ('superadmin' as const) : null })),
      createdAt: new Date().toISOString(),
    };
    const raised = groupsUpsertEvent([group]);
    await control.raise(ctx.params.instanceId!, raised);
    ctx.body = ok({ event: raised.event, group });
  });
  on(op.changeGroup, jsonBody, async (ctx) => {
    const groupId = parseInput(z.string().regex(GROUP_ID, 'must be a group id like 120363012345678901@g.us'), ctx.params.groupId);
    const { author, participants, ...fields } = parseInput(groupChangeInput, ctx.state.body);
    const change = {
      id: groupId,
      author: author ? { phone: author } : null,
      ...fields,
      ...(participants ? { participants: { action: participants.action, members: participants.phones.map((phone) => ({ phone })) } } : {}),
    };
    const raised = groupUpdateEvent(change);
    await control.raise(ctx.params.instanceId!, raised);
    ctx.body = ok({ event: raised.event, change });
  });
  on(op.changeContact, jsonBody, async (ctx) => {
    const contact = parseInput(contactChangeInput, ctx.state.body);
    const raised = contactsUpdateEvent([contact]);
    await control.raise(ctx.params.instanceId!, raised);
    ctx.body = ok({ event: raised.event, contact });
  });
  on(op.raisePresence, jsonBody, async (ctx) => {
    const { lastSeen, ...rest } = parseInput(presenceInput, ctx.state.body);
    const presence = { ...rest, lastSeen: lastSeen ?? null };
    const raised = presenceUpdateEvent(presence);
    await control.raise(ctx.params.instanceId!, raised);
    ctx.body = ok({ event: raised.event, presence });
  });
  on(op.placeCall, jsonBody, async (ctx) => {
    const { from, to, video } = parseInput(callInput, ctx.state.body);
    ctx.status = 201;
    ctx.body = ok(await control.placeCall(from, to, video));
  });
  on(op.endCall, jsonBody, async (ctx) => {
    const { outcome } = parseInput(endCallInput, ctx.state.body);
    ctx.body = ok(await control.endCall(ctx.params.callId!, outcome));
  });
  on(op.phoneCalls, async (ctx) => {
    ctx.body = ok(control.callsPlacedBy(parseInput(writtenPhone, ctx.params.number)));
  });
  on(op.drop, async (ctx) => {
    await control.drop(ctx.params.instanceId!);
    ctx.body = ok({ instanceId: ctx.params.instanceId, status: 'dropped' });
  });
  on(op.ban, async (ctx) => {
    await control.ban(ctx.params.instanceId!);
    ctx.body = ok({ instanceId: ctx.params.instanceId, status: 'banned' });
  });
  return routes;
}
