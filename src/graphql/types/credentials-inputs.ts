import { z } from 'zod';
import { catalogue } from '../../engines/catalogue.js';
import type { EngineCredentialsLine } from '../../engines/descriptor.js';
import { builder } from '../builder.js';

/**
 * Each credentials engine's field of CreateInstanceInput and UpdateInstanceInput, its input types built
 * from its descriptor's schemas, once per process from the catalogue as it is then (docs/architecture.md,
 * "Credentials").
 */
type Which = 'create' | 'replace';
type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
type ScalarName = 'String' | 'Int' | 'Float' | 'Boolean';

const SCALARS: Record<string, ScalarName> = { string: 'String', integer: 'Int', number: 'Float', boolean: 'Boolean' };

interface JsonProperty {
  type?: string;
  anyOf?: JsonProperty[];
  description?: string;
}

/** The GraphQL scalar of a JSON Schema property (a nullable one is `anyOf` with null). */
function scalarOf(property: JsonProperty, where: string): ScalarName {
  const types = [property.type, ...(property.anyOf ?? []).map((part) => part.type)].filter((type) => type !== undefined && type !== 'null');
  const scalar = types.length === 1 ? SCALARS[types[0]!] : undefined;
  if (!scalar) throw new Error(`${where}: a credentials field must be a string, number or boolean to be a GraphQL input field`);
  return scalar;
}

/** A property's description, also when it sits on the non-null part of a nullable one. */
const descriptionOf = (property: JsonProperty) => property.description ?? property.anyOf?.find((part) => part.description)?.description;

function inputTypeOf(line: EngineCredentialsLine, which: Which) {
  const schema = line[which];
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, JsonProperty>; required?: string[]; description?: string };
  const properties = Object.entries(json.properties ?? {});
  const name = line.graphql[which];
  if (properties.length === 0) throw new Error(`${name}: an engine's credentials schema must be an object to be a GraphQL input type`);
  return {
    description: json.description,
    type: builder.inputType(name, {
      description: json.description,
      fields: (t) =>
        Object.fromEntries(
          properties.map(([key, property]) => [
            key,
            t.field({ type: scalarOf(property, `${name}.${key}`), required: json.required?.includes(key) ?? false, description: descriptionOf(property) }),
          ]),
        ),
    }),
  };
}

const lines = catalogue.descriptors().flatMap((descriptor) => (descriptor.credentials ? [descriptor.credentials] : []));
const types = lines.map((line) => ({ field: line.field, create: inputTypeOf(line, 'create'), replace: inputTypeOf(line, 'replace') }));

/** The credentials fields for an instance input: `create` for CreateInstanceInput, `replace` for UpdateInstanceInput. */
export function credentialsFields(t: PothosSchemaTypes.InputFieldBuilder<Types, 'InputObject'>, which: Which) {
  return Object.fromEntries(types.map((entry) => [entry.field, t.field({ type: entry[which].type, description: entry[which].description })]));
}
