import type { RouterMiddleware } from '@koa/router';
import { NotFound } from '../../domain/errors.js';
import { writtenPhone } from '../../domain/phone.js';
import { parseInput } from '../../domain/validation.js';
import { type AppState, ok } from '../../http/context.js';
import { jsonBody } from '../../http/json-body.js';
import type { HttpRoute, Operation } from '../../http/operation.js';
import type { SandboxNetwork } from './engine.js';
import type { PhoneInbox } from './inbox.js';
import { pastInput, pastOf } from './past-input.js';
import { pastOperations as op } from './past-operations.js';
import { hasPicture, profilePicture } from './pictures.js';
import type { SandboxOwnAccount } from './own-account.js';

/** The control API's routes of a phone's past and its own lists (docs/engines.md, "The sandbox's past"). */
export function pastRoutes(sandbox: SandboxNetwork, inbox: PhoneInbox, ownAccount: SandboxOwnAccount): HttpRoute[] {
  const routes: HttpRoute[] = [];
  const on = (operation: Operation, ...handlers: RouterMiddleware<AppState>[]) => routes.push({ operation, handlers });
  const { control } = sandbox;
  const numberOf = (ctx: { params: Record<string, string | undefined> }) => parseInput(writtenPhone, ctx.params.number);

  on(op.givePast, jsonBody, async (ctx) => {
    const number = numberOf(ctx);
    ctx.body = ok(await control.givePast(number, pastOf(parseInput(pastInput, ctx.state.body))));
  });
  on(op.phonePast, async (ctx) => {
    ctx.body = ok(await control.past(numberOf(ctx)));
  });
  on(op.phoneChatStates, async (ctx) => {
    ctx.body = ok(await inbox.chatStates(numberOf(ctx)));
  });
  on(op.phoneBlocks, async (ctx) => {
    ctx.body = ok(await inbox.blocks(numberOf(ctx)));
  });
  on(op.phoneProfile, async (ctx) => {
    const number = numberOf(ctx);
    const [profile, privacy] = await Promise.all([ownAccount.profile(number), ownAccount.privacy(number)]);
    ctx.body = ok({ ...ownAccount.shown(number, profile), privacy });
  });
  on(op.phonePicture, async (ctx) => {
    const number = numberOf(ctx);
    const own = (await ownAccount.profile(number)).picture;
    if (own && 'data' in own) {
      ctx.type = own.mimetype;
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = Buffer.from(own.data, 'base64');
      return;
    }
    if (!hasPicture(number)) throw new NotFound('Profile picture of that number');
    ctx.type = 'image/svg+xml';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = profilePicture(number);
  });
  return routes;
}
