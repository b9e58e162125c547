import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../factories/sandbox.js';
import type { TestTenant } from '../../factories/tenants.js';
import { freePort, startChildGateway } from '../../kit/process.js';
import { seedPgliteDataDir } from '../../kit/templates.js';
import type { TestGateway } from '../../kit/gateway.js';
import { client } from '../../helpers/http.js';
import { gatewaySuite } from '../../kit/suite.js';
import { MODES } from '../../kit/modes.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends the head of a request, then its body one byte every `everyMs`; resolves with what the server answered. */
function trickle(url: string, path: string, headers: Record<string, string>, body: string, everyMs: number) {
  const { port } = new URL(url);
  return new Promise<{ status: number; text: string; ms: number }>((resolve, reject) => {
    const started = Date.now();
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      const head = Object.entries({ host: `127.0.0.1:${port}`, 'content-type': 'application/json', 'content-length': String(body.length), ...headers })
        .map(([name, value]) => `${name}: ${value}`)
        .join('\r\n');
      socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n\r\n`);
      let sent = 0;
      timer = setInterval(() => {
        if (sent < body.length && socket.writable) socket.write(body[sent++]!);
      }, everyMs);
    });
    socket.on('data', (chunk) => (received += chunk.toString()));
    const done = () => {
      clearInterval(timer);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0);
      resolve({ status, text: received.slice(received.indexOf('\r\n\r\n') + 4), ms: Date.now() - started });
    };
    socket.on('close', done);
    socket.on('error', (error) => (received ? done() : reject(error)));
  });
}

describe.each(MODES)('slow clients — $name', (mode) => {
  let gw: TestGateway;
  let tenant: TestTenant;

  const suite = gatewaySuite(mode, { env: { REQUEST_TIMEOUT_MS: '2000' }, tenants: ['pro'] });
  beforeAll(() => {
    gw = suite.gw;
    tenant = suite.tenants[0]!;
  });

  it('answers an authenticated request whose body trickles in with 408 in the envelope within the bound', async () => {
    const body = JSON.stringify({ to: '5511987654321', text: 'slow' });
    const answer = await trickle(gw.url, '/v1/messages/send', { authorization: `Bearer ${tenant.liveKey}` }, body, 2000);
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.text)).toEqual({ success: false, error: { code: 'request_timeout', message: expect.any(String) } });
    // The bound, the once-a-second check, and room for a busy machine.
    expect(answer.ms).toBeLessThan(5000);
  });

  it('answers an unauthenticated request at once, without waiting for its trickled body', async () => {
    const body = JSON.stringify({ to: '5511987654321', text: 'slow and anonymous' });
    const answer = await trickle(gw.url, '/v1/messages/send', {}, body, 2000);
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.text).error.code).toBe('unauthorized');
    expect(answer.ms).toBeLessThan(1500);
  });
});

describe('shutdown', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mgw-shutdown-'));
  seedPgliteDataDir(dataDir);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('on SIGTERM answers /readyz 503 while draining, closes WebSockets with 1001 and exits 0 quickly when idle', async () => {
    // A grace far above an idle shutdown's time: one that waited for it (a request or socket left open) is told apart on any machine.
    const child = await startChildGateway({
      DATA_DIR: dataDir,
      SHUTDOWN_DRAIN_MS: '600',
      SHUTDOWN_GRACE_MS: '40000',
      GATEWAY_ADMIN_EMAIL: 'ops@example.com',
      GATEWAY_ADMIN_PASSWORD: 'long-password',
    });
    const api = client(child.url);
    const login = await api.post('/auth/sessions', { body: { email: 'ops@example.com', password: 'long-password' } });
    const cookie = /auth-session=[^;]+/.exec(login.headers.get('set-cookie') ?? '')![0];
    let connected!: () => void;
    const open = new Promise<void>((resolve) => (connected = resolve));
    const closed = new Promise<number>((resolve) => {
      const ws = createClient({
        url: `${child.url.replace('http', 'ws')}/graphql`,
        webSocketImpl: class extends WebSocket {
          constructor(address: string, protocols?: string | string[]) {
            super(address, protocols, { headers: { cookie } });
          }
        },
        retryAttempts: 0,
        on: { connected: () => connected(), closed: (event) => resolve((event as { code: number }).code) },
      });
      ws.subscribe({ query: 'subscription { connectionUpdated(instanceId: "00000000-0000-4000-8000-000000000000") { status } }' }, {
        next: () => {},
        error: () => {},
        complete: () => {},
      });
    });
    await open;

    const signalled = Date.now();
    process.kill(child.pid, 'SIGTERM');
    // Draining for SHUTDOWN_DRAIN_MS: not ready, still answering.
    const draining = await eventually(() => api.get('/readyz'), (r) => r.status !== 200, 2000);
    expect(draining.status).toBe(503);
    expect(draining.body.error.code).toBe('service_unavailable');
    expect(await child.exited).toBe(0);
    // Well within the 40 s a stuck request or socket would hold it (the drain and the close alone take
    // about 1 s on a quiet machine, over 6 s on a loaded one).
    expect(Date.now() - signalled).toBeLessThan(20_000);
    expect([1001, 1000]).toContain(await closed);
  }, 60_000);

  it('shuts down cleanly on a SIGTERM the moment /readyz first answers 200, while the rest of the start is under way', async () => {
    const child = await startChildGateway({ DATA_DIR: dataDir, SHUTDOWN_DRAIN_MS: '0' }, { pollMs: 5 });
    process.kill(child.pid, 'SIGTERM');
    // Its own shutdown, not the signal's default (which ends the process with no exit code).
    expect(await child.exited).toBe(0);
  }, 60_000);

  it('stops the gateway when `npm start` is stopped', async () => {
    const port = await freePort();
    const npm = spawn('npm', ['start'], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SHUTDOWN_DRAIN_MS: '0' },
      stdio: 'ignore',
      detached: false,
    });
    const npmExited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
    const url = `http://127.0.0.1:${port}/readyz`;
    const deadline = Date.now() + 90_000;
    while (!(await fetch(url).catch(() => undefined))?.ok) {
      if (Date.now() > deadline) throw new Error('npm start did not come up');
      await sleep(200);
    }
    npm.kill('SIGTERM');
    await npmExited;
    const gone = Date.now() + 5000;
    let answering = true;
    while (Date.now() < gone && answering) {
      answering = Boolean(await fetch(url).catch(() => undefined));
      if (answering) await sleep(100);
    }
    expect(answering).toBe(false);
  }, 120_000);
});
