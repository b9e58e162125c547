/**
 * The baseline the send benchmark compares against: Koa + @koa/router answering POST
 * /v1/messages/send with the same body parsing (1 MiB cap, UTF-8 JSON) and the same validation as
 * the gateway, and no storage. Runs as its own process; prints its URL once it listens.
 */
import { randomUUID } from 'node:crypto';
import { Router } from '@koa/router';
import Koa from 'koa';
import getRawBody from 'raw-body';
import { sendMessageInput } from '../../src/domain/messages/messages.input.js';
import { parseInput } from '../../src/domain/validation.js';

const app = new Koa();
const router = new Router();
router.post('/v1/messages/send', async (ctx) => {
  if (!/^Bearer \S+$/.test(ctx.get('authorization'))) {
    ctx.status = 401;
    ctx.body = { success: false, error: { code: 'unauthorized', message: 'Authentication required.' } };
    return;
  }
  const text = await getRawBody(ctx.req, { length: ctx.get('content-length') || undefined, limit: 1024 * 1024, encoding: 'utf8' });
  try {
    parseInput(sendMessageInput, JSON.parse(text));
    ctx.body = { success: true, data: { id: randomUUID(), status: 'queued', timestamp: new Date().toISOString(), mode: 'production' } };
  } catch (error) {
    ctx.status = 400;
    ctx.body = { success: false, error: { code: 'invalid_request', message: (error as Error).message } };
  }
});
app.use(router.routes());
const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`http://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
