import type { Actor } from '../domain/actor.js';
import type { AuthService } from '../domain/auth/auth.service.js';
import type { CredentialHeaders } from '../domain/auth/authenticate.js';
import { DomainError, Unavailable } from '../domain/errors.js';
import type { Invalidation } from '../infra/cache/invalidation-bus.js';
import type { Logger } from '../infra/logger.js';
import { verifyCaller } from './verify-caller.js';

interface Watched {
  credentials: CredentialHeaders;
  actor: Actor;
  end: () => void;
}

/** Whether a change may have taken this caller's access away. */
function concerns(change: Invalidation, actor: Actor): boolean {
  if (change.kind === 'everything') return true;
  if (change.kind === 'apiKey') return actor.kind === 'apiKey' && actor.apiKeyId === change.id;
  if (change.kind === 'sessions') return actor.kind === 'user' && actor.userId === change.userId;
  return false;
}

/**
 * Long-lived GraphQL connections (WebSocket, SSE) authenticate once. A revocation, sign-out or password
 * change reaches every node on the bus and ends that caller's connections at once; every `intervalMs`
 * all are checked again, for a lost message (docs/graphql.md). One lookup per distinct credential.
 */
export function createCallerWatch(auth: AuthService, intervalMs: number, logger: Logger, changes: { subscribe(listener: (change: Invalidation) => void): void }) {
  const open = new Map<object, Watched>();

  function recheck(watched: Iterable<Watched>) {
    const byCredential = new Map<string, { credentials: CredentialHeaders; ends: Array<() => void> }>();
    for (const { credentials, end } of watched) {
      const key = `${credentials.authorization ?? ''}\n${credentials.cookie ?? ''}`;
      const entry = byCredential.get(key) ?? { credentials, ends: [] };
      entry.ends.push(end);
      byCredential.set(key, entry);
    }
    for (const { credentials, ends } of byCredential.values()) {
      verifyCaller(auth, credentials).then(
        () => {},
        (error: unknown) => {
          // A database outage says nothing about the caller: keep the connection.
          if (error instanceof DomainError && !(error instanceof Unavailable)) for (const end of ends) end();
          else logger.warn({ err: error }, 'could not re-check a long-lived GraphQL caller; keeping its connection');
        },
      );
    }
  }

  const timer = setInterval(() => recheck(open.values()), intervalMs);
  timer.unref();
  changes.subscribe((change) => {
    const affected = [...open.values()].filter((watched) => concerns(change, watched.actor));
    // After this turn: the key cache drops its copy on the same message, and must have before the check reads it.
    if (affected.length) setImmediate(() => recheck(affected));
  });

  return {
    /** Watches one connection of `actor` until the returned function is called (when it closes). */
    watch(connection: object, credentials: CredentialHeaders, actor: Actor, end: () => void): () => void {
      open.set(connection, { credentials, actor, end });
      return () => void open.delete(connection);
    },
    stop() {
      clearInterval(timer);
    },
    /** Ends every watched connection (shutdown). */
    endAll() {
      for (const { end } of open.values()) end();
      open.clear();
    },
  };
}

export type CallerWatch = ReturnType<typeof createCallerWatch>;
