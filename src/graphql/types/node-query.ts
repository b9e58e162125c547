import { builder } from '../builder.js';
import { isUuid } from '../../infra/db/prisma-errors.js';
import { ownedBy } from '../../infra/db/list-scopes.js';
import { Invalid, NotFound } from '../../domain/errors.js';
import { asNode, NodeInterface } from './nodes.js';
import { chatView, contactView, parseConversationId } from '../conversation-ids.js';
import { found } from '../conversation-pages.js';
import type { GraphQLContext } from '../context.js';

/** An id is opaque to its reader: one naming a malformed chat or phone is as absent as an unknown one. */
const notFoundIfInvalid = (error: unknown): never => {
  throw error instanceof Invalid ? new NotFound('Node') : error;
};

/** A chat or contact by its Node id; another tenant's, or one the instance does not have, is not found. */
async function conversationNode(ctx: GraphQLContext, id: string) {
  const named = parseConversationId(id);
  if (!named) return null;
  const actor = await ctx.actor();
  const conversations = ctx.services.conversations;
  if (named.type === 'chat') return chatView(await found(conversations.chat(actor, named.instanceId, named.id), 'Node').catch(notFoundIfInvalid));
  // A contact known by LID alone cannot be asked for by phone.
  if (named.id.includes('@')) throw new NotFound('Node');
  return contactView(await found(conversations.contact(actor, named.instanceId, named.id), 'Node').catch(notFoundIfInvalid));
}

builder.queryField('node', (t) =>
  t.field({
    type: NodeInterface,
    nullable: true,
    description: "Any instance, message, API key, webhook delivery, chat or contact of the tenant by its id; null with a not_found error when the tenant has none with this id.",
    args: { id: t.arg.id({ required: true, description: 'A UUID from any of them, or the id of a chat or contact.' }) },
    resolve: async (_root, { id: rawId }, ctx) => {
      const { tenantId } = await ctx.actor();
      const id = String(rawId);
      const conversation = await conversationNode(ctx, id);
      if (conversation) return conversation;
      if (!isUuid(id)) throw new NotFound('Node');
      // Ids are random UUIDs across tables: at most one of these finds it, all in one round.
      const [instance, message, apiKey, delivery] = await Promise.all([
        ctx.prisma.instance.findFirst(ownedBy(tenantId, id)),
        ctx.prisma.message.findFirst(ownedBy(tenantId, id)),
        ctx.prisma.apiKey.findFirst({ where: { id, tenantId, revokedAt: null } }),
        ctx.prisma.webhookDelivery.findFirst({ where: { id, instance: { tenantId } } }),
      ]);
      const found =
        asNode('Instance', instance) ?? asNode('Message', message) ?? asNode('ApiKey', apiKey) ?? asNode('WebhookDelivery', delivery);
      if (!found) throw new NotFound('Node');
      return found;
    },
  }),
);
