import { randomBytes } from 'node:crypto';
import type { Gateway } from '../../src/gateway.js';

/**
 * An instance row in a given state, written straight to the database: the send path only needs an
 * instance to route to.
 */
export async function insertInstance(
  gateway: Gateway,
  tenantId: string,
  data: { state?: 'created' | 'connected' | 'disconnected'; active?: boolean; name?: string } = {},
) {
  return gateway.infra.db.prisma.instance.create({
    data: {
      tenantId,
      name: data.name ?? `inst-${randomBytes(4).toString('hex')}`,
      variant: 'v1',
      state: data.state ?? 'connected',
      active: data.active ?? true,
      webhookSecret: randomBytes(16).toString('hex'),
      phone: '+5511900000000',
    },
  });
}
