import { randomUUID } from 'node:crypto';
import type { RouterMiddleware } from '@koa/router';
import { z } from 'zod';
import { Invalid, NotFound } from '../../../src/domain/errors.js';
import type { EngineCredentials } from '../../../src/domain/network/credentials.js';
import type { ChatEngine, EngineEvents, InstanceSession } from '../../../src/domain/network/engine.port.js';
import type { InstanceRecord } from '../../../src/domain/instances/instances.ports.js';
import type { Lease } from '../../../src/domain/ownership/lease.js';
import { defineEngine, type EngineCredentialsLine } from '../../../src/engines/descriptor.js';
import { type AppState, ok } from '../../../src/http/context.js';
import { jsonBody } from '../../../src/http/json-body.js';
import { type HttpSurface, type Operation, okEnvelope } from '../../../src/http/operation.js';

const INTEGRATION = 'CHAT-KEYED';

const token = z.string({ error: 'is required' }).min(8, 'must be at least 8 characters').meta({ description: 'The token the network issued for the account.' });
const keyedCredentials = z
  .object({ account: z.string({ error: 'is required' }).regex(/^\d{4,12}$/, 'must be 4 to 12 digits').meta({ description: "The network's number of the account." }), token })
  .meta({ description: 'CHAT-KEYED only (and required for it): the account and its token' });
const keyedToken = z.object({ token }).meta({ description: 'CHAT-KEYED only: a new token' });

type Credentials = z.output<typeof keyedCredentials>;

/** Its own body field and schemas: no file outside this folder names them. */
const credentials: EngineCredentialsLine<typeof keyedCredentials, typeof keyedToken> = {
  field: 'keyed',
  create: keyedCredentials,
  replace: keyedToken,
  externalId: (given) => given.account,
  graphql: { create: 'KeyedCredentialsInput', replace: 'KeyedTokenInput' },
};

const tag = 'Keyed network';
/** The keyed network's side of the wire, documented from here like any engine's routes. */
const operations = {
  open: { method: 'post', path: '/keyed/accounts', tag, summary: 'The network opens an account with a token', auth: [], body: z.object({ account: z.string(), token: z.string(), phone: z.string() }), success: { status: 200, schema: okEnvelope(z.object({ account: z.string() })), description: 'opened' }, errors: [] },
  outbox: { method: 'get', path: '/keyed/accounts/:account/outbox', tag, summary: "What an account's instance sent", auth: [], success: { status: 200, schema: okEnvelope(z.array(z.unknown())), description: 'oldest first' }, errors: [404] },
  inbound: { method: 'post', path: '/keyed/inbound', tag, summary: 'A text to the account, for the instance it was given to', auth: [], body: z.object({ account: z.string(), from: z.string(), text: z.string() }), success: { status: 200, schema: okEnvelope(z.record(z.string(), z.unknown())), description: 'received' }, errors: [404] },
} satisfies Record<string, Operation>;
const surface: HttpSurface = { tags: [{ name: tag, description: 'The keyed network, a test engine.' }], operations: Object.values(operations) };

/**
 * CHAT-KEYED: an engine whose instances link with credentials of its own shape, one folder and one catalogue
 * line too. Its "network" lives in this process: accounts opened with a token, an outbox per account, and texts
 * to an account reaching the instance found by its external id, as a business API's webhook finds its instance.
 */
export const keyedEngine = defineEngine({
  name: 'keyed',
  integration: INTEGRATION,
  jidDomain: 'keyed.chat',
  settings: z.object({}),
  loginFlows: ['credentials'],
  capabilities: ['text'],
  credentials,
  http: surface,
  async create({ db }) {
    let events: EngineEvents | undefined;
    /** The network's accounts: their token and phone. */
    const accounts = new Map<string, { token: string; phone: string; outbox: Array<{ to: string; text: string | null }> }>();
    /** The credentials each instance was given, as the schemas above validated them. */
    const kept = new Map<string, Credentials>();

    const store: EngineCredentials = {
      async save(instanceId: string, given: Credentials) {
        kept.set(instanceId, given);
      },
      async replace(instanceId: string, parts: z.output<typeof keyedToken>) {
        const current = kept.get(instanceId);
        if (!current) return false;
        kept.set(instanceId, { ...current, token: parts.token });
        return true;
      },
    };

    async function check(instance: InstanceRecord, lease: Lease) {
      const given = kept.get(instance.id);
      if (!given) return;
      const account = accounts.get(given.account);
      if (account?.token === given.token) await events!.verified(instance.id, lease, account.phone);
      else await events!.closed(instance.id, lease, 'credentials_rejected');
    }

    const engine: ChatEngine = {
      integration: INTEGRATION,
      async attach(first, lease): Promise<InstanceSession> {
        const session: InstanceSession = {
          async update(instance) {
            if (instance.logoutPending) return events!.closed(instance.id, lease, 'logged_out');
            if (instance.pairingSince !== null || instance.state === 'connecting') await check(instance, lease);
          },
          async send(messages) {
            const account = accounts.get(kept.get(first.id)?.account ?? '');
            if (!account) return [];
            return messages.map((message) => {
              account.outbox.push({ to: message.to, text: message.text });
              return { messageId: message.messageId, networkMessageId: randomUUID() };
            });
          },
          detach() {},
          async forget() {
            kept.delete(first.id);
          },
        };
        return session;
      },
    };

    const open: RouterMiddleware<AppState> = (ctx) => {
      const { account, token: issued, phone } = ctx.state.body as { account: string; token: string; phone: string };
      accounts.set(account, { token: issued, phone, outbox: accounts.get(account)?.outbox ?? [] });
      ctx.body = ok({ account });
    };
    const outbox: RouterMiddleware<AppState> = (ctx) => {
      const account = accounts.get(ctx.params.account!);
      if (!account) throw new NotFound('Account');
      ctx.body = ok(account.outbox);
    };
    const inbound: RouterMiddleware<AppState> = async (ctx) => {
      const { account, from, text } = ctx.state.body as { account?: string; from: string; text: string };
      if (typeof account !== 'string') throw Invalid.at('account', 'is required');
      // The instance the account's credentials were given to, by the id the engine named for it.
      const [row] = await db.statements.run<{ id: string }>(`SELECT id::text AS id FROM "Instance" WHERE "externalId" = $1 AND engine = $2`, [account, INTEGRATION]);
      if (!row) throw new NotFound('Instance with that account');
      ctx.body = ok(await events!.inbound(row.id, { networkMessageId: randomUUID(), from, type: 'text', text, location: null, pushName: null }));
    };

    return {
      engine,
      connect(handlers) {
        events = handlers;
      },
      credentials: store,
      routes: [
        { operation: operations.open, handlers: [jsonBody, open] },
        { operation: operations.outbox, handlers: [outbox] },
        { operation: operations.inbound, handlers: [jsonBody, inbound] },
      ],
      stop() {},
    };
  },
});
