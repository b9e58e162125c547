import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { catalogue } from '../../src/engines/catalogue.js';
import { buildOpenApiDocument } from '../../src/rest/openapi/document.js';

type Json = Record<string, any>;

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

let documentCache: Json | undefined;
/** The gateway's OpenAPI document, as GET /openapi.json serves it (with every known engine's operations). */
export function openApiDocument(): Json {
  return (documentCache ??= JSON.parse(JSON.stringify(buildOpenApiDocument({ engines: catalogue.descriptors(), offered: catalogue.descriptors().map((engine) => engine.integration) }))) as Json);
}

let routes: Array<{ template: string; pattern: RegExp; params: number }> | undefined;
const validators = new Map<string, ValidateFunction | null>();
let ajv: Ajv2020 | undefined;

/** The documented path a request path falls under: the most literal template that matches. */
export function documentedPath(path: string): string | undefined {
  routes ??= Object.keys(openApiDocument().paths)
    .map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`),
      params: (template.match(/\{/g) ?? []).length,
    }))
    .sort((a, b) => a.params - b.params);
  return routes.find((route) => route.pattern.test(path))?.template;
}

function responseSchema(template: string, method: string, status: number): { documented: boolean; validate: ValidateFunction | null } {
  const doc = openApiDocument();
  let response = doc.paths[template]?.[method]?.responses?.[status];
  if (!response) return { documented: false, validate: null };
  if (response.$ref) response = doc.components.responses[response.$ref.split('/').pop()];
  const key = `${method} ${template} ${status}`;
  if (!validators.has(key)) {
    const schema = response.content?.['application/json']?.schema;
    if (!schema) validators.set(key, null);
    else {
      if (!ajv) {
        ajv = new Ajv2020({ strict: false, allErrors: true });
        addFormats(ajv);
      }
      // References point into the document's components; each schema carries them along.
      validators.set(key, ajv.compile({ ...schema, components: doc.components }));
    }
  }
  return { documented: true, validate: validators.get(key)! };
}

/**
 * Checks one real answer against the document: a documented operation answers only documented
 * statuses, with a body of the documented shape. Paths the document does not hold (GraphQL, a
 * path that does not exist) and methods it does not list (405) are not checked.
 */
export function checkResponse(method: string, url: string, status: number, contentType: string | null, body: unknown): void {
  const template = documentedPath(new URL(url).pathname);
  if (!template) return;
  const operation = openApiDocument().paths[template][method.toLowerCase()];
  if (!operation) return;
  const { documented, validate } = responseSchema(template, method.toLowerCase(), status);
  if (!documented) throw new Error(`OpenAPI: ${method} ${template} answered ${status}, which the document does not list`);
  if (validate && contentType?.includes('application/json') && !validate(body)) {
    throw new Error(`OpenAPI: ${method} ${template} ${status} does not match its documented schema: ${JSON.stringify(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
  }
}
