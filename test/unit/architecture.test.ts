import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cruise, type IConfiguration, type ICruiseResult } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { beforeAll, describe, expect, it } from 'vitest';

// The import rules of docs/architecture.md ("Layers"), from the repo's .dependency-cruiser.cjs.
const root = join(import.meta.dirname, '..', '..');
const config = createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs')) as IConfiguration;

let result: ICruiseResult;

beforeAll(async () => {
  const cwd = process.cwd();
  process.chdir(root);
  try {
    const answer = await cruise(
      ['src'],
      { ...config.options, validate: true, ruleSet: { forbidden: config.forbidden } },
      undefined,
      { tsConfig: extractTSConfig(join(root, 'tsconfig.json')) },
    );
    result = answer.output as ICruiseResult;
  } finally {
    process.chdir(cwd);
  }
}, 120_000);

describe('the import graph of src/', () => {
  it('reads every layer, type-only imports included', () => {
    const sources = result.modules.map((module) => module.source);
    for (const folder of ['domain', 'engines', 'infra', 'http', 'compose', 'rest', 'graphql', 'dashboard', 'compat']) {
      expect(sources.some((source) => source.startsWith(`src/${folder}/`)), folder).toBe(true);
    }
    const typeOnly = result.modules.flatMap((module) => module.dependencies).filter((dependency) => dependency.dependencyTypes.includes('type-only'));
    expect(typeOnly.length).toBeGreaterThan(0);
  });

  it('breaks none of the rules of docs/architecture.md', () => {
    const violations = result.summary.violations.map((violation) => {
      const path = violation.cycle?.length ? [violation.from, ...violation.cycle.map((step) => step.name)].join(' → ') : `${violation.from} → ${violation.to}`;
      return `${violation.rule.name}: ${path}`;
    });
    expect(violations, `import rules broken (.dependency-cruiser.cjs says why each holds):\n${violations.join('\n')}\n`).toEqual([]);
  });

  it('keeps the Evolution adapter thin: it imports only the domain (its services and their types), http/ and itself', () => {
    const adapter = result.modules.filter((module) => module.source.startsWith('src/compat/evolution/'));
    expect(adapter.length).toBeGreaterThan(3);
    const reached = adapter.flatMap((module) => module.dependencies.map((dependency) => dependency.resolved)).filter((path) => path.startsWith('src/'));
    const outside = reached.filter((path) => !/^src\/(domain|http|compat)\//.test(path));
    expect(outside, 'the adapter reaches past the domain').toEqual([]);
    // No store, engine or infra module, even through the domain's folders: the services are its way in.
    expect(reached.filter((path) => /(^src\/(infra|engines)\/)|stores?\//.test(path))).toEqual([]);
    expect(reached).toContain('src/domain/services.ts');
  });
});
