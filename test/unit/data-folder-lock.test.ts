import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataFolderInUse, lockDataFolder } from '../../src/infra/db/data-folder-lock.js';

describe('the data folder lock', () => {
  const folders: string[] = [];
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'mgw-lockfile-'));
    folders.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const holderIn = (dir: string) => JSON.parse(readFileSync(join(dir, 'gateway.lock'), 'utf8'));

  it('refuses a second opening in the same process, and allows one after release', () => {
    const dir = folder();
    const lock = lockDataFolder(dir);
    expect(() => lockDataFolder(dir)).toThrow(DataFolderInUse);
    lock.release();
    expect(existsSync(join(dir, 'gateway.lock'))).toBe(false);
    lockDataFolder(dir).release();
  });

  it('refuses while a live process holds it, naming the folder and its pid', async () => {
    const dir = folder();
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      await new Promise((resolve) => sleeper.once('spawn', resolve));
      const started = readFileSync(`/proc/${sleeper.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19];
      writeFileSync(join(dir, 'gateway.lock'), JSON.stringify({ pid: sleeper.pid, host: hostname(), started, since: new Date().toISOString() }));
      expect(() => lockDataFolder(dir)).toThrow(`the data folder ${dir} is in use by process ${sleeper.pid} `);
      // The same pid with another start time is a later process that happens to reuse the pid: the holder is gone.
      writeFileSync(join(dir, 'gateway.lock'), JSON.stringify({ pid: sleeper.pid, host: hostname(), started: '1', since: new Date().toISOString() }));
      const lock = lockDataFolder(dir);
      expect(holderIn(dir).pid).toBe(process.pid);
      lock.release();
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('takes over the lock of a process killed and not yet reaped by its parent', () => {
    const dir = folder();
    const killed = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    const pid = killed.pid!;
    const started = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19];
    writeFileSync(join(dir, 'gateway.lock'), JSON.stringify({ pid, host: hostname(), started, since: new Date().toISOString() }));
    process.kill(pid, 'SIGKILL');
    // This thread does not return to its event loop until the lock is taken, so nothing reaps the child meanwhile.
    while (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0] !== 'Z');
    const lock = lockDataFolder(dir);
    expect(holderIn(dir).pid).toBe(process.pid);
    lock.release();
  });

  it('waits a moment for a live holder that exits, then takes over', async () => {
    const dir = folder();
    // The holder is the shell's child, so the shell reaps it when it exits, as a supervisor would.
    const shell = spawn('sh', ['-c', 'sleep 1 & echo $!; wait'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const pid = Number(await new Promise<string>((resolve) => shell.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString()))));
    const started = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19];
    writeFileSync(join(dir, 'gateway.lock'), JSON.stringify({ pid, host: hostname(), started, since: new Date().toISOString() }));
    const lock = lockDataFolder(dir);
    expect(holderIn(dir).pid).toBe(process.pid);
    lock.release();
    shell.kill('SIGKILL');
  });

  it('takes over the lock of a dead process, and an unreadable one', async () => {
    const dir = folder();
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.once('exit', resolve));
    writeFileSync(join(dir, 'gateway.lock'), JSON.stringify({ pid: gone.pid, host: hostname(), started: null, since: new Date().toISOString() }));
    const lock = lockDataFolder(dir);
    expect(holderIn(dir).pid).toBe(process.pid);
    lock.release();

    writeFileSync(join(dir, 'gateway.lock'), '{"pid": 12');
    lockDataFolder(dir).release();
  });

  it('treats a holder on another host as alive, and says how to clear it', () => {
    const dir = folder();
    writeFileSync(join(dir, 'gateway.lock'), JSON.stringify({ pid: 4242, host: 'other-host', started: null, since: '2026-11-26T10:00:00.000Z' }));
    expect(() => lockDataFolder(dir)).toThrow(/in use by process 4242 on host other-host .*delete .*gateway\.lock/);
  });
});
