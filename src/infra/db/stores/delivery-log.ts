import type { DeliveryLog } from '../../../domain/webhooks/deliveries.service.js';
import type { PrismaClient } from '../database.js';
import type { DueDelivery } from '../outbox.js';
import { isUuid } from '../prisma-errors.js';

const withAttempts = { attempts: { orderBy: { number: 'asc' as const } } };

export function createDeliveryLog(prisma: PrismaClient, schedule: (due: DueDelivery[]) => Promise<void>): DeliveryLog {
  return {
    list: (instanceId, limit) =>
      prisma.webhookDelivery.findMany({ where: { instanceId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit, include: withAttempts }),
    find: (id) => (isUuid(id) ? prisma.webhookDelivery.findUnique({ where: { id }, include: withAttempts }) : Promise.resolve(null)),
    async redeliver(id) {
      const original = await prisma.webhookDelivery.findUniqueOrThrow({ where: { id } });
      const now = new Date();
      const copy = await prisma.webhookDelivery.create({
        data: { instanceId: original.instanceId, eventId: original.eventId, event: original.event, url: original.url, payload: original.payload, nextAttemptAt: now },
        include: withAttempts,
      });
      await schedule([{ id: copy.id, at: now }]);
      return copy;
    },
  };
}
