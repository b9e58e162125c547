import type { Capability } from '../network/capabilities.js';
import type { MessageRef } from '../network/engine-messages.js';
import type { InstanceRecord } from '../instances/instances.ports.js';
import { Conflict, Invalid, NotFound, NotSupported } from '../errors.js';
import type { JsonValue, MessageRecord, NewOutboundMessage } from './messages.ports.js';
import { GROUP_ID, type SendKindsInput } from './send-kinds.input.js';

/** The capabilities a send needs of its instance's engine, checked before anything is stored. */
export function capabilitiesNeeded(input: SendKindsInput): Capability[] {
  const needs: Capability[] = [];
  if (input.text !== undefined) needs.push('text');
  if (input.mentions?.length) needs.push('mentions');
  if (input.media !== undefined) needs.push(input.mediaType === 'sticker' ? 'sticker' : 'media');
  if (input.voice) needs.push('voice');
  for (const kind of ['location', 'contacts', 'reaction', 'poll', 'template'] as const) if (input[kind] !== undefined) needs.push(kind);
  if (input.quotedMessageId !== undefined) needs.push('reply');
  if (GROUP_ID.test(input.to)) needs.push('groups');
  return needs;
}

export function requireCapabilities(integration: string, has: readonly Capability[], needs: readonly Capability[]) {
  const missing = needs.find((capability) => !has.includes(capability));
  if (missing) throw new NotSupported(integration, missing);
}

/** The chat a message belongs to, as the network names it: the peer's digits (or LID), or the group. */
export function chatOf(message: MessageRecord): string {
  const group = message.group as { id: string } | null;
  if (group) return group.id;
  if (message.direction === 'out') return message.to;
  return message.from ?? `${message.fromLid}@lid`;
}

/** A stored message as the network knows it, for an action or a reference to it. */
export function refOf(message: MessageRecord): MessageRef {
  if (!message.networkMessageId) {
    throw new Conflict('message_not_sent', 'The message has not reached the network yet (it is queued or failed); act on it once it is sent.');
  }
  const group = message.group as { id: string } | null;
  return {
    chat: chatOf(message),
    networkMessageId: message.networkMessageId,
    fromMe: message.direction === 'out',
    participant: group && message.direction === 'in' ? message.from : null,
    text: message.text ?? message.caption,
  };
}

/**
 * A message a send names (the one it replies to or reacts to): a message of this instance (another
 * instance's or tenant's is 404), in the chat the send goes to, already on the network.
 */
export async function targetOf(find: (id: string) => Promise<MessageRecord | null>, instance: Pick<InstanceRecord, 'id'>, to: string, id: string, field: string) {
  const message = await find(id);
  if (!message || message.instanceId !== instance.id) throw new NotFound('Message');
  if (chatOf(message) !== to) throw Invalid.at(field, `names a message of another chat (${chatOf(message)}), not of ${to}`);
  const ref = refOf(message);
  return { messageId: message.id, networkMessageId: ref.networkMessageId, ref: { ...ref } as unknown as JsonValue };
}

/** The kind-specific fields of an outbound message, beside its text and media. */
export type KindFields = Pick<NewOutboundMessage, 'mentions' | 'location' | 'contacts' | 'reaction' | 'quoted' | 'poll'>;

/** A poll as stored: the question and options, each with its votes (none yet). */
export function newPoll(poll: NonNullable<SendKindsInput['poll']>) {
  return { name: poll.name, selectableCount: poll.selectableCount ?? 1, options: poll.options.map((name) => ({ name, votes: 0, voters: [] as string[] })) };
}
