import type { Actor } from '../actor.js';
import { NotFound } from '../errors.js';
import type { InstancesService } from '../instances/instances.service.js';

/** Where a webhook delivery stands. */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface DeliveryAttemptRecord {
  number: number;
  startedAt: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface DeliveryRecord {
  id: string;
  instanceId: string;
  event: string;
  url: string;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  attempts: DeliveryAttemptRecord[];
}

export interface DeliveryLog {
  /** Newest first, with their attempts. */
  list(instanceId: string, limit: number): Promise<DeliveryRecord[]>;
  find(id: string): Promise<DeliveryRecord | null>;
  /** A new delivery of the same event and bytes, due now. */
  redeliver(id: string): Promise<DeliveryRecord>;
}

export type DeliveriesService = ReturnType<typeof createDeliveriesService>;

export function createDeliveriesService(deps: { log: DeliveryLog; instances: Pick<InstancesService, 'ownedInstance'> }) {
  return {
    async list(actor: Actor, instanceId: string) {
      await deps.instances.ownedInstance(actor, instanceId);
      return deps.log.list(instanceId, 50);
    },
    async redeliver(actor: Actor, instanceId: string, deliveryId: string) {
      await deps.instances.ownedInstance(actor, instanceId);
      const delivery = await deps.log.find(deliveryId);
      if (!delivery || delivery.instanceId !== instanceId) throw new NotFound('Delivery');
      return deps.log.redeliver(deliveryId);
    },
  };
}
