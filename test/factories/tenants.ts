import { randomBytes } from 'node:crypto';
import { hashPassword } from '../../src/domain/auth/password.js';
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

/**
 * Every user this process makes has the same password, hashed once: the hash is slow on purpose, and the
 * auth suites, whose subject it is, sign in through the API (docs/development.md, "Tests": "Test tenants").
 */
const password = `pw-${randomBytes(8).toString('hex')}`;
let hashed: Promise<string> | undefined;
const passwordHash = () => (hashed ??= hashPassword(password));

/**
 * A tenant with a user, a session opened for the user as signing in opens one, and one production
 * and one test key made through the API. The user can sign in with `email` and `password`.
 */
export async function createTenant(gateway: Gateway, api: Client, plan = 'pro'): Promise<TestTenant> {
  const email = `user-${randomBytes(4).toString('hex')}@example.com`;
  const tenant = await gateway.services.tenants.createTenant({ name: email, plan });
  const user = await gateway.infra.db.prisma.user.create({ data: { tenantId: tenant.id, email, passwordHash: await passwordHash() } });
  const session = await gateway.services.auth.openSession(user, tenant);
  const cookie = `auth-session=${session.token}`;
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
