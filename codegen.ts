import type { CodegenConfig } from '@graphql-codegen/cli';

/** Typed documents for the operations written with `graphql()` in `documents`, generated next to them. */
const typedDocuments = (documents: string[]) => ({
  preset: 'client' as const,
  documents,
  presetConfig: { fragmentMasking: false },
  config: {
    emitLegacyCommonJSImports: false,
    enumsAsTypes: true,
    useTypeImports: true,
    scalars: { DateTime: 'string' },
  },
});

// Prints the SDL of the Pothos schema, and types the operations the dashboard and the tests send
// (written with the generated `graphql()` functions). A test fails when any output is stale.
const config: CodegenConfig = {
  schema: './src/graphql/schema.ts',
  generates: {
    'schema/schema.graphql': {
      plugins: ['schema-ast'],
      config: { includeDirectives: false, commentDescriptions: false, sort: true },
    },
    'src/dashboard/generated/': typedDocuments(['src/dashboard/**/*.{ts,tsx}', '!src/dashboard/generated/**']),
    'test/graphql/generated/': typedDocuments(['test/**/*.ts', '!test/graphql/generated/**']),
  },
  silent: true,
};

export default config;
