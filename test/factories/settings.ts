import type { World } from '../kit/world.js';

/**
 * PUT /v1/chat/instances/<id>/settings with `body`, as the tenant's live key. Until that route is on
 * this branch it is the service call the route makes (the same input checks, 400 and 422 included).
 */
export async function putSettings(world: World, instanceId: string, body: unknown) {
  const { services } = world.gw.gateway;
  const actor = await services.auth.authenticateApiKey(world.tenant.liveKey);
  return services.settings.update(actor, instanceId, body);
}
