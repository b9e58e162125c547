import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRESENCE_STATES } from '../../src/domain/network/engine.port.js';

const root = join(import.meta.dirname, '..', '..');
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => join('docs', name))];
const read = (page: string) => readFileSync(join(root, page), 'utf8');

describe('the docs state what the code does', () => {
  it('the typing row of docs/messaging.md lists exactly the states the API takes', () => {
    const row = read('docs/messaging.md')
      .split('\n')
      .find((line) => line.startsWith('| `typing` |'));
    expect(row, 'the typing row').toBeDefined();
    const listed = [...row!.split('|')[2]!.matchAll(/`([a-z]+)`/g)].map((match) => match[1]);
    expect(listed.sort()).toEqual([...PRESENCE_STATES].sort());
  });

  it('no page cites sections of a document its readers do not have', () => {
    const cited = pages.flatMap((page) => [...read(page).matchAll(/\bspec(?:'s)? (?:§\s*)?\d+\.\d+/gi)].map((match) => `${page}: ${match[0]}`));
    expect(cited).toEqual([]);
  });

  it('every file of the repository a page or a source comment names exists', () => {
    const sources = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((name) => /\.tsx?$/.test(name) && !name.includes('generated'))
      .map((name) => join('src', name));
    const texts = [...pages, 'test/networks/README.md', ...sources].map((page) => ({ page, text: read(page) }));
    const named = texts.flatMap(({ page, text }) =>
      [...text.matchAll(/\b((?:src|test|scripts|docs)\/[\w./-]+\.(?:ts|tsx|mjs|md|sh))\b/g)].map((match) => ({ page, path: match[1]! })),
    );
    expect(named.length, 'paths found').toBeGreaterThan(50);
    const missing = named.filter(({ path }) => !existsSync(join(root, path))).map(({ page, path }) => `${page}: ${path}`);
    expect(missing).toEqual([]);
  });

  it('every section a source comment cites is in the page it names', () => {
    const sources = ['src', 'test'].flatMap((folder) =>
      readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
        .filter((name) => /\.tsx?$/.test(name) && !name.includes('generated'))
        .map((name) => join(folder, name)),
    );
    const cited = sources.flatMap((file) =>
      [...read(file).matchAll(/\b(docs\/[\w-]+\.md), ["']([^"'\n]+)["']/g)].map((match) => ({ file, page: match[1]!, section: match[2]! })),
    );
    expect(cited.length, 'citations found').toBeGreaterThan(20);
    const missing = cited.filter(({ page, section }) => !existsSync(join(root, page)) || !read(page).includes(section)).map(({ file, page, section }) => `${file}: ${page}, "${section}"`);
    expect(missing).toEqual([]);
  });
});
