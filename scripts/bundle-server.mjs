// The server's entry point as one bundle (dist/main.js, what first requests need; what loads on first
// use in chunks beside it, dist/chunks/): Node then reads, resolves and compiles a handful of files
// at start instead of ~1,300 (docs/benchmarks.md, "Start"). The admin CLI (dist/cli.js) likewise, with
// the code both use in shared chunks. tsc's dist/ stays as it is beside them: the worker threads run
// from it. Packages that find files of their own next to their code
// (WebAssembly, worker scripts, static assets) and the engine library loaded on first use stay
// outside, imported from node_modules as before.
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

// graphql 16 ships its ES modules as `.mjs` beside each CommonJS file, but names only the CommonJS
// build in `main`, so the bundle took that one: every call into it (thousands per GraphQL request:
// type checks, the executor, the value coercion) went through the getters of a CommonJS namespace,
// about 4 µs of each request (docs/benchmarks.md, "GraphQL's calls into graphql-js"). Bundled from the
// `.mjs` files, they are plain calls. One copy still serves every importer, `require` included.
// That one copy also makes graphql's development-mode `instanceOf` pointless: on a miss it reads class
// names to tell a second copy of graphql from another type (about 3.5 µs of each request), and the
// bundle cannot hold a second copy. It takes the production branch, as under NODE_ENV=production;
// everything else keeps reading NODE_ENV. Tests run the sources, where the check stays.
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
