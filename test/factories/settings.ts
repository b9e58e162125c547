import { expect } from 'vitest';
import type { World } from '../kit/world.js';

/** PUT /v1/chat/instances/<id>/settings with `body`, as the world's tenant's live key; answers the settings. */
export async function putSettings(world: World, instanceId: string, body: unknown) {
  const answer = await world.api.put(`/v1/chat/instances/${instanceId}/settings`, { key: world.tenant.liveKey, body });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data;
}
