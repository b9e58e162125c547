import { describe, expect, it } from 'vitest';
import { mediaStoreDisagreement } from '../../src/domain/media/store-agreement.js';

describe('the nodes agreement on a media store', () => {
  const s3 = 's3://media/kept at minio:9000';

  it('lets a node start alone, whatever its store', () => {
    for (const mine of ['off', 'folder:/data/media', s3]) expect(mediaStoreDisagreement(mine, [])).toBeNull();
  });

  it('lets nodes of one store start together, and ignores nodes that do not say', () => {
    expect(mediaStoreDisagreement(s3, [{ id: 'a', mediaStore: s3 }, { id: 'b', mediaStore: null }])).toBeNull();
    expect(mediaStoreDisagreement('off', [{ id: 'a', mediaStore: 'off' }])).toBeNull();
  });

  it('refuses a folder beside any other node, even one naming the same path', () => {
    expect(mediaStoreDisagreement('folder:/data/media', [{ id: 'a', mediaStore: 'folder:/data/media' }, { id: 'b', mediaStore: null }])).toMatch(
      /^MEDIA_STORE=folder keeps media in this node's own folder, but other nodes are live on this database \(a, b\): set the same MEDIA_STORE=s3:\/\/bucket\/prefix .* or MEDIA_STORE=off on every node$/,
    );
  });

  it('refuses another store than a live node records, naming both', () => {
    expect(mediaStoreDisagreement('off', [{ id: 'a', mediaStore: s3 }])).toBe(
      `MEDIA_STORE: this node would keep media in off, but node a keeps it in ${s3}: set the same MEDIA_STORE=s3://bucket/prefix (and MEDIA_S3_*) on every node, or MEDIA_STORE=off on every node`,
    );
    expect(mediaStoreDisagreement('s3://media/kept at minio:9001', [{ id: 'a', mediaStore: s3 }])).toMatch(/node a keeps it in s3:\/\/media\/kept at minio:9000/);
    expect(mediaStoreDisagreement(s3, [{ id: 'a', mediaStore: 'folder:/data/media' }])).toMatch(/node a keeps it in folder:\/data\/media/);
  });
});
