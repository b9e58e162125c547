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
 * Node's arguments to run an entry point of the build (`main` for the gateway, `cli` for the admin
 * CLI) as `npm start` and `npm run cli` do. The suite's global setup builds dist/ before any test.
 */
export const distEntry = (entry: 'main' | 'cli') => ['--enable-source-maps', `dist/${entry}.js`];

/**
 * The real gateway as its own process (node itself, so a signal reaches it), ready to serve.
 * `pollMs`: how often /readyz is asked meanwhile (a test that acts the moment it turns 200 asks often).
 */
export async function startChildGateway(env: Record<string, string>, { pollMs = 100 }: { pollMs?: number } = {}) {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, distEntry('main'), {
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if ((await fetch(`${url}/readyz`).catch(() => undefined))?.ok) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('child gateway did not start');
    await new Promise((r) => setTimeout(r, pollMs));
  }
  return {
    url,
    pid: child.pid!,
    /** Its exit code once it has exited (null when a signal ended it). */
    exited,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      child.kill(signal);
      await exited;
    },
  };
}
