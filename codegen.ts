import type { CodegenConfig } from '@graphql-codegen/cli';

// Prints the SDL of the Pothos schema, and types the operations the dashboard and the tests send
// (written with the generated `graphql()` functions). A test fails when any output is stale.
const config: CodegenConfig = {
  schema: './src/graphql/schema.ts',
  generates: {
    'schema/schema.graphql': {
      plugins: ['schema-ast'],
      config: { includeDirectives: false, commentDescriptions: false, sort: true },
    },
    'src/dashboard/generated/': {
      preset: 'client',
      documents: ['src/dashboard/**/*.{ts,tsx}', '!src/dashboard/generated/**'],
      presetConfig: { fragmentMasking: false },
      config: {
        emitLegacyCommonJSImports: false,
        enumsAsTypes: true,
        useTypeImports: true,
        scalars: { DateTime: 'string' },
      },
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
