// The server's entry point as one bundle (dist/main.js, what first requests need; what loads on first
// use in chunks beside it, dist/chunks/): Node then reads, resolves and compiles a handful of files
// at start instead of ~1,300 (docs/benchmarks.md, "Start"). tsc's dist/ stays as it is beside it: the
// CLI and the worker threads run from it. Packages that find files of their own next to their code
// (WebAssembly, worker scripts, static assets) and the engine library loaded on first use stay
// outside, imported from node_modules as before.
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
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

await build({
  absWorkingDir: root,
  entryPoints: { main: 'src/main.ts' },
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  external: EXTERNAL,
  plugins: [fileUrls],
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
