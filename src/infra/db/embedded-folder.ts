import { join, resolve } from 'node:path';
import { lockDataFolder } from './data-folder-lock.js';
import { privateFolder } from './private-files.js';
import { type EmbeddedThread, startEmbeddedThread } from './embedded-thread/client.js';

/** The embedded database's folder, locked for this process, with PGlite's thread started on it. */
export interface EmbeddedFolder {
  readonly thread: EmbeddedThread;
  /** Who hears of a thread that died (set once the database around it exists). */
  onDeath(handler: (error: Error) => void): void;
  /** Lets another process open the folder (after the thread closed). */
  release(): void;
}

/**
 * Locks `dataDir` and starts PGlite's thread; it imports nothing of Prisma or the server, so `main` calls it
 * first (docs/architecture.md, "The embedded database's thread"). `threadModule`: the thread's code when
 * not this build's own; `warn`: hears of a folder others could enter (made private).
 */
export function openEmbeddedFolder(dataDir: string, options: { threadModule?: URL; warn?: (message: string) => void } = {}): EmbeddedFolder {
  const folder = dataDir.startsWith('memory://') ? undefined : resolve(dataDir);
  // Only this user may enter the folders: the database holds password hashes and messages.
  for (const path of folder ? [folder, join(folder, 'pglite')] : []) {
    if (privateFolder(path)) (options.warn ?? process.emitWarning)(`${path} was open to its group or others: now 0700 (readable by this user only)`);
  }
  const lock = folder ? lockDataFolder(folder) : undefined;
  let heard = (_error: Error) => {};
  // Its own default buffer cache (128 MB) is most of an idle gateway's memory; the page cache of the
  // host holds what does not fit in 16 MB.
  const thread = startEmbeddedThread(
    { dataDir: folder ? join(folder, 'pglite') : dataDir, settings: ['-c', 'shared_buffers=16MB'] },
    (error) => heard(error),
    options.threadModule,
  );
  return {
    thread,
    onDeath: (handler) => void (heard = handler),
    release: () => lock?.release(),
  };
}
