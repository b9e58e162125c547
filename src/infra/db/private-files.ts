import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Bits that let the group or others read, write or enter. */
const SHARED_BITS = 0o077;

/**
 * Creates `folder` (and its parents) readable by this user only, or takes the group's and others'
 * bits off one that exists: true when it had some (the caller warns). docs/operating.md, "Files".
 */
export function privateFolder(folder: string): boolean {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const mode = lstatSync(folder).mode & 0o7777;
  if ((mode & SHARED_BITS) === 0) return false;
  chmodSync(folder, mode & ~SHARED_BITS);
  return true;
}

/**
 * Takes the group's and others' bits off every file and folder under `root` (symbolic links are
 * left alone): PGlite's file system sets the modes it is given (0666 for its initial files) with an
 * explicit chmod, which the process's umask does not narrow. Returns how many it changed.
 */
export function tightenTree(root: string): number {
  let changed = 0;
  const visit = (path: string) => {
    let stat;
    try {
      stat = lstatSync(path);
    } catch {
      return; // removed meanwhile
    }
    if (stat.isSymbolicLink()) return;
    if (stat.mode & SHARED_BITS) {
      chmodSync(path, stat.mode & 0o7777 & ~SHARED_BITS);
      changed++;
    }
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
  return changed;
}
