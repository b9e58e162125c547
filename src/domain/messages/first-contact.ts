import type { Actor } from '../actor.js';
import { isGroupChat, chatIdOfRecipient } from '../conversations/chat-id.js';
import type { ConversationStore } from '../conversations/conversations.ports.js';
import { DomainError, NotOnNetwork } from '../errors.js';
import type { InstancesService } from '../instances/instances.service.js';
import type { Capability } from '../network/capabilities.js';
import type { Ownership } from '../ownership/ownership.js';
import type { MessageStore } from './messages.ports.js';
import { digits } from '../phone.js';

/**
 * A first message to a number the network does not know is refused before it is stored, 422
 * not_on_network (docs/settings.md, "Sending"): for an instance that limits its new contacts, whose
 * engine checks numbers, to a phone it never exchanged a message with. The answer stays on the contact.
 */
export function createFirstContactCheck(deps: {
  instances: Pick<InstancesService, 'ownedStanding'>;
  messages: Pick<MessageStore, 'newChats'>;
  contacts: Pick<ConversationStore, 'findContact' | 'saveOnNetwork'>;
  ownership: Pick<Ownership, 'perform'>;
  capabilitiesOf: (integration: string) => readonly Capability[];
}) {
  return async function checkFirstContact(actor: Actor, instanceId: string, to: string): Promise<void> {
    const chat = chatIdOfRecipient(to);
    if (chat.includes('@') || isGroupChat(chat)) return;
    const instance = await deps.instances.ownedStanding(actor, instanceId);
    if (!instance.checksNewNumbers || !deps.capabilitiesOf(instance.engine).includes('number_check')) return;
    if (!(await deps.messages.newChats(instance.id, [chat])).has(chat)) return;
    const known = (await deps.contacts.findContact(instance.id, chat))?.onNetwork;
    if (known === true) return;
    if (known === false) throw new NotOnNetwork(`+${chat}`);
    let exists: boolean;
    try {
      const { numbers = [] } = await deps.ownership.perform(instance.id, { kind: 'check_numbers', phones: [chat] });
      exists = numbers.some((entry) => digits(entry.phone) === chat && entry.exists);
    } catch (error) {
      // Not connected now, or the owner did not answer: the message is queued as any other.
      if (error instanceof DomainError) return;
      throw error;
    }
    await deps.contacts.saveOnNetwork(instance, chat, exists);
    if (!exists) throw new NotOnNetwork(`+${chat}`);
  };
}
