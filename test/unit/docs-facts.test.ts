import { readdirSync, readFileSync } from 'node:fs';
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
});
