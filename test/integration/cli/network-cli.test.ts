import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../../factories/sandbox.js';

const run = promisify(execFile);

/** `npm run network` as a person starts it: its output so far, and the npm process. */
function startNetwork(args: string[]) {
  const child = spawn('npm', ['run', '-s', 'network', '--', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

describe('npm run network, the local networks as a tool', () => {
  const started: ChildProcess[] = [];
  afterAll(() => {
    for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('--help prints the options and exits 0; an unknown option is refused with them', async () => {
    const help = await run('npm', ['run', '-s', 'network', '--', '--help']);
    expect(help.stdout).toContain('--chat-port <port>');
    expect(help.stdout).toContain('--cloud-port <port>');
    expect(help.stdout).toContain('--gateway-url <url>');
    const refused = await run('npm', ['run', '-s', 'network', '--', '--bogus']).catch((error: { code: number; stderr: string }) => error);
    expect(refused).toMatchObject({ code: 2 });
    expect((refused as { stderr: string }).stderr).toContain("Unknown option '--bogus'");
  });

  it('writes its test CA to a path of its own per run, prints the webhook URL of the given gateway, and stops on SIGTERM to npm', { timeout: 60_000 }, async () => {
    const runs = [startNetwork(['--chat-port', '0', '--cloud-port', '0', '--gateway-url', 'http://127.0.0.1:4123']), startNetwork(['--chat-port', '0', '--cloud-port', '0'])];
    started.push(...runs.map((r) => r.child));
    const caFiles: string[] = [];
    for (const network of runs) {
      const output = await eventually(async () => network.output(), (text) => text.includes('Local business API'), 30_000);
      caFiles.push(/CHAT_NETWORK_CA_FILE=(\S+)/.exec(output)![1]!);
    }
    expect(runs[0]!.output()).toContain('"url":"http://127.0.0.1:4123/webhooks/cloud"');
    expect(runs[1]!.output()).toContain('"url":"http://127.0.0.1:3000/webhooks/cloud"');
    expect(caFiles[0]).not.toBe(caFiles[1]);
    for (const file of caFiles) expect(existsSync(file)).toBe(true);

    // SIGTERM to npm itself (what a process manager sends) ends the networks and removes the CA.
    for (const network of runs) network.child.kill('SIGTERM');
    for (const network of runs) expect(await network.exited).not.toBeUndefined();
    await eventually(async () => caFiles.map((file) => existsSync(dirname(file))), (left) => left.every((exists) => !exists), 10_000);
  });
});
