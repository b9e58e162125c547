import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

/** The most JavaScript the first page may load, gzipped (DASHBOARD_BUDGET_KB lowers it, for the test of this check). */
const BUDGET_BYTES = Number(process.env.DASHBOARD_BUDGET_KB ?? 150) * 1024;

/**
 * Fails the build when the JavaScript the first page loads (the entry and what it imports
 * statically; lazy chunks excluded) is over budget, gzipped.
 */
function bundleBudget(): Plugin {
  return {
    name: 'bundle-budget',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? [item] : []));
      const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const firstPage = new Set<string>();
      const visit = (fileName: string) => {
        if (firstPage.has(fileName)) return;
        firstPage.add(fileName);
        for (const imported of byName.get(fileName)?.imports ?? []) visit(imported);
      };
      for (const chunk of chunks) if (chunk.isEntry) visit(chunk.fileName);
      const bytes = [...firstPage].reduce((sum, name) => sum + gzipSync(byName.get(name)!.code).length, 0);
      const line = `dashboard first page: ${(bytes / 1024).toFixed(1)} KB of JavaScript gzipped (budget ${BUDGET_BYTES / 1024} KB)`;
      if (bytes > BUDGET_BYTES) this.error(`${line}: over budget`);
      // Printed whatever the log level: the build's one figure worth watching.
      console.log(line);
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // No inline scripts or styles anywhere: the page's CSP allows only files from its own origin.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2022',
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  plugins: [bundleBudget()],
});
