import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Middleware } from 'koa';

/** Where `npm run build` puts the dashboard (src/dashboard, built by Vite): the same place from src/ and dist/. */
export const DASHBOARD_DIR = fileURLToPath(new URL('../../../dist/dashboard/', import.meta.url));

// Everything the page loads comes from this origin: no inline script or style, no CDN.
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

interface Files {
  index: Buffer;
  assets: Map<string, Buffer>;
}

/**
 * The web dashboard at `/`, same origin as the API it uses: the page (never cached, so a new build
 * shows at once) and its content-hashed assets under /assets/ (cached for a year). Files are read once.
 */
export function dashboardPages(dir = DASHBOARD_DIR): Middleware {
  let files: Promise<Files | null> | undefined;
  const load = async (): Promise<Files | null> => {
    try {
      const names = await readdir(join(dir, 'assets'));
      const assets = new Map(await Promise.all(names.map(async (name) => [name, await readFile(join(dir, 'assets', name))] as const)));
      return { index: await readFile(join(dir, 'index.html')), assets };
    } catch {
      return null;
    }
  };
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const page = ctx.path === '/' || ctx.path === '/index.html';
    const asset = ctx.path.startsWith('/assets/') ? ctx.path.slice('/assets/'.length) : undefined;
    if (!page && asset === undefined) return next();
    files ??= load();
    const built = await files;
    if (!built) {
      files = undefined;
      ctx.status = 404;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'The dashboard is not built: run `npm run build` (npm start does it when sources changed).\n';
      return;
    }
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (page) {
      ctx.set('Content-Security-Policy', CSP);
      ctx.set('Referrer-Policy', 'no-referrer');
      ctx.set('Cache-Control', 'no-cache');
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = built.index;
      return;
    }
    const body = built.assets.get(asset!);
    if (!body) return next();
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.type = TYPES[extname(asset!)] ?? 'application/octet-stream';
    ctx.body = body;
  };
}
