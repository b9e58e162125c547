import { randomBytes } from 'node:crypto';
import type { Gateway } from '../../src/gateway.js';
import type { Client } from '../helpers/http.js';

export interface TestTenant {
  tenantId: string;
  email: string;
  password: string;
  /** `auth-session=<token>` of a logged-in user of the tenant. */
  cookie: string;
  liveKey: string;
  testKey: string;
}

/** A tenant with a user, a logged-in session and one production and one test key, made through the API. */
export async function createTenant(gateway: Gateway, api: Client, plan: 'starter' | 'pro' | 'enterprise' = 'pro'): Promise<TestTenant> {
  const email = `user-${randomBytes(4).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const tenant = await gateway.services.tenants.createTenant({ name: email, plan });
  await gateway.services.tenants.createUser({ tenantId: tenant.id, email, password });
  const cookie = await login(api, email, password);
  const liveKey = await createKey(api, cookie, { name: 'live', testMode: false });
  const testKey = await createKey(api, cookie, { name: 'test', testMode: true });
  return { tenantId: tenant.id, email, password, cookie, liveKey, testKey };
}

export async function login(api: Client, email: string, password: string): Promise<string> {
  const response = await api.post('/auth/sessions', { body: { email, password } });
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${response.text}`);
  const setCookie = response.headers.get('set-cookie') ?? '';
  const match = /auth-session=([^;]+)/.exec(setCookie);
  if (!match) throw new Error(`no session cookie in ${setCookie}`);
  return `auth-session=${match[1]}`;
}

export async function createKey(api: Client, cookie: string, body: Record<string, unknown>): Promise<string> {
  const response = await api.post('/api-keys', { cookie, body });
  if (response.status !== 201) throw new Error(`key creation failed: ${response.status} ${response.text}`);
  return response.body.data.key;
}
