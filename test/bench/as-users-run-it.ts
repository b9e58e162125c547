/**
 * The gateway as users run it: `npm start` in a process group of its own, timed until `/readyz` answers;
 * BENCH_GATEWAY_CPU_PROFILE=<dir> profiles it, BENCH_GATEWAY_LOG=<file> keeps its log (docs/benchmarks.md, "Each benchmark in detail").
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { openSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from '../kit/process.js';

const PROFILER = fileURLToPath(new URL('./cpu-profile.mjs', import.meta.url));

export interface StartedGateway {
  url: string;
  /** npm's process, leader of the group. */
  child: ChildProcess;
  /** The gateway's own process (node dist/main.js). */
  pid: number;
  /** From the spawn of `npm start` to the first `/readyz` 200. */
  readyMs: number;
  /** SIGTERM to the whole group, resolved once npm has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Builds dist/ when stale, once, before any timed start (a user's first `npm start` builds; the timed ones do not). */
export async function buildIfChanged() {
  await promisify(execFile)(process.execPath, ['scripts/build-if-changed.mjs']);
}

export interface StartOptions {
  /** Extra node options, through NODE_OPTIONS. */
  nodeOptions?: string;
  /** Profiles the gateway's CPU into this folder (`cpu-profile.mjs`). */
  cpuProfileDir?: string;
  /** Gives up after this long (a machine loaded by other work can be slow). */
  timeoutMs?: number;
  /** Where the gateway's stderr goes (its warnings); ignored by default. */
  stderr?: 'inherit' | 'ignore';
  /** Another checkout to run `npm start` in (a baseline build, measured in the same run). */
  cwd?: string;
}

/**
 * `npm start` with `env` over the bench's environment. DATABASE_URL and REDIS_URL default to empty
 * (embedded), so a bench started inside a PostgreSQL-configured shell measures what it asks for.
 */
export async function npmStart(env: Record<string, string>, options: StartOptions = {}): Promise<StartedGateway> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const profileDir = options.cpuProfileDir ?? process.env.BENCH_GATEWAY_CPU_PROFILE;
  const nodeOptions = [process.env.NODE_OPTIONS, options.nodeOptions ?? process.env.BENCH_GATEWAY_NODE_OPTIONS, profileDir && `--import ${PROFILER}`].filter(Boolean).join(' ');
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    env: {
      ...process.env,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      ...env,
      PORT: String(port),
      ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
      ...(profileDir ? { CPU_PROFILE_DIR: profileDir } : {}),
    },
    stdio: ['ignore', process.env.BENCH_GATEWAY_LOG ? openSync(process.env.BENCH_GATEWAY_LOG, 'a') : 'ignore', options.stderr ?? 'inherit'],
    detached: true,
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = started + (options.timeoutMs ?? 120_000);
  for (;;) {
    if ((await fetch(`${url}/readyz`).catch(() => undefined))?.ok) break;
    if (child.exitCode !== null) throw new Error('the gateway did not start (npm start exited)');
    if (performance.now() > deadline) {
      process.kill(-child.pid!, 'SIGKILL');
      throw new Error('the gateway did not become ready in time');
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const readyMs = performance.now() - started;
  const pid = gatewayPid(child.pid!);
  return {
    url,
    child,
    pid,
    readyMs,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid!, signal);
        } catch {
          // Already gone.
        }
      }
      await exited;
    },
  };
}

/** The node process running dist/main.js under `root` (npm's shell `exec`s it, so it may be the shell's pid). */
export function gatewayPid(root: number): number {
  const commandOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  const childrenOf = (pid: number) =>
    readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)
      .map(Number);
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    if (commandOf(pid).includes('dist/main.js')) return pid;
    queue.push(...childrenOf(pid));
  }
  throw new Error('no gateway process under npm start');
}

/** Resident memory of a process, in MB. */
export const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** CPU seconds (user + system) a process used so far. */
export function cpuSeconds(pid: number) {
  return statCpuSeconds(`/proc/${pid}/stat`);
}

/** CPU seconds each thread of a process used so far, by thread id (the main thread's is the pid). */
export function threadCpuSeconds(pid: number): Map<number, number> {
  const threads = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      threads.set(Number(tid), statCpuSeconds(`/proc/${pid}/task/${tid}/stat`));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return threads;
}

function statCpuSeconds(path: string) {
  const fields = readFileSync(path, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The gateway's /metrics, as users' scrapers read it. */
export async function scrape(url: string): Promise<string> {
  return (await fetch(`${url}/metrics`)).text();
}

/** A counter or gauge of a /metrics text, summed over the series whose labels include `labels`. */
export function metricOf(text: string, name: string, labels?: string): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (rest[0] !== ' ' && rest[0] !== '{') continue;
    if (labels && !rest.includes(labels)) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}
