import { expect } from 'vitest';
import { eventually, newPhone } from '../../factories/sandbox.js';
import type { Mode } from '../../kit/modes.js';
import { sandboxWorld } from '../../kit/worlds/sandbox.js';
import type { World, WorldOptions } from '../../kit/world.js';

/** A sandbox world whose gateway serves Evolution API's paths (COMPAT_EVOLUTION=true, docs/evolution.md). */
export function evolutionWorld(mode: Mode, options: WorldOptions & { prefix?: string } = {}) {
  const { prefix, ...rest } = options;
  return sandboxWorld(mode, { ...rest, env: { COMPAT_EVOLUTION: 'true', ...(prefix ? { COMPAT_EVOLUTION_PREFIX: prefix } : {}), ...rest.env } });
}

/** One request as Evolution's clients make it: the `apikey` header, a JSON body. */
export function evolution(world: World, key?: string) {
  const headers = () => ({ apikey: key ?? world.tenant.liveKey });
  return {
    get: (path: string) => world.api.get(path, { headers: headers() }),
    post: (path: string, body?: unknown) => world.api.post(path, { headers: headers(), body: body ?? {} }),
    delete: (path: string, body?: unknown) => world.api.request('DELETE', path, { headers: headers(), ...(body === undefined ? {} : { body }) }),
  };
}

/** Evolution's error body: its status, the status's name and the messages. */
export function expectEvolutionError(answer: { status: number; body: any; text: string }, status: number, error: string, message?: RegExp) {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.body).toEqual({ status, error, response: { message: expect.any(Array) } });
  if (message) expect(answer.body.response.message.join(' | ')).toMatch(message);
}

/** An instance made with Evolution's create (its QR code asked for), scanned by a new sandbox phone, once Evolution's state says open. */
export async function evolutionInstance(world: World, name: string, extra: Record<string, unknown> = {}, key?: string) {
  const evo = evolution(world, key);
  const phone = newPhone();
  const created = await evo.post('/instance/create', { instanceName: name, qrcode: true, ...extra });
  expect(created.status, created.text).toBe(201);
  const scan = await world.api.post('/sandbox/scan', { body: { code: created.body.qrcode.code, phone } });
  expect(scan.status, scan.text).toBe(200);
  await eventually(() => evo.get(`/instance/connectionState/${name}`), (r) => r.body?.instance?.state === 'open');
  return { name, id: created.body.instance.instanceId as string, phone, digits: phone.slice(1), created: created.body };
}
