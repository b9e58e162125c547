import { expect } from 'vitest';
import { decodeQr } from '../../../src/infra/qr-decode.js';
import { eventually, newPhone } from '../../factories/sandbox.js';
import type { Mode } from '../modes.js';
import { defineWorld, type World, type WorldOptions } from '../world.js';

/** The sandbox world: the gateway's built-in network, whose phones a test drives through `/sandbox/…`. */
export type SandboxWorld = World;

/** A gateway on the sandbox network, with a tenant, a webhook receiver and a file host (http allowed). */
export function sandboxWorld(mode: Mode, options: WorldOptions = {}): SandboxWorld {
  return defineWorld<null, SandboxWorld>(mode, options, {
    start: async () => null,
    shareable: true,
    // Media and webhooks are served from this machine over http: insecure URLs are allowed here.
    env: () => ({ WEBHOOK_ALLOW_INSECURE: 'true' }),
    stop: async () => {},
    fields: () => ({}),
  });
}

/**
 * A v1 instance of the world's first tenant, its QR code scanned by a new sandbox phone, once it
 * reports connected; `webhookUrl` is given at creation when set.
 */
export async function connectedInstance(world: World, name: string, options: { webhookUrl?: string } = {}) {
  const phone = newPhone();
  const key = world.tenant.liveKey;
  const created = await world.api.post('/v1/chat/instances', { key, body: { name, ...(options.webhookUrl ? { webhookUrl: options.webhookUrl } : {}) } });
  expect(created.status, created.text).toBe(201);
  const id = created.body.data.id as string;
  const qr = await world.api.get(`/v1/chat/instances/${id}/qr`, { key });
  const scan = await world.api.post('/sandbox/scan', { body: { code: decodeQr(qr.body.data.qrCode), phone } });
  expect(scan.status, scan.text).toBe(200);
  await eventually(() => world.api.get(`/v1/chat/instances/${id}`, { key }), (r) => r.body.data.status === 'connected');
  return { id, phone, secret: created.body.data.webhookSecret as string };
}
