import { Router } from '@koa/router';
import type { MediaDownloads } from '../../domain/media/downloads.js';
import type { MediaLinks } from '../../domain/media/media-links.port.js';
import { parseRange } from '../../domain/media/byte-ranges.js';
import { MediaLinkInvalid } from '../../domain/errors.js';
import type { AppState } from '../../http/context.js';
import { whenDone } from '../../http/when-done.js';
import { rateLimitHeaders, type RequestLimiter, type RequestLimits, RequestLimitExceeded } from '../../infra/rate-limit/request-limiter.js';
import { answerMedia } from '../media-answer.js';

/**
 * What one client address may fetch through signed links (no credential to count against): a
 * dashboard showing a chat full of pictures stays well within it.
 */
export const MEDIA_LINK_LIMITS: RequestLimits = { perMinute: 600, perHour: 12_000, burst: 50 };

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * GET /media/<message id>?expires=&signature= (docs/media.md, "Signed links"): the message's
 * media without a key while the signature holds; anything else is 403 media_link_invalid.
 */
export function mediaLinkRoutes(media: MediaDownloads, links: MediaLinks, limiter: RequestLimiter) {
  const router = new Router<AppState>();
  router.get('/media/:messageId', async (ctx) => {
    try {
      const admission = await limiter.enter(`media-link:${ctx.ip}`, MEDIA_LINK_LIMITS);
      for (const [name, value] of Object.entries(rateLimitHeaders(admission.windows))) ctx.set(name, value);
      whenDone(ctx.res, admission.leave);
    } catch (error) {
      if (error instanceof RequestLimitExceeded) for (const [name, value] of Object.entries(rateLimitHeaders(error.windows))) ctx.set(name, value);
      throw error;
    }
    const messageId = ctx.params.messageId!;
    const expiresText = first(ctx.query.expires) ?? '';
    const signature = first(ctx.query.signature) ?? '';
    const expires = /^\d{1,12}$/.test(expiresText) ? Number(expiresText) : NaN;
    if (!signature || !links.verify(messageId, expires, signature)) throw new MediaLinkInvalid();
    const download = await media.openLinked(messageId, parseRange(ctx.get('Range') || undefined));
    // The link is the credential and names its expiry: the browser may keep the file that long, no longer.
    ctx.set('Cache-Control', `private, max-age=${Math.max(0, expires - Math.floor(Date.now() / 1000))}`);
    answerMedia(ctx, download);
  });
  return router;
}
