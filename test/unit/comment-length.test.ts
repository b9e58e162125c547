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
function commentsOf(file: ts.SourceFile): { comments: Comment[]; overNoCode: Comment[] } {
  const text = file.getFullText();
  const seen = new Map<number, Comment>();
  const overNoCode: Comment[] = [];
  const visit = (node: ts.Node) => {
    const leading = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
    for (const range of leading) seen.set(range.pos, range);
    // A comment alone in its block says why the block is empty (a `catch {}`, JSX's `{/* … */}`).
    const closes = node.kind === ts.SyntaxKind.CloseBraceToken || node.kind === ts.SyntaxKind.EndOfFileToken;
    const siblings = node.parent?.getChildren(file) ?? [];
    const holdsCode = siblings.some((sibling) => sibling.kind === ts.SyntaxKind.SyntaxList && sibling.getChildCount(file) > 0);
    if (closes && holdsCode) overNoCode.push(...leading);
    for (const range of ts.getTrailingCommentRanges(text, node.getEnd()) ?? []) seen.set(range.pos, range);
    for (const child of node.getChildren(file)) visit(child);
  };
  visit(file);
  return { comments: [...seen.values()].sort((a, b) => a.pos - b.pos), overNoCode };
}

interface Block {
  line: number;
  lines: number;
}

/** Comment blocks: one `/* … *\/` each, or a run of `//` lines that hold nothing else. */
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
    if (comment.kind === ts.SyntaxKind.MultiLineCommentTrivia) {
      close();
      const lines = body
        .replace(/^\/\*+/, '')
        .replace(/\*+\/$/, '')
        .split('\n')
        .filter((line) => line.replace(/^\s*\*?/, '').trim() !== '').length;
      blocks.push({ line: lineOf(comment.pos) + 1, lines });
      continue;
    }
    const line = lineOf(comment.pos);
    const hasText = body.replace(/^\/\/+/, '').trim() !== '' ? 1 : 0;
    if (run && ownLine(comment) && line === run.last + 1) {
      run.last = line;
      run.lines += hasText;
    } else {
      close();
      run = { first: line, last: line, lines: hasText };
    }
  }
  close();
  return blocks;
}

const parse = (path: string) => {
  const text = readFileSync(join(root, path), 'utf8');
  const kind = path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  return { path: relative(root, join(root, path)), file, ...commentsOf(file) };
};
const files = sourceFiles('src').map(parse);

describe('comments', () => {
  it(`in src/ say why in at most ${MAX_LINES} lines a block`, () => {
    const long = files.flatMap(({ path, file, comments }) =>
      blocksOf(file, comments)
        .filter((block) => block.lines > MAX_LINES)
        .map((block) => `${path}:${block.line} (${block.lines} lines)`),
    );
    expect(long, `comment blocks over ${MAX_LINES} lines (move the reasoning to docs/ and cite it):\n${long.join('\n')}\n`).toEqual([]);
  });

  it('each sit over the code they speak of (in test/ too)', () => {
    const stray = [...files, ...sourceFiles('test').map(parse)].flatMap(({ path, file, overNoCode }) =>
      overNoCode.map((comment) => `${path}:${file.getLineAndCharacterOfPosition(comment.pos).line + 1}`),
    );
    expect(stray, `comments with no code after them in their block or file:\n${stray.join('\n')}\n`).toEqual([]);
  });
});
