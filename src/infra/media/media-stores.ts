import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../config.js';
import type { MediaStore } from '../../domain/media/media-store.port.js';
import { folderMediaStore } from './folder-media-store.js';

export type OpenedMediaStore = MediaStore & { close(): Promise<void> };

/**
 * The store MEDIA_STORE names (docs/media.md, "Stores"), or null when media is not kept (`off`). The
 * folder is MEDIA_DIR, else `<DATA_DIR>/media`; an in-memory database keeps its media in a temporary
 * folder that goes when the gateway stops.
 */
export function openMediaStore(config: Config): OpenedMediaStore | null {
  const choice = config.MEDIA_STORE;
  if (choice.kind === 'off') return null;
  if (choice.kind === 's3') throw new Error('MEDIA_STORE=s3://… is not available in this build');
  if (config.MEDIA_DIR || !config.DATA_DIR.startsWith('memory://')) return folderMediaStore(config.MEDIA_DIR ?? join(config.DATA_DIR, 'media'));
  const temporary = mkdtempSync(join(tmpdir(), 'gateway-media-'));
  const store = folderMediaStore(temporary);
  return {
    ...store,
    async close() {
      await store.close();
      rmSync(temporary, { recursive: true, force: true });
    },
  };
}
