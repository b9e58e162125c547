import type { Config } from './config.js';

/** An admin API call the CLI makes instead of writing the database while a gateway runs on it. */
export interface AdminCall {
  method: 'GET' | 'PATCH';
  path: string;
  body?: unknown;
}

/** The admin API answered with an error: its code and message, as a domain refusal would say them. */
export class AdminApiRefused extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AdminApiRefused';
  }
}

/** The gateway on this machine, as its own configuration says it listens (HOST 0.0.0.0 or :: answers on loopback). */
export function localGatewayUrl(config: Pick<Config, 'HOST' | 'PORT'>): string {
  const host = ['0.0.0.0', '::', '[::]'].includes(config.HOST) ? '127.0.0.1' : config.HOST;
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${config.PORT}`;
}

/** Calls the admin API with ADMIN_TOKEN; the answer's data, or AdminApiRefused with the gateway's words. */
export async function callAdminApi(baseUrl: string, token: string, call: AdminCall): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(new URL(call.path, baseUrl), {
      method: call.method,
      headers: { authorization: `Bearer ${token}`, ...(call.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw new AdminApiRefused(0, 'unreachable', `the gateway at ${baseUrl} did not answer (${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message}); set GATEWAY_URL to where it listens`);
  }
  const answer = (await response.json().catch(() => null)) as { success?: boolean; data?: unknown; error?: { code?: string; message?: string } } | null;
  if (response.ok && answer?.success) return answer.data;
  throw new AdminApiRefused(response.status, answer?.error?.code ?? 'server_error', answer?.error?.message ?? `the gateway at ${baseUrl} answered ${response.status}`);
}
