import type { AuthService } from '../domain/auth/auth.service.js';
import type { CredentialHeaders } from '../domain/auth/authenticate.js';
import { DomainError, Unavailable } from '../domain/errors.js';
import type { Logger } from '../infra/logger.js';
import { verifyCaller } from './verify-caller.js';

/**
 * Long-lived GraphQL connections (WebSocket, SSE) authenticate once, when they open. The watch checks
 * their credentials again every `intervalMs` and ends those whose key was revoked or whose session
 * ended, so a revoked caller stops receiving within that time. One lookup per distinct credential
 * per pass, however many connections share it.
 */
export function createCallerWatch(auth: AuthService, intervalMs: number, logger: Logger) {
  const open = new Map<object, { credentials: CredentialHeaders; end: () => void }>();
  const timer = setInterval(() => {
    const byCredential = new Map<string, { credentials: CredentialHeaders; ends: Array<() => void> }>();
    for (const { credentials, end } of open.values()) {
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
  }, intervalMs);
  timer.unref();

  return {
    /** Watches one connection until the returned function is called (when it closes). */
    watch(connection: object, credentials: CredentialHeaders, end: () => void): () => void {
      open.set(connection, { credentials, end });
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
