import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Router } from '@koa/router';
import { NotFound } from '../../domain/errors.js';
import type { AppState } from '../../http/context.js';
import type { DocumentOptions } from '../openapi/document.js';

/** The files of the reference page: swagger-ui from its package, and the few lines that point it at the document. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'init.js': 'text/javascript; charset=utf-8',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Messaging Gateway REST API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#reference', deepLinking: true });\n`;

// Everything the page needs is served here (no CDN); swagger-ui sets styles inline and shows images as data URLs.
const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; frame-ancestors 'none'";

/** GET /openapi.json (built on first request, from the same zod schemas the routes validate with) and GET /docs. */
export function openApiRoutes(options: DocumentOptions) {
  const router = new Router<AppState>();
  let document: Promise<string> | undefined;
  const assets = new Map<string, Promise<Buffer | string>>();
  const uiFolder = () => (createRequire(import.meta.url)('swagger-ui-dist') as { getAbsoluteFSPath(): string }).getAbsoluteFSPath();

  router.get('/openapi.json', async (ctx) => {
    document ??= import('../openapi/document.js').then(({ buildOpenApiDocument }) => JSON.stringify(buildOpenApiDocument(options)));
    // The same for every caller and until the gateway is upgraded: clients and tools may cache it.
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.type = 'application/json';
    ctx.body = await document;
  });
  router.get('/docs', (ctx) => {
    ctx.set('Content-Security-Policy', CSP);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGE;
  });
  router.get('/docs/:asset', async (ctx) => {
    const name = ctx.params.asset!;
    const type = ASSETS[name];
    if (!type) throw new NotFound('File');
    if (!assets.has(name)) assets.set(name, name === 'init.js' ? Promise.resolve(INIT) : readFile(join(uiFolder(), name)));
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.type = type;
    ctx.body = await assets.get(name)!;
  });
  return router;
}
