import type { z } from 'zod';
import type * as documented from '../openapi/schemas.js';
import type { DeliveryRecord } from '../../domain/webhooks/deliveries.service.js';

export function presentDelivery(d: DeliveryRecord): z.output<typeof documented.Delivery> {
  return {
    id: d.id,
    event: d.event,
    url: d.url,
    status: d.status,
    attemptCount: d.attemptCount,
    nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
    attempts: d.attempts.map((a) => ({
      number: a.number,
      startedAt: a.startedAt.toISOString(),
      statusCode: a.statusCode,
      error: a.error,
      durationMs: a.durationMs,
    })),
  };
}
