/**
 * What each list of a tenant holds and in which order, in one place for REST (the stores) and GraphQL
 * (the connections, which spread the prisma plugin's relation query into it). The id breaks ties in
 * creation time so pages and cursors are stable.
 */

/** A tenant's instances, oldest first (as GET /v1/chat/instances lists them). */
export const instanceList = (tenantId: string) => ({
  where: { tenantId },
  orderBy: [{ createdAt: 'asc' as const }, { id: 'asc' as const }],
});

/** An instance's messages and webhook deliveries, newest first (the order of the tenant's message list). */
export const newestFirst = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

/** A tenant's messages, newest first (as GET /v1/messages/list lists them). */
export const messageList = (tenantId: string) => ({ where: { tenantId }, orderBy: newestFirst });

