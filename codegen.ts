import type { CodegenConfig } from '@graphql-codegen/cli';

// Prints the SDL of the Pothos schema, and types the operations the tests send (written with the
// generated `graphql()` function under test/). A test fails when either output is stale.
const config: CodegenConfig = {
  schema: './src/graphql/schema.ts',
  generates: {
    'schema/schema.graphql': {
      plugins: ['schema-ast'],
      config: { includeDirectives: false, commentDescriptions: false, sort: true },
    },
    'test/graphql/generated/': {
      preset: 'client',
      documents: ['test/**/*.ts', '!test/graphql/generated/**'],
      presetConfig: { fragmentMasking: false },
      config: {
        emitLegacyCommonJSImports: false,
        enumsAsTypes: true,
        useTypeImports: true,
        scalars: { DateTime: 'string' },
      },
    },
  },
  silent: true,
};

export default config;
