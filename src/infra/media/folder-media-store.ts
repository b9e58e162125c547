import { randomBytes } from 'node:crypto';
import { createReadStream, mkdirSync, rmSync } from 'node:fs';
import { link, mkdir, stat, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { lockDataFolder } from '../db/data-folder-lock.js';
import { writeHashedDraft } from './hashed-draft.js';
import { privateFolder } from '../db/private-files.js';
import { type ByteRange, type MediaStore, mediaMissing, mediaStoreFailed, SHA256_HEX } from '../../domain/media/media-store.port.js';

const why = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'the disk is full';
  return `${code ?? 'error'} writing to the media folder`;
};

/**
 * The data folder's store (docs/media.md, "Stores"): `<folder>/<aa>/<sha256>`, written as a draft then linked
 * into place (never half visible, identical bytes one file); locked, since two gateways sharing it would
 * each remove what the other still references.
 */
export function folderMediaStore(folder: string): MediaStore & { close(): Promise<void> } {
  const root = resolve(folder);
  privateFolder(root);
  const drafts = join(root, 'drafts');
  // Drafts a crash left behind are nobody's.
  rmSync(drafts, { recursive: true, force: true });
  mkdirSync(drafts, { mode: 0o700 });
  const lock = lockDataFolder(root);
  const pathOf = (sha256: string) => {
    if (!SHA256_HEX.test(sha256)) throw mediaMissing();
    return join(root, sha256.slice(0, 2), sha256);
  };

  return {
    name: `folder:${root}`,
    kind: 'folder',
    async put(bytes, { maxBytes }) {
      const draft = join(drafts, randomBytes(12).toString('hex'));
      try {
        const { sha256, size } = await writeHashedDraft(bytes, draft, maxBytes, { flush: true });
        const final = pathOf(sha256);
        await mkdir(join(root, sha256.slice(0, 2)), { recursive: true, mode: 0o700 });
        try {
          await link(draft, final);
        } catch (error) {
          // The same bytes are there already: one file serves both.
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
        return { sha256, size };
      } catch (error) {
        if (error instanceof Error && error.name === 'MediaKeepError') throw error;
        throw mediaStoreFailed(why(error));
      } finally {
        await unlink(draft).catch(() => {});
      }
    },
    async open(sha256, range?: ByteRange) {
      const path = pathOf(sha256);
      let size: number;
      try {
        size = (await stat(path)).size;
      } catch {
        throw mediaMissing();
      }
      const stream = createReadStream(path, range ? { start: range.start, end: range.end } : {});
      return { bytes: stream, size };
    },
    async has(sha256) {
      try {
        await stat(pathOf(sha256));
        return true;
      } catch {
        return false;
      }
    },
    async remove(sha256) {
      await unlink(pathOf(sha256)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    },
    async close() {
      lock.release();
    },
  };
}
