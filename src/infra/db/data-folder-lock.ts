import { linkSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Two processes on one embedded database would each believe they own every file and corrupt them, and
 * PGlite's own postmaster.pid always names pid -42: a lock file names the holder's pid, which a SIGKILL
 * leaves recognisable at once (docs/architecture.md, "The plumbing, why").
 */
export const LOCK_FILE = 'gateway.lock';

/** A takeover of a dead holder's lock takes milliseconds; a guard older than this was abandoned. */
const ABANDONED_GUARD_MS = 10_000;

/** How long a start waits for a holder on this host that may be exiting (killed, being reaped) before refusing. */
export const HOLDER_EXIT_WAIT_MS = 3_000;

interface Holder {
  pid: number;
  host: string;
  /** Linux: the process's start time in clock ticks since boot, so a pid reused later is not taken for the holder. */
  started: string | null;
  since: string;
}

export class DataFolderInUse extends Error {
  constructor(
    readonly folder: string,
    readonly holder: Holder | null,
  ) {
    super(
      holder
        ? `the data folder ${folder} is in use by process ${holder.pid}${holder.host === hostname() ? '' : ` on host ${holder.host}`} (since ${holder.since}): ` +
            'the embedded database allows one process at a time. Stop that process first, or run several on PostgreSQL (DATABASE_URL)' +
            (holder.host === hostname() ? '' : `; if that process no longer runs, delete ${join(folder, LOCK_FILE)}`)
        : `the data folder ${folder} is in use by this process already: the embedded database allows one opening at a time`,
    );
    this.name = 'DataFolderInUse';
  }
}

export interface DataFolderLock {
  release(): void;
}

/** Folders this process holds, so a second opening in the same process is refused too. */
const heldHere = new Set<string>();

/** Fields 3 onwards of /proc/<pid>/stat; the command name (field 2) may hold spaces, so they start after its ')'. */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** Linux: the process's start time (field 22 of its stat). */
const processStart = (pid: number): string | null => statFields(pid)?.[19] ?? null;

/** Linux: the process has exited and only waits for its parent to reap it (zombie, or dead). */
const exited = (pid: number): boolean => ['Z', 'X', 'x'].includes(statFields(pid)?.[0] ?? '');

function readHolder(path: string): Holder | null {
  try {
    const holder = JSON.parse(readFileSync(path, 'utf8')) as Holder;
    return Number.isInteger(holder.pid) && holder.pid > 0 && typeof holder.host === 'string' ? holder : null;
  } catch {
    return null;
  }
}

/** Whether the recorded holder may still run. A holder on another host cannot be checked, so it counts as alive. */
function alive(holder: Holder | null): boolean {
  if (!holder) return false;
  if (holder.host !== hostname()) return true;
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: a process of another user has that pid, so it runs.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const started = holder.started && processStart(holder.pid);
  return (!started || started === holder.started) && !exited(holder.pid);
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function removeIfUnchanged(path: string, seen: string | null) {
  let now: string | null = null;
  try {
    now = readFileSync(path, 'utf8');
  } catch {
    return;
  }
  if (now === seen) unlinkSync(path);
}

/**
 * Takes the folder's lock, or throws DataFolderInUse naming the live holder. A lock whose holder is
 * dead (killed, crashed, the machine restarted) is taken over.
 */
export function lockDataFolder(dataDir: string): DataFolderLock {
  const folder = resolve(dataDir);
  if (heldHere.has(folder)) throw new DataFolderInUse(folder, null);
  const path = join(folder, LOCK_FILE);
  const mine: Holder = { pid: process.pid, host: hostname(), started: processStart(process.pid), since: new Date().toISOString() };
  const content = JSON.stringify(mine);
  // Written whole first, then linked into place: the lock appears atomically with all of its content.
  const draft = `${path}.${process.pid}.draft`;
  writeFileSync(draft, content, { mode: 0o600 });
  // A holder that is exiting gets a moment to go: a supervisor restarts at once after a kill -9.
  const waitUntil = Date.now() + HOLDER_EXIT_WAIT_MS;
  try {
    for (let takeovers = 0; ; ) {
      try {
        linkSync(draft, path);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      let seen: string | null = null;
      try {
        seen = readFileSync(path, 'utf8');
      } catch {
        continue; // released meanwhile
      }
      const holder = readHolder(path);
      if (alive(holder)) {
        if (holder!.host !== hostname() || Date.now() >= waitUntil) throw new DataFolderInUse(folder, holder);
        pause(50);
        continue;
      }
      if (++takeovers > 20) throw new DataFolderInUse(folder, holder);
      takeOver(path, seen);
    }
  } finally {
    unlinkSync(draft);
  }
  heldHere.add(folder);
  const onExit = () => removeIfUnchanged(path, content);
  process.once('exit', onExit);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      process.off('exit', onExit);
      heldHere.delete(folder);
      removeIfUnchanged(path, content);
    },
  };
}

/**
 * Removes a dead holder's lock under a guard file, only if it is still the one that was read: two
 * processes taking over at once cannot remove each other's new lock.
 */
function takeOver(path: string, seen: string) {
  const guard = `${path}.takeover`;
  try {
    writeFileSync(guard, String(process.pid), { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    try {
      if (Date.now() - statSync(guard).mtimeMs > ABANDONED_GUARD_MS) unlinkSync(guard);
    } catch {
      // gone meanwhile
    }
    // Another process is taking over: give it a moment (opening the database is synchronous anyway).
    pause(25);
    return;
  }
  try {
    removeIfUnchanged(path, seen);
  } finally {
    unlinkSync(guard);
  }
}
