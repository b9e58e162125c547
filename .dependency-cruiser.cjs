// The import rules of docs/architecture.md ("Layers"), checked by test/unit/architecture.test.ts
// (also: npx depcruise src --config .dependency-cruiser.cjs).
const GENERATED = '^src/(infra/db|dashboard)/generated/';
const ENTRY = '^src/(app|gateway|main|cli|admin-client)[.]ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No module reaches itself again through its imports, type-only imports counted (generated code aside).',
      severity: 'error',
      from: { path: '^src/', pathNot: GENERATED },
      to: { circular: true },
    },
    {
      name: 'domain-imports-only-domain',
      comment: 'The domain imports nothing of the gateway: no other folder of src/, no entry file.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: '^src/domain/' },
    },
    {
      name: 'domain-free-of-http-graphql-prisma',
      comment: 'The domain uses no HTTP server, GraphQL or Prisma package.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '(^|/)node_modules/(koa|@koa|graphql|graphql-yoga|graphql-ws|@graphql-yoga|@pothos|@prisma|ioredis|pino)/' },
    },
    {
      name: 'config-imports-only-domain',
      comment: 'config.ts (with config-plans.ts) imports only the domain.',
      severity: 'error',
      from: { path: '^src/config(-plans)?[.]ts$' },
      to: { path: '^src/', pathNot: ['^src/domain/', '^src/config(-plans)?[.]ts$'] },
    },
    {
      name: 'infra-imports-domain-and-config',
      comment: 'infra/ is plumbing: it imports the domain, config.ts and itself, never an engine or a transport.',
      severity: 'error',
      from: { path: '^src/infra/' },
      to: { path: '^src/', pathNot: ['^src/domain/', '^src/infra/', '^src/config(-plans)?[.]ts$'] },
    },
    {
      name: 'http-below-engines',
      comment: 'http/ (what every HTTP surface shares) imports nothing of engines, REST, GraphQL, compose or the entry files.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: ['^src/(engines|rest|graphql|compose|dashboard)/', ENTRY] },
    },
    {
      name: 'engines-import-nothing-above',
      comment: 'Engines import the domain, config, infra/ and http/; nothing of REST, GraphQL, compose or the entry files.',
      severity: 'error',
      from: { path: '^src/engines/' },
      to: { path: ['^src/(rest|graphql|compose|dashboard)/', ENTRY] },
    },
    {
      name: 'compose-below-transports',
      comment: 'The composition root sits below the HTTP app: nothing of REST, GraphQL or the entry files.',
      severity: 'error',
      from: { path: '^src/compose/' },
      to: { path: ['^src/(rest|graphql|dashboard)/', ENTRY] },
    },
    {
      name: 'graphql-never-imports-rest',
      comment: 'The two transports share only the domain and http/.',
      severity: 'error',
      from: { path: '^src/graphql/' },
      to: { path: '^src/rest/' },
    },
    {
      name: 'rest-never-imports-graphql',
      comment: 'The two transports share only the domain and http/.',
      severity: 'error',
      from: { path: '^src/rest/' },
      to: { path: '^src/graphql/' },
    },
    {
      name: 'compat-is-a-thin-adapter',
      comment: 'An API-compatibility adapter (src/compat/, docs/evolution.md) calls the domain\'s services only: it imports the domain, http/ and itself; no store, engine, infra/, REST, GraphQL, compose or entry file.',
      severity: 'error',
      from: { path: '^src/compat/' },
      to: { path: '^src/', pathNot: ['^src/domain/', '^src/http/', '^src/compat/'] },
    },
    {
      name: 'compat-apart-from-transports',
      comment: 'REST, GraphQL, engines, compose and infra/ never import a compatibility adapter; only the app mounts it.',
      severity: 'error',
      from: { path: '^src/(rest|graphql|engines|compose|infra|http|domain)/' },
      to: { path: '^src/compat/' },
    },
    {
      name: 'dashboard-apart',
      comment: 'The dashboard is a bundle of its own: it imports no server module, and no server module imports it.',
      severity: 'error',
      from: { path: '^src/dashboard/' },
      to: { path: '^src/', pathNot: '^src/dashboard/' },
    },
    {
      name: 'server-never-imports-dashboard',
      comment: 'The server serves the dashboard built, never its sources.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/dashboard/' },
      to: { path: '^src/dashboard/' },
    },
    {
      name: 'no-test-code-in-src',
      comment: 'Test code (test/, *.test.ts) is never imported from src/.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: ['^test/', '[.](test|spec)[.][cm]?[jt]sx?$'] },
    },
  ],
  options: {
    // `import type` counts: a circle of types is still a circle in the design.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/dashboard/generated/' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};
