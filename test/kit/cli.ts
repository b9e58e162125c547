import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll } from 'vitest';
import { distEntry } from './process.js';
import { seedPgliteDataDir, testDataDir } from './templates.js';

/** The built admin CLI run as `npm run cli` runs it, with `input` on its stdin; it is given 60 s. */
export function runCli(args: string[], env: Record<string, string>, input?: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(process.execPath, [...distEntry('cli'), ...args], { env: { ...process.env, ...env }, timeout: 60_000 });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c) => (stdout += c));
    child.stderr!.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin!.end(input ?? '');
  });
}

/** A migrated PGlite folder for the suite, removed after it: the CLI's first run on an empty one is processes.test.ts's. */
export function suiteDataFolder(): string {
  const dataDir = testDataDir();
  seedPgliteDataDir(dataDir);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  return dataDir;
}
