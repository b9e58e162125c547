import { builder } from '../builder.js';
import { isUuid } from '../../infra/db/prisma-errors.js';
import { ownedBy } from '../../infra/db/list-scopes.js';
import { NotFound } from '../../domain/errors.js';
import { asNode, NodeInterface } from './nodes.js';

builder.queryField('node', (t) =>
  t.field({
    type: NodeInterface,
    nullable: true,
    description: "Any instance, message, API key or webhook delivery of the tenant by its id; null with a not_found error when the tenant has none with this id.",
    args: { id: t.arg.id({ required: true, description: 'A UUID from any of them.' }) },
    resolve: async (_root, { id: rawId }, ctx) => {
      const { tenantId } = await ctx.actor();
      const id = String(rawId);
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
