import { Forbidden } from '../../domain/errors.js';
import { builder } from '../builder.js';
import { MutationPayload, type Payload, payloadOf } from './errors.js';
import { UserType } from './tenants.js';

/**
 * Signing in and out with the session cookie (as POST and DELETE /auth/sessions), for a web client
 * on the gateway's own origin (the dashboard): the cookie is set on the answer, HttpOnly, so scripts
 * never hold the token.
 */

const SignInInput = builder.inputType('SignInInput', {
  description: 'A user\'s credentials.',
  fields: (t) => ({
    email: t.string({ required: true, description: 'The address the user signs in with.' }),
    password: t.string({ required: true, description: 'The password.' }),
  }),
});

type SignedIn = { user: { id: string; email: string }; expiresAt: Date };

const SignInPayload = builder.objectRef<Payload<SignedIn>>('SignInPayload').implement({
  description: 'The signed-in user (the answer sets the session cookie), or why not.',
  interfaces: [MutationPayload],
  fields: (t) => ({
    user: t.field({ type: UserType, nullable: true, description: 'Who signed in; null when refused.', resolve: (p) => p.user ?? null }),
    expiresAt: t.field({ type: 'DateTime', nullable: true, description: 'When the session ends.', resolve: (p) => p.expiresAt ?? null }),
  }),
});

builder.mutationField('signIn', (t) =>
  t.field({
    type: SignInPayload,
    description: 'Starts a session: sets the HttpOnly session cookie on this answer. A wrong email or password is a userError (unauthorized).',
    args: { input: t.arg({ type: SignInInput, required: true, description: 'The credentials.' }) },
    resolve: (_root, { input }, ctx) =>
      // Wrong credentials are the form's to show: a userError, not a refusal of the caller.
      payloadOf(async () => {
        const session = ctx.session;
        if (!session) throw new Forbidden('Sign in over HTTP: a WebSocket answer cannot set a cookie.');
        const started = await ctx.services.auth.login(input, session.clientIp);
        session.set(started.token, started.expiresAt);
        return { user: started.user, expiresAt: started.expiresAt };
      }, { credentialsInInput: true }),
  }),
);

const SignOutPayload = builder.objectRef<Payload<{ signedOut: boolean }>>('SignOutPayload').implement({
  description: 'Whether the session ended.',
  interfaces: [MutationPayload],
  fields: (t) => ({
    signedOut: t.boolean({ description: 'The session is over and its cookie cleared.', resolve: (p) => p.signedOut ?? false }),
  }),
});

builder.mutationField('signOut', (t) =>
  t.field({
    type: SignOutPayload,
    description: 'Ends the session of the cookie the request came with, and clears the cookie.',
    args: {},
    resolve: (_root, _args, ctx) =>
      payloadOf(async () => {
        const session = ctx.session;
        if (!session) throw new Forbidden('Sign out over HTTP: a WebSocket answer cannot clear a cookie.');
        const token = session.token();
        if (token) await ctx.services.auth.logout(token);
        session.set(null, new Date(0));
        return { signedOut: true };
      }),
  }),
);
