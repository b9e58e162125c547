import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Node's arguments to run `main` or `cli` of the build as `npm start` and `npm run cli` do, plus
 * `--liftoff-only`, which saves a short-lived process a second WebAssembly compile (docs/development.md, "Tests").
 */
export const distEntry = (entry: 'main' | 'cli') => ['--enable-source-maps', '--liftoff-only', `dist/${entry}.js`];

/**
 * The real gateway as its own process (node itself, so a signal reaches it), ready to serve.
 * `pollMs`: how often /readyz is asked meanwhile (a test that acts the moment it turns 200 asks often).
 */
export async function startChildGateway(env: Record<string, string>, { pollMs = 100, readyWithinMs = 60_000 }: { pollMs?: number; readyWithinMs?: number } = {}) {
  // The port is free when picked, and another process may take it before the child listens: it exits
  // saying so (EADDRINUSE), and starts again on another port.
  for (let attempt = 1; ; attempt++) {
    const started = await startOnFreePort(env, pollMs, readyWithinMs);
    if (started.ok) return started.child;
    if (!started.portTaken || attempt === 3) throw new Error(started.why);
  }
}

export type ChildGateway = Awaited<ReturnType<typeof startChildGateway>>;

async function startOnFreePort(env: Record<string, string>, pollMs: number, readyWithinMs: number) {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, distEntry('main'), {
    // Nodes sharing a database must agree on where media is kept (docs/media.md, "Stores"): none
    // unless the suite says, as for startTestGateway.
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...(env.DATABASE_URL ? { MEDIA_STORE: 'off' } : {}), ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // What it said (its log is on stdout), its last 64 kB: why a start failed, or a warning a test reads.
  let said = '';
  const keep = (chunk: Buffer) => void (said = (said + chunk.toString('utf8')).slice(-64_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    keep(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyWithinMs;
  for (;;) {
    // Its exit first: once it has gone, whatever answers on the port is not it.
    if (child.exitCode !== null) {
      await exited;
      return { ok: false as const, portTaken: /EADDRINUSE/.test(said), why: `child gateway exited (${child.exitCode}) before it was ready: ${said.slice(-1000)}` };
    }
    if ((await fetch(`${url}/readyz`).catch(() => undefined))?.ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      return { ok: false as const, portTaken: false, why: `child gateway was not ready within ${readyWithinMs / 1000} s: ${said.slice(-1000)}` };
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
  return {
    ok: true as const,
    child: {
      url,
      pid: child.pid!,
      /** Its exit code once it has exited (null when a signal ended it). */
      exited,
      /** What it has logged so far (stdout and stderr, the last 64 kB). */
      output: () => said,
      async kill(signal: NodeJS.Signals = 'SIGKILL') {
        child.kill(signal);
        await exited;
      },
    },
  };
}
