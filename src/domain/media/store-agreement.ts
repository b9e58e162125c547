/** A live node of the same database and the store it keeps media in (null: a build that does not say). */
export interface NodeStore {
  id: string;
  mediaStore: string | null;
}

const HOW = 'set the same MEDIA_STORE=s3://bucket/prefix (and MEDIA_S3_*) on every node, or MEDIA_STORE=off on every node';

/**
 * Why this node must not start beside `others` (docs/media.md, "Stores"), or null when it may: a record
 * names its file by where it is kept, so every node must reach the same objects. A data folder is one
 * machine's, so it cannot be shared; a node that does not say (an older build) keeps none and is let be.
 */
export function mediaStoreDisagreement(mine: string, others: NodeStore[]): string | null {
  if (mine.startsWith('folder:') && others.length) {
    const ids = others.map((other) => other.id).join(', ');
    return `MEDIA_STORE=folder keeps media in this node's own folder, but other nodes are live on this database (${ids}): ${HOW}`;
  }
  const other = others.find((node) => node.mediaStore !== null && node.mediaStore !== mine);
  if (!other) return null;
  return `MEDIA_STORE: this node would keep media in ${mine}, but node ${other.id} keeps it in ${other.mediaStore}: ${HOW}`;
}
