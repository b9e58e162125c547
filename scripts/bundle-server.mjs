// The server (dist/main.js, chunks loaded on first use beside it) and the admin CLI as bundles, so a start
// compiles a handful of files instead of ~1,300 (docs/architecture.md, "The plumbing, why"). tsc's dist/
// stays for the worker threads; packages with files of their own beside their code stay in node_modules.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = fileURLToPath(new URL('../src/', import.meta.url));

const EXTERNAL = [
  '@electric-sql/pglite',
  'pglite-prisma-adapter',
  '@prisma/*',
  // Shared with @prisma/adapter-pg (outside): one copy of the driver, not one in the bundle and one beside it.
  'pg',
  'baileys',
  'pino',
  'thread-stream',
  'swagger-ui-dist',
  'tsx',
  // Loaded on first use with import(): a CommonJS package split into a chunk of its own would offer
  // only `default` there, where Node's loader also offers its named exports.
  'undici',
  'amqplib',
  '@nats-io/*',
  'qrcode',
  '@aws-sdk/*',
];

// `import.meta.url` in a source file stands for where tsc puts that file in dist/ (paths made relative
// to it, e.g. the dashboard's folder or a worker's script, stay right inside the bundle).
const fileUrls = {
  name: 'file-urls',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (!args.path.startsWith(src)) return undefined;
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return { contents: text, loader: 'ts' };
      const built = relative(src, args.path).replace(/\.ts$/, '.js').split('\\').join('/');
      return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(built)}, __distRoot).href`), loader: 'ts' };
    });
  },
};

// graphql bundled from its `.mjs` files, whose calls are plain, not through a CommonJS namespace's getters;
// one copy for every importer, so `instanceOf` takes its production branch (docs/architecture.md,
// "The plumbing, why"). Tests run the sources, where the check stays.
const graphqlDir = join(root, 'node_modules', 'graphql');
const graphqlAsModules = {
  name: 'graphql-as-modules',
  setup(build) {
    build.onResolve({ filter: /^graphql(\/.*)?$/ }, (args) => {
      const sub = args.path.slice('graphql'.length).replace(/^\//, '').replace(/\.m?js$/, '');
      const candidates = sub ? [join(graphqlDir, `${sub}.mjs`), join(graphqlDir, sub, 'index.mjs')] : [join(graphqlDir, 'index.mjs')];
      const path = candidates.find((file) => existsSync(file));
      if (!path) throw new Error(`graphql-as-modules: no .mjs for ${args.path}`);
      return { path };
    });
    build.onLoad({ filter: /[\\/]graphql[\\/]jsutils[\\/]instanceOf\.mjs$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const check = /const isProduction =[^;]*;/;
      if (!check.test(text)) throw new Error('graphql-as-modules: instanceOf.mjs no longer reads NODE_ENV as expected');
      return { contents: text.replace(check, 'const isProduction = true;'), loader: 'js' };
    });
  },
};

await build({
  absWorkingDir: root,
  entryPoints: { main: 'src/main.ts', cli: 'src/cli.ts' },
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  external: EXTERNAL,
  plugins: [fileUrls, graphqlAsModules],
  // CommonJS packages inside an ES module bundle still `require` Node's own modules and read `__dirname`.
  banner: {
    js: [
      "import { createRequire as __createRequire } from 'node:module';",
      'const require = __createRequire(import.meta.url);',
      "import { fileURLToPath as __fileURLToPath } from 'node:url';",
      'const __filename = __fileURLToPath(import.meta.url); const __dirname = __fileURLToPath(new URL(".", import.meta.url));',
      "const __distRoot = new URL(import.meta.url.includes('/dist/chunks/') ? '../' : './', import.meta.url);",
    ].join(' '),
  },
  logLevel: 'warning',
});
