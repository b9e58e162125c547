/**
 * What a `.cpuprofile` (from `cpu-profile.mjs`) says, as text: the share of samples by function (self
 * time, and total time: the function and what it called), and by file or package. Usage:
 * npx tsx test/bench/cpu-profile-summary.ts <file.cpuprofile> [--top 40] [--match <text in a function's name or file>]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '40' }, match: { type: 'string' } } });
const profile = JSON.parse(readFileSync(positionals[0]!, 'utf8')) as { nodes: Node[]; samples: number[] };
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const hits = new Map<number, number>();
for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
const total = profile.samples.length;

const where = (node: Node) => {
  const url = node.callFrame.url.replace(/^file:\/\//, '');
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  return pkg ?? (url ? url.replace(process.cwd() + '/', '') : '(native)');
};
const nameOf = (node: Node) => `${node.callFrame.functionName || '(anonymous)'} ${where(node)}:${node.callFrame.lineNumber + 1}`;

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
const files = new Map<string, number>();
for (const [id, count] of hits) {
  const node = byId.get(id)!;
  self.set(nameOf(node), (self.get(nameOf(node)) ?? 0) + count);
  files.set(where(node), (files.get(where(node)) ?? 0) + count);
  // Each function on the stack once, however deep it recurses.
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const name = nameOf(byId.get(at)!);
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + count);
  }
}
const top = (map: Map<string, number>) =>
  [...map]
    .filter(([name]) => !values.match || name.includes(values.match))
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(values.top))
    .map(([name, count]) => `${((100 * count) / total).toFixed(1).padStart(5)} %  ${name}`)
    .join('\n');
console.log(`${total} samples\n\nself, by function:\n${top(self)}\n\ntotal, by function:\n${top(inclusive)}\n\nself, by file or package:\n${top(files)}`);
