import { BufferJSON } from 'baileys';

/**
 * The library's key store values as text and back, in the library's own JSON form (`BufferJSON`: a
 * Buffer as `{type: 'Buffer', data: <base64>}`).
 *
 * Reading goes through every get() of the library (a session is read several times for each message
 * it encrypts). `JSON.parse` with the library's reviver calls back into JS for every value of the
 * text, strings and numbers included, and took 2.5–3 times as long as a plain parse followed by a walk
 * that hands the reviver only the objects and arrays: primitives are returned unchanged by it anyway,
 * and the walk visits children before their parent, as `JSON.parse` does, so the result is the same.
 */
export const encodeStored = (value: unknown): string => JSON.stringify(value, BufferJSON.replacer);

export function decodeStored<T>(text: string): T {
  const value: unknown = JSON.parse(text);
  return (typeof value === 'object' && value !== null ? revive(value) : value) as T;
}

function revive(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const child: unknown = value[i];
      if (typeof child === 'object' && child !== null) value[i] = revive(child);
    }
  } else {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const child = record[key];
      if (typeof child !== 'object' || child === null) continue;
      const revived = revive(child);
      // A parsed `__proto__` is an own property: plain assignment would set the prototype instead.
      if (revived !== child) Object.defineProperty(record, key, { value: revived, writable: true, enumerable: true, configurable: true });
    }
  }
  return BufferJSON.reviver('', value);
}
