import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { openApiDocument } from './openapi-check.js';

type Schema = Record<string, any>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/** Values the document cannot know: URLs that resolve here, by format. */
export interface Fixtures {
  uri: string;
}

const capped = (max: number | undefined, cap: number) => Math.min(max ?? cap, cap);

/**
 * Values of a JSON Schema as a client generated from the document would send them: patterns,
 * lengths, enums, formats and required fields honoured. Constraints across fields (oneOf, anyOf of
 * `required`, if/then) are left to a check with the full schema afterwards.
 */
function arbitraryOf(schema: Schema, fixtures: Fixtures): fc.Arbitrary<unknown> {
  const doc = openApiDocument();
  if (schema.$ref) return arbitraryOf(doc.components.schemas[String(schema.$ref).split('/').pop()!], fixtures);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives = (schema.anyOf ?? schema.oneOf)?.filter((s: Schema) => s.type || s.$ref || s.enum || s.anyOf);
  if (alternatives?.length) return fc.oneof(...alternatives.map((s: Schema) => arbitraryOf(s, fixtures)));
  const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'string'];
  if (types.length > 1) return fc.oneof(...types.map((type) => arbitraryOf({ ...schema, type }, fixtures)));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: schema.minimum ?? 0, max: schema.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -90, max: schema.maximum ?? 90, noNaN: true });
    case 'array':
      // uniqueItems: no value twice, as the document says (compared as JSON).
      return (schema.uniqueItems ? fc.uniqueArray : fc.array)(arbitraryOf(schema.items ?? {}, fixtures), { minLength: schema.minItems ?? 0, maxLength: capped(schema.maxItems, 3), ...(schema.uniqueItems ? { selector: (value: unknown) => JSON.stringify(value) } : {}) });
    case 'object': {
      const properties: Record<string, Schema> = schema.properties ?? {};
      const record = Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, arbitraryOf(value, fixtures)]));
      return fc.record(record, { requiredKeys: (schema.required ?? []).filter((key: string) => key in properties) });
    }
    default: {
      if (schema.format === 'uri') return fc.constant(fixtures.uri);
      if (schema.format === 'base64') return fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('base64'));
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.format === 'date-time') return fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01') }).map((date) => date.toISOString());
      const min = schema.minLength ?? 0;
      const max = capped(schema.maxLength, Math.max(min, 40));
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter((text) => text.length >= min && text.length <= (schema.maxLength ?? Infinity));
      return fc.string({ minLength: min, maxLength: max });
    }
  }
}

/**
 * `count` request bodies of one operation, generated from its documented schema (each valid against
 * the whole schema, cross-field rules included), reproducible by `seed`.
 */
export function documentedBodies(path: string, method: string, count: number, fixtures: Fixtures, seed = 41): unknown[] {
  const schema = openApiDocument().paths[path]?.[method]?.requestBody?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`the document has no JSON body for ${method} ${path}`);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile({ ...schema, components: openApiDocument().components });
  return fc.sample(arbitraryOf(schema, fixtures).filter((value) => validate(value) === true), { numRuns: count, seed });
}
