import type { Actor } from '../actor.js';
import { NotFound } from '../errors.js';
import type { InstancesService } from '../instances/instances.service.js';

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
  status: 'pending' | 'delivered' | 'failed' | 'cancelled';
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

export function createDeliveriesService(deps: { log: DeliveryLog; instances: Pick<InstancesService, 'owned'> }) {
  return {
    async list(actor: Actor, instanceId: string) {
      await deps.instances.owned(actor, instanceId);
      return deps.log.list(instanceId, 50);
    },
    async redeliver(actor: Actor, instanceId: string, deliveryId: string) {
      await deps.instances.owned(actor, instanceId);
      const delivery = await deps.log.find(deliveryId);
      if (!delivery || delivery.instanceId !== instanceId) throw new NotFound('Delivery');
      return deps.log.redeliver(deliveryId);
    },
  };
}
