import { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { MediaDownload } from '../domain/media/downloads.js';

/**
 * Writes a media download (docs/media.md, "Headers"): an attachment with an ASCII fallback of
 * its name, in the type it is served as; `sandbox`: a file opened in a tab anyway runs no script and has
 * no origin. A range of a kept copy is a 206 with Content-Range; a kept copy offers ranges.
 */
export function answerMedia(ctx: Context, download: MediaDownload): void {
  ctx.attachment(download.fileName);
  ctx.type = download.mimetype;
  ctx.set('Content-Security-Policy', 'sandbox');
  ctx.set('Accept-Ranges', download.kept ? 'bytes' : 'none');
  if (download.range && download.size !== null) {
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${download.range.start}-${download.range.end}/${download.size}`);
    ctx.length = download.range.end - download.range.start + 1;
  } else if (download.size !== null) {
    ctx.length = download.size;
  }
  ctx.body = Readable.from(download.bytes, { objectMode: false });
}
