import type { ObjectRef } from '@pothos/core';
import { builder } from '../builder.js';

/** Connections count their whole list: a number, or a function the prisma connections hand over that counts. */
async function totalCountOf(connection: unknown): Promise<number> {
  const { totalCount } = connection as { totalCount?: number | (() => number | Promise<number>) };
  return (typeof totalCount === 'function' ? await totalCount() : totalCount) ?? 0;
}

/**
 * The one connection type of an entity (`InstanceConnection`, `InstanceEdge`), shared by every list
 * of it, so a client cache pages and merges them the same way.
 */
export function entityConnection<T>(type: ObjectRef<typeof builder extends PothosSchemaTypes.SchemaBuilder<infer Types> ? Types : never, T>, name: string, plural: string) {
  return builder.connectionObject(
    {
      type,
      name: `${name}Connection`,
      description: `A page of ${plural}.`,
      fields: (t) => ({
        totalCount: t.int({ description: `How many ${plural} the whole list holds (with its filter).`, resolve: totalCountOf }),
      }),
    },
    { name: `${name}Edge`, description: `One of the ${plural} of a page, with its cursor.` },
  );
}
