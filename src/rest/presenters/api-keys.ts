import type { z } from 'zod';
import type * as documented from '../openapi/schemas.js';
import type { ApiKeyRecord } from '../../domain/apikeys/apikeys.ports.js';

/** Creation answer, exactly the spec's fields; the only time `key` is ever shown. */
export function presentCreatedApiKey(record: ApiKeyRecord & { key: string }): z.output<typeof documented.ApiKeyCreated> {
  return { id: record.id, name: record.name, key: record.key, testMode: record.testMode, createdAt: record.createdAt.toISOString() };
}

/** Listing: never the key, a display prefix instead. */
export function presentApiKey(record: ApiKeyRecord): z.output<typeof documented.ApiKey> {
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    testMode: record.testMode,
    keyPrefix: record.keyPrefix,
    createdAt: record.createdAt.toISOString(),
    lastUsedAt: record.lastUsedAt?.toISOString() ?? null,
  };
}
