/**
 * The first-account endpoints (REST: they run before anyone can sign in, and answer refusals with a
 * 4xx in the API's error envelope).
 */
export type SetupAnswer<T> = { ok: true; data: T } | { ok: false; code: string; message: string };

async function post<T>(path: string, body: unknown): Promise<SetupAnswer<T>> {
  let response: Response;
  try {
    response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), credentials: 'same-origin' });
  } catch {
    return { ok: false, code: 'unreachable', message: 'The gateway cannot be reached. Check your connection and try again.' };
  }
  const answer = (await response.json().catch(() => null)) as { success?: boolean; data?: T; error?: { code: string; message: string } } | null;
  if (response.ok && answer?.success) return { ok: true, data: answer.data as T };
  return { ok: false, code: answer?.error?.code ?? 'server_error', message: answer?.error?.message ?? `The gateway answered ${response.status}.` };
}

export const checkSetupLink = (token: string) => post<{ expiresAt: string }>('/auth/setup/check', { token });

export const completeSetup = (input: { token: string; email: string; password: string; tenantName?: string }) =>
  post<{ user: { email: string }; tenant: { name: string } }>('/auth/setup', input);
