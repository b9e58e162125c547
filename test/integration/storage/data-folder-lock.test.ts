import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ChildGateway, distEntry, freePort, startChildGateway } from '../../kit/process.js';
import { seedPgliteDataDir } from '../../kit/templates.js';

/**
 * Runs a built entry point to its end, as `npm start` and `npm run cli` do (node itself runs it, so the
 * child's pid is the process that holds the folder): exit code and everything it printed.
 */
function runToEnd(entry: 'main' | 'cli', args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = execFile(process.execPath, [...distEntry(entry), ...args], { env: { ...process.env, ...env }, timeout: 60_000 });
    let output = '';
    child.stdout!.on('data', (c) => (output += c));
    child.stderr!.on('data', (c) => (output += c));
    child.on('close', (code) => resolve({ code, output }));
  });
}

/**
 * The gateway as its own process, once it has logged that it listens: only then are its signal
 * handlers installed (a SIGTERM earlier ends it without its clean-up, which the next start survives).
 */
async function startGateway(dataDir: string) {
  const port = await freePort();
  const child = spawn(process.execPath, distEntry('main'), {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout!.on('data', (c) => (output += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 90_000;
  while (!output.includes('gateway listening')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the gateway did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

describe('one process per embedded data folder', () => {
  // On disk, as a user's folder is; migrated already (a first start's initdb is not what this is about).
  const dataDir = mkdtempSync(join(tmpdir(), 'mgw-lock-'));
  seedPgliteDataDir(dataDir);
  const children: Array<{ kill(signal?: NodeJS.Signals): Promise<unknown> }> = [];
  afterAll(async () => {
    for (const child of children) await child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a second gateway and the CLI beside a running one, naming the folder and the holder; takes over after kill -9', async () => {
    const first = await startGateway(dataDir);
    children.push(first);
    const lock = JSON.parse(readFileSync(join(dataDir, 'gateway.lock'), 'utf8')) as { pid: number };
    expect(lock.pid).toBe(first.pid);

    const second = await runToEnd('main', [], { DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'info' });
    expect(second.code).toBe(1);
    expect(second.output).toContain(`data folder ${dataDir} is in use by process ${first.pid}`);
    expect(second.output).not.toContain('gateway listening');

    const cli = await runToEnd('cli', ['tenant:create', '--name', 'Acme'], { DATA_DIR: dataDir });
    expect(cli.code).toBe(1);
    expect(cli.output).toMatch(new RegExp(`^error: the data folder ${dataDir} is in use by process ${first.pid} `));
    expect(cli.output).not.toMatch(/External error|WebAssembly|\n\s+at /);
    // The first gateway still serves.
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200);

    // Killed without a chance to clean up: its lock stays behind, and the next start takes it over.
    await first.kill('SIGKILL');
    expect(existsSync(join(dataDir, 'gateway.lock'))).toBe(true);
    const third = await startGateway(dataDir);
    children.push(third);
    expect(JSON.parse(readFileSync(join(dataDir, 'gateway.lock'), 'utf8')).pid).toBe(third.pid);

    // Stopped properly, it leaves no lock, and the CLI works on the folder.
    expect(await third.kill('SIGTERM')).toBe(0);
    expect(existsSync(join(dataDir, 'gateway.lock'))).toBe(false);
    const after = await runToEnd('cli', ['tenants:list'], { DATA_DIR: dataDir });
    expect(after).toMatchObject({ code: 0 });
    expect(existsSync(join(dataDir, 'gateway.lock'))).toBe(false);
  }, 240_000);

  it('starts at once after kill -9 while the killed gateway still waits to be reaped', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'mgw-lock-reap-'));
    seedPgliteDataDir(folder);
    const env = { ...process.env, DATA_DIR: folder, HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
    // The gateway's parent becomes `sleep`, which never reaps a child: once killed it stays a zombie,
    // as it does while a supervisor has not yet collected it.
    const port = await freePort();
    const parent = spawn('sh', ['-c', `"${process.execPath}" ${distEntry('main').join(' ')} & exec sleep 300`], { env: { ...env, PORT: String(port) }, stdio: 'ignore' });
    let next: ChildGateway | undefined;
    try {
      const lockPath = join(folder, 'gateway.lock');
      const deadline = Date.now() + 60_000;
      while (!(await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.ok) {
        if (Date.now() > deadline) throw new Error('the first gateway did not start');
        await new Promise((r) => setTimeout(r, 100));
      }
      const killed = (JSON.parse(readFileSync(lockPath, 'utf8')) as { pid: number }).pid;
      process.kill(killed, 'SIGKILL');
      while (readFileSync(`/proc/${killed}/stat`, 'utf8').split(') ')[1]![0] !== 'Z') await new Promise((r) => setTimeout(r, 10));

      next = await startChildGateway({ DATA_DIR: folder });
      expect((await fetch(`${next.url}/readyz`)).status).toBe(200);
      expect((JSON.parse(readFileSync(lockPath, 'utf8')) as { pid: number }).pid).toBe(next.pid);
    } finally {
      await next?.kill('SIGKILL');
      parent.kill('SIGKILL');
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses a gateway while the CLI holds the folder', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'mgw-lock-cli-'));
    seedPgliteDataDir(folder);
    try {
      // A CLI command waiting for its password on standard input holds the database open meanwhile.
      const cli = spawn(process.execPath, [...distEntry('cli'), 'users:reset-password', '--email', 'nobody@example.com', '--password-stdin'], {
        env: { ...process.env, DATA_DIR: folder },
        stdio: ['pipe', 'ignore', 'ignore'],
      });
      const cliExit = new Promise<number | null>((resolve) => cli.once('exit', resolve));
      const lockPath = join(folder, 'gateway.lock');
      const deadline = Date.now() + 60_000;
      while (!existsSync(lockPath) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const gateway = await runToEnd('main', [], { DATA_DIR: folder, PORT: String(await freePort()), HOST: '127.0.0.1' });
      expect(gateway.code).toBe(1);
      expect(gateway.output).toContain(`data folder ${folder} is in use by process ${cli.pid}`);
      cli.stdin!.end('a-long-password\n');
      expect(await cliExit).toBe(2); // no such user; it ran, then let go of the folder
      expect(existsSync(lockPath)).toBe(false);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});
