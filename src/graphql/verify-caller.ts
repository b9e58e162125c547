import type { AuthService } from '../domain/auth/auth.service.js';
import { authenticate, type CredentialHeaders } from '../domain/auth/authenticate.js';

/** GraphQL accepts an API key (`Authorization: Bearer`) or a session cookie, on every transport. */
export const verifyCaller = (auth: AuthService, credentials: CredentialHeaders) =>
  authenticate(auth, credentials, { apiKey: true, session: true });
