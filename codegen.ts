import type { CodegenConfig } from '@graphql-codegen/cli';

// Prints the SDL of the Pothos schema; a test fails when schema/schema.graphql is stale.
const config: CodegenConfig = {
  schema: './src/graphql/schema.ts',
  generates: {
    'schema/schema.graphql': {
      plugins: ['schema-ast'],
      config: { includeDirectives: false, commentDescriptions: false, sort: true },
    },
  },
  silent: true,
};

export default config;
