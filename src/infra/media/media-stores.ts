import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Config } from '../../config.js';
import type { MediaStore } from '../../domain/media/media-store.port.js';
import { folderMediaStore } from './folder-media-store.js';
import { s3MediaStore, s3StoreName } from './s3-media-store.js';

export type OpenedMediaStore = MediaStore & {
  close(): Promise<void>;
  /** Whether the store can be used (an object store's bucket and credentials); throws saying why not. */
  check?(): Promise<void>;
};

/** What the nodes of one database compare (GatewayNode.mediaStore): the opened store's name, or `off`. */
export function mediaStoreName(config: Config): string {
  const choice = config.MEDIA_STORE;
  if (choice.kind === 'off') return 'off';
  if (choice.kind === 's3') return s3StoreName({ ...choice, endpoint: config.MEDIA_S3_ENDPOINT });
  return `folder:${resolve(config.MEDIA_DIR ?? join(config.DATA_DIR, 'media'))}`;
}

/**
 * The store MEDIA_STORE names (docs/media.md, "Stores"), or null when media is not kept (`off`). The
 * folder is MEDIA_DIR, else `<DATA_DIR>/media`; an in-memory database keeps its media in a temporary
 * folder that goes when the gateway stops.
 */
export function openMediaStore(config: Config): OpenedMediaStore | null {
  const choice = config.MEDIA_STORE;
  if (choice.kind === 'off') return null;
  if (choice.kind === 's3') {
    return s3MediaStore({
      bucket: choice.bucket,
      prefix: choice.prefix,
      endpoint: config.MEDIA_S3_ENDPOINT,
      region: config.MEDIA_S3_REGION,
      accessKey: config.MEDIA_S3_ACCESS_KEY,
      secretKey: config.MEDIA_S3_SECRET_KEY,
      forcePathStyle: config.MEDIA_S3_FORCE_PATH_STYLE,
    });
  }
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
