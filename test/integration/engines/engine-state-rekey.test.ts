import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REKEY_STEPS } from '../../../src/engines/state/state-key.js';
import { baileysEnv, pairedV1 } from '../../factories/chat-network.js';
import { eventually } from '../../factories/sandbox.js';
import { createKey, login } from '../../factories/tenants.js';
import { distEntry, startChildGateway } from '../../kit/process.js';
import { client } from '../../helpers/http.js';
import { type ChatNetwork, startChatNetwork } from '../../networks/chat-network/index.js';

/** The CLI as `npm run cli` runs it, its own process: how it ended (exit code, or the signal that killed it) and what it printed. */
function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...distEntry('cli'), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += String(chunk)));
    child.stderr!.on('data', (chunk) => (output += String(chunk)));
    child.once('exit', (code, signal) => resolve({ code, signal, output }));
  });
}

describe('engine-state:rekey stopped at any step (embedded data folder)', () => {
  let network: ChatNetwork;
  let paired: { dir: string; env: Record<string, string>; key: string; id: string };
  const admin = { GATEWAY_ADMIN_EMAIL: 'rekey-steps@example.com', GATEWAY_ADMIN_PASSWORD: 'rekey-steps-password' };
  const folders: string[] = [];
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'mgw-rekey-'));
    folders.push(dir);
    return dir;
  };

  beforeAll(async () => {
    network = await startChatNetwork();
    const dir = folder();
    const env = { ...baileysEnv(network, { database: 'pglite' }), DATA_DIR: dir, ...admin };
    const gateway = await startChildGateway(env);
    try {
      const api = client(gateway.url);
      const key = await createKey(api, await login(api, admin.GATEWAY_ADMIN_EMAIL, admin.GATEWAY_ADMIN_PASSWORD), { name: 'rekey steps' });
      const { id } = await pairedV1(api, key, network, 'rekeyed');
      paired = { dir, env, key, id };
    } finally {
      await gateway.kill('SIGTERM');
    }
  }, 120_000);
  afterAll(async () => {
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
    await network?.close();
  });

  it.each(REKEY_STEPS)('killed after "%s": the next start opens the state with the key file on disk, and the device comes back without pairing', { timeout: 120_000 }, async (step) => {
    // Each step from the same paired folder, copied while no process holds it.
    const dir = folder();
    cpSync(paired.dir, dir, { recursive: true });
    const env = { ...paired.env, DATA_DIR: dir };
    const oldKey = readFileSync(join(dir, 'engine-state.key'), 'utf8').trim();
    const newKey = randomBytes(32).toString('base64');

    const stopped = await runCli(['engine-state:rekey'], { ...env, ENGINE_STATE_KEY_NEW: newKey, ENGINE_STATE_REKEY_STOP_AFTER: step });
    expect(stopped.signal, stopped.output).toBe('SIGKILL');

    const gateway = await startChildGateway(env);
    try {
      const api = client(gateway.url);
      const back = await eventually(() => api.get(`/v1/chat/instances/${paired.id}`, { key: paired.key }), (r) => r.body.data.status === 'connected', 30_000);
      expect(back.body.data.qrCode ?? null).toBeNull();
      // The folder keeps exactly one key, the one its state is sealed with: the new one once the reseal committed.
      expect(existsSync(join(dir, 'engine-state.key.next'))).toBe(false);
      const kept = readFileSync(join(dir, 'engine-state.key'), 'utf8').trim();
      expect(kept).toBe(step === 'new-key-written' ? oldKey : newKey);
    } finally {
      await gateway.kill('SIGTERM');
    }
  });

  it('run to the end: the folder holds the new key only, and the device comes back without pairing', { timeout: 120_000 }, async () => {
    const dir = folder();
    cpSync(paired.dir, dir, { recursive: true });
    const env = { ...paired.env, DATA_DIR: dir };
    const newKey = randomBytes(32).toString('base64');
    const done = await runCli(['engine-state:rekey'], { ...env, ENGINE_STATE_KEY_NEW: newKey });
    expect(done.code, done.output).toBe(0);
    expect(readFileSync(join(dir, 'engine-state.key'), 'utf8').trim()).toBe(newKey);
    expect(existsSync(join(dir, 'engine-state.key.next'))).toBe(false);
    const gateway = await startChildGateway(env);
    try {
      const api = client(gateway.url);
      await eventually(() => api.get(`/v1/chat/instances/${paired.id}`, { key: paired.key }), (r) => r.body.data.status === 'connected', 30_000);
    } finally {
      await gateway.kill('SIGTERM');
    }
  });
});
