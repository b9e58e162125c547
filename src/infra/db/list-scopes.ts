import type { InstanceState } from '../../domain/instances/state-machine.js';
import type { MessageListFilter } from '../../domain/messages/messages.ports.js';

/**
 * What each list of a tenant holds and in which order, in one place for REST (the stores) and GraphQL
 * (the connections, which spread the prisma plugin's relation query into it). The id breaks ties in
 * creation time so pages and cursors are stable. Every lookup here is scoped to one tenant.
 */

/** A tenant's instances, oldest first (as GET /v1/chat/instances lists them), optionally narrowed. */
export const instanceList = (tenantId: string, filter: { states?: InstanceState[]; active?: boolean | null } = {}) => ({
  where: {
    tenantId,
    ...(filter.states ? { state: { in: filter.states } } : {}),
    ...(filter.active != null ? { active: filter.active } : {}),
  },
  orderBy: [{ createdAt: 'asc' as const }, { id: 'asc' as const }],
});

/** An instance's messages and webhook deliveries, newest first (the order of the tenant's message list). */
export const newestFirst = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

/** A tenant's messages, newest first (as GET /v1/messages/list lists them), optionally narrowed. */
export const messageList = (tenantId: string, filter: Omit<MessageListFilter, 'instanceId'> & { instanceId?: string | number | null } = {}) => ({
  where: {
    tenantId,
    ...(filter.instanceId != null ? { instanceId: String(filter.instanceId) } : {}),
    ...(filter.chatId != null ? { chatId: filter.chatId } : {}),
    ...(filter.direction != null ? { direction: filter.direction } : {}),
    ...(filter.status != null ? { status: filter.status } : {}),
    ...(filter.since != null || filter.until != null
      ? { createdAt: { ...(filter.since != null ? { gte: filter.since } : {}), ...(filter.until != null ? { lt: filter.until } : {}) } }
      : {}),
  },
  orderBy: newestFirst,
});

/** One row of the tenant by id, whatever it is (node lookups). */
export const ownedBy = (tenantId: string, id: string) => ({ where: { id, tenantId } });
