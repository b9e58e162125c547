/** The two running modes every integration suite runs in. */
export interface Mode {
  name: string;
  database: 'pglite' | 'postgres';
  redis: boolean;
}

export const MODES: Mode[] = [
  { name: 'embedded (PGlite, in-process stores)', database: 'pglite', redis: false },
  { name: 'PostgreSQL + Redis', database: 'postgres', redis: true },
];

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
