/**
 * Where the machine's CPU went in a round (server, PostgreSQL, Redis, the rest), from /proc: a ratio to bare
 * Koa means little without it, since the gateway shares the machine with its database (docs/benchmarks.md, "Each benchmark in detail").
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

type Ticks = Map<number, { comm: string; ticks: number }>;

export interface CpuSplit {
  server: number;
  postgres: number;
  redis: number;
  rest: number;
  /** The whole machine's busy time, in cores (all processes and the kernel). */
  busy: number;
  /** The cores the machine has. */
  cores: number;
}

const available = (() => {
  try {
    readFileSync('/proc/stat');
    return true;
  } catch {
    return false;
  }
})();
const ticksPerSecond = available ? Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) : 100;

function processTicks(): Ticks {
  const ticks: Ticks = new Map();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The name is in parentheses and may hold spaces; the fields after it are space-separated.
      const open = stat.indexOf('(');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      ticks.set(pid, { comm: stat.slice(open + 1, close), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return ticks;
}

function machineTicks(): { busy: number; cores: number } {
  const lines = readFileSync('/proc/stat', 'utf8').split('\n');
  const [, ...values] = lines[0]!.trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal: busy is the work done here (steal, time the
  // hypervisor gave to someone else, is not).
  const [user, nice, system, , , irq, softirq] = values as [number, number, number, number, number, number, number];
  return { busy: user + nice + system + irq + softirq, cores: lines.filter((line) => /^cpu\d/.test(line)).length };
}

/** Starts measuring; the returned function ends the measure for the server whose process id is given. */
export function measureCpu(): (serverPid: number) => CpuSplit | null {
  if (!available) return () => null;
  const started = performance.now();
  const before = processTicks();
  const machineBefore = machineTicks();
  return (serverPid) => {
    const seconds = (performance.now() - started) / 1000;
    const after = processTicks();
    const machineAfter = machineTicks();
    const used = { server: 0, postgres: 0, redis: 0 };
    for (const [pid, { comm, ticks }] of after) {
      const spent = ticks - (before.get(pid)?.ticks ?? 0);
      if (spent <= 0) continue;
      if (pid === serverPid) used.server += spent;
      else if (comm === 'postgres') used.postgres += spent;
      else if (comm === 'redis-server') used.redis += spent;
    }
    const cores = (ticks: number) => ticks / ticksPerSecond / seconds;
    const busy = cores(machineAfter.busy - machineBefore.busy);
    const split = { server: cores(used.server), postgres: cores(used.postgres), redis: cores(used.redis) };
    return { ...split, rest: Math.max(0, busy - split.server - split.postgres - split.redis), busy, cores: machineAfter.cores };
  };
}

/** The split as a table cell: server, PostgreSQL, Redis, the rest; then the machine's busy cores of all it has. */
export function formatSplit(split: CpuSplit | null): string {
  if (!split) return '-';
  const f = (n: number) => n.toFixed(2);
  return `${f(split.server)} / ${f(split.postgres)} / ${f(split.redis)} / ${f(split.rest)} (${f(split.busy)} of ${split.cores})`;
}
