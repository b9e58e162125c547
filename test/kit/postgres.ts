import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { POSTGRES_ADMIN_URL } from './modes.js';
import { postgresTemplate } from './templates.js';

/**
 * A fresh database for one gateway, dropped by the returned function: empty, or with `migrated` a copy
 * of the run's template. `name` when something else drops it; the global teardown drops leftovers.
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
