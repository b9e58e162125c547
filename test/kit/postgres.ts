import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { POSTGRES_ADMIN_URL } from './modes.js';
import { postgresTemplate } from './templates.js';

/**
 * A fresh database for one gateway; dropped again by the returned function. Empty, or with
 * `migrated`, a copy of the suite's migrated template (when the suite made one), which a gateway
 * starts on without running the schema engine. `name` when something else drops it (a shared gateway's).
 * Within a run its name starts with the template's, so the global teardown drops it too when nothing
 * else did (a gateway closed only through `gateway.close()`, or one a later start reused).
 */
export async function createTestDatabase(options: { migrated?: boolean; name?: string } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = options.name ?? `${postgresTemplate() ?? 'mgw_test'}_t_${randomBytes(6).toString('hex')}`;
  const template = options.migrated ? postgresTemplate() : undefined;
  await withAdmin((client) => client.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`));
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}

/** One statement batch on the admin database, over a connection of its own. */
export async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
