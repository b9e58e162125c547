/** Looks at a media URL, or uploaded bytes, before a message carrying them is accepted. */
export interface MediaProbe {
  /** Content type, size and the type the bytes show, reading at most `maxBytes`; throws Invalid naming `field` when it cannot. */
  probe(url: string, maxBytes: number, field: string): Promise<{ contentType: string; bytes: number; sniffed: string | null }>;
  /** The content type the bytes show (their magic numbers), or null when they show none known. */
  sniff(bytes: Uint8Array): Promise<string | null>;
  /** The file again (a sent message's media, downloaded): MediaExpired when the URL no longer serves it. */
  fetch(url: string, maxBytes: number): Promise<{ contentType: string; bytes: Buffer }>;
}
