import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Comments say why in at most three lines; longer reasoning goes to docs/ (docs/architecture.md, "Comments").
const MAX_LINES = 3;
const root = join(import.meta.dirname, '..', '..');
const GENERATED = ['src/dashboard/generated/', 'src/infra/db/generated/', 'test/graphql/generated/'];

function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return GENERATED.includes(`${path}/`) ? [] : sourceFiles(path);
    return /\.(ts|tsx|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

interface Comment {
  pos: number;
  end: number;
  kind: ts.CommentKind;
}

/** Every comment of a file once, read through the parser so strings, regexes and templates never count. */
function commentsOf(file: ts.SourceFile): Comment[] {
  const text = file.getFullText();
  const seen = new Map<number, Comment>();
  const visit = (node: ts.Node) => {
    for (const range of ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []) seen.set(range.pos, range);
    for (const range of ts.getTrailingCommentRanges(text, node.getEnd()) ?? []) seen.set(range.pos, range);
    for (const child of node.getChildren(file)) visit(child);
  };
  visit(file);
  return [...seen.values()].sort((a, b) => a.pos - b.pos);
}

/** The children of a block-like node that hold code, for the comments after the last of them. */
function listOf(node: ts.Node): ts.NodeArray<ts.Node> | undefined {
  if (ts.isBlock(node) || ts.isModuleBlock(node) || ts.isSourceFile(node) || ts.isCaseClause(node) || ts.isDefaultClause(node)) return node.statements;
  if (ts.isClassLike(node) || ts.isInterfaceDeclaration(node) || ts.isTypeLiteralNode(node) || ts.isEnumDeclaration(node)) return node.members;
  if (ts.isObjectLiteralExpression(node)) return node.properties;
  if (ts.isArrayLiteralExpression(node)) return node.elements;
  return undefined;
}

/** Comments after the last code of a block or file; one alone in an empty block says why it is empty. */
function overNoCode(file: ts.SourceFile): number[] {
  const text = file.getFullText();
  const found: number[] = [];
  const visit = (node: ts.Node) => {
    const last = listOf(node)?.at(-1);
    if (last) {
      const end = text[last.end] === ',' ? last.end + 1 : last.end;
      for (const range of ts.getLeadingCommentRanges(text, end) ?? []) found.push(range.pos);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

interface Block {
  line: number;
  lines: number;
}

/** Comment blocks: comments on lines of their own with no line between them (`/* … *\/` or `//`) are one. */
function blocksOf(file: ts.SourceFile, comments: Comment[]): Block[] {
  const text = file.getFullText();
  const lineOf = (pos: number) => file.getLineAndCharacterOfPosition(pos).line;
  const ownLine = (comment: Comment) => text.slice(text.lastIndexOf('\n', comment.pos - 1) + 1, comment.pos).trim() === '';
  const blocks: Block[] = [];
  let run: { first: number; last: number; lines: number } | undefined;
  const close = () => {
    if (run) blocks.push({ line: run.first + 1, lines: run.lines });
    run = undefined;
  };
  for (const comment of comments) {
    const body = text.slice(comment.pos, comment.end);
    const lines =
      comment.kind === ts.SyntaxKind.MultiLineCommentTrivia
        ? body
            .replace(/^\/\*+/, '')
            .replace(/\*+\/$/, '')
            .split('\n')
            .filter((line) => line.replace(/^\s*\*?/, '').trim() !== '').length
        : body.replace(/^\/\/+/, '').trim() !== ''
          ? 1
          : 0;
    const first = lineOf(comment.pos);
    if (run && ownLine(comment) && first === run.last + 1) {
      run.last = lineOf(comment.end);
      run.lines += lines;
    } else {
      close();
      run = { first, last: lineOf(comment.end), lines };
    }
  }
  close();
  return blocks;
}

const parse = (path: string) => {
  const text = readFileSync(join(root, path), 'utf8');
  const kind = path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return { path: relative(root, join(root, path)), file: ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, kind) };
};
const files = sourceFiles('src').map(parse);
const testFiles = sourceFiles('test').map(parse);

describe('comments', () => {
  it(`in src/ and test/ say why in at most ${MAX_LINES} lines a block`, () => {
    const long = [...files, ...testFiles].flatMap(({ path, file }) =>
      blocksOf(file, commentsOf(file))
        .filter((block) => block.lines > MAX_LINES)
        .map((block) => `${path}:${block.line} (${block.lines} lines)`),
    );
    expect(long, `comment blocks over ${MAX_LINES} lines (move the reasoning to docs/ and cite it):\n${long.join('\n')}\n`).toEqual([]);
  }, 120_000);

  it('each sit over the code they speak of (in test/ too)', () => {
    const stray = [...files, ...testFiles].flatMap(({ path, file }) =>
      overNoCode(file).map((pos) => `${path}:${file.getLineAndCharacterOfPosition(pos).line + 1}`),
    );
    expect(stray, `comments with no code after them in their block or file:\n${stray.join('\n')}\n`).toEqual([]);
  }, 120_000);
});
