import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { distEntry, startChildGateway, type ChildGateway } from '../../kit/process.js';
import { seedPgliteDataDir, testDataDir } from '../../kit/templates.js';

/**
 * Every shell sample of README.md and docs/*.md runs as written, against a gateway this test starts
 * the way the sample's page says. How blocks are marked: docs/development.md, "The docs' samples".
 */
const root = join(import.meta.dirname, '..', '..', '..');
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];

type Mark = { run: false; why: string } | { run: true; session: string; gateway: boolean };
interface Block {
  where: string;
  lang: string;
  text: string;
  mark?: Mark;
}

const MARK = /^<!-- sample: (.*) -->$/;

function markOf(words: string): Mark | string {
  const notRun = /^not run \((.+)\)$/.exec(words);
  if (notRun) return { run: false, why: notRun[1]! };
  const run = /^([a-z][a-z0-9-]*)( \(the gateway\))?$/.exec(words);
  if (run) return { run: true, session: run[1]!, gateway: Boolean(run[2]) };
  return `"${words}" is neither "<name>", "<name> (the gateway)" nor "not run (<why>)"`;
}

/** The fenced blocks of a page, each with the mark on the line before it (blank lines between allowed). */
function blocksOf(page: string): { blocks: Block[]; problems: string[] } {
  const lines = readFileSync(join(root, page), 'utf8').split('\n');
  const blocks: Block[] = [];
  const problems: string[] = [];
  let pending: { mark: Mark; line: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const marked = MARK.exec(line);
    if (marked) {
      const mark = markOf(marked[1]!);
      if (typeof mark === 'string') problems.push(`${page}:${i + 1}: ${mark}`);
      else pending = { mark, line: i + 1 };
      continue;
    }
    const fence = /^```(\S*)\s*$/.exec(line);
    if (fence) {
      const start = i;
      const body: string[] = [];
      for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]!);
      blocks.push({ where: `${page}:${start + 1}`, lang: fence[1]!, text: body.join('\n'), mark: pending?.mark });
      pending = undefined;
      continue;
    }
    if (pending && line.trim() !== '') {
      problems.push(`${page}:${pending.line}: a sample mark not followed by a fenced block`);
      pending = undefined;
    }
  }
  return { blocks, problems };
}

const parsed = pages.map(blocksOf);
const all = parsed.flatMap((page) => page.blocks);
const shell = all.filter((block) => block.lang === 'sh' || block.lang === 'bash');

/**
 * A sample's expected status, where it states one: a comment right after a curl command, or at the
 * end of its last line, that starts with a status (`# 201 {…}`, `# → 401 …`). The curl of such a
 * command must answer exactly that; every other curl must answer below 400.
 */
function withExpectations(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  const statusIn = (comment: string | undefined) => (comment ? /^#\s*(?:→\s*)?([1-5]\d\d)\b/.exec(comment.trim())?.[1] : undefined);
  for (let i = 0; i < lines.length; i++) {
    const command = [lines[i]!];
    while (command.at(-1)!.endsWith('\\') && i + 1 < lines.length) command.push(lines[++i]!);
    const last = command.at(-1)!;
    const trailing = /\s(#.*)$/.exec(last)?.[1];
    const status = statusIn(trailing) ?? statusIn(/^\s*#/.test(lines[i + 1] ?? '') ? lines[i + 1] : undefined);
    const joined = command.join('\n');
    out.push(status && /(^|[\s(|;])curl /.test(joined) ? joined.replace(/(^|[\s(|;])curl /, `$1SAMPLE_EXPECT=${status} curl `) : joined);
  }
  return out.join('\n');
}

/** What the session's shell defines before the samples: npm runs in the project, curl checks statuses. */
const PRELUDE = `
npm() { command npm --prefix "$SAMPLES_ROOT" "$@"; }
curl() {
  local body status
  body=$(mktemp)
  status=$(command curl -o "$body" -w '%{http_code}' "$@") || { cat "$body"; rm -f "$body"; echo "curl $*: no answer" >&2; return 1; }
  cat "$body"; rm -f "$body"
  if [ -n "\${SAMPLE_EXPECT:-}" ]; then
    [ "$status" = "$SAMPLE_EXPECT" ] || { echo "curl $*: HTTP $status, the sample says $SAMPLE_EXPECT" >&2; return 1; }
  elif [ "$status" -ge 400 ]; then
    echo "curl $*: HTTP $status" >&2; return 1
  fi
}
`;

/** The variables a gateway block starts `npm start` with (`A=1 B=2 npm start`). */
function gatewayEnv(block: Block): Record<string, string> {
  const command = block.text.replace(/\\\n/g, ' ').split('\n').find((line) => /\bnpm start\b/.test(line));
  if (!command) throw new Error(`${block.where}: a gateway block without npm start`);
  const env: Record<string, string> = {};
  for (const word of command.split(/\s+/)) {
    if (word === 'npm') break;
    const assignment = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(word);
    if (!assignment) throw new Error(`${block.where}: "${word}" before npm start is not VAR=value`);
    env[assignment[1]!] = assignment[2]!;
  }
  return env;
}

function runBash(script: string, env: Record<string, string>, cwd: string) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    // Its own process group, so whatever a sample leaves running in the background goes with it.
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
    child.stderr.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
    child.once('exit', (code) => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Nothing left in the group.
      }
      resolve({ code, output });
    });
  });
}

const sessions = new Map<string, Block[]>();
for (const block of shell) if (block.mark?.run) sessions.set(block.mark.session, [...(sessions.get(block.mark.session) ?? []), block]);

describe("the docs' samples", () => {
  const folders: string[] = [];
  const gateways: ChildGateway[] = [];
  afterAll(async () => {
    for (const gateway of gateways) await gateway.kill();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it('every shell block says whether and how it runs, and every mark is well formed', () => {
    expect(parsed.flatMap((page) => page.problems)).toEqual([]);
    expect(shell.filter((block) => !block.mark).map((block) => block.where)).toEqual([]);
    expect(all.filter((block) => block.mark && block.lang !== 'sh' && block.lang !== 'bash').map((block) => block.where)).toEqual([]);
    for (const [name, blocks] of sessions) expect(blocks.filter((block) => block.mark?.run && block.mark.gateway).length, `session ${name}: gateway blocks`).toBeLessThanOrEqual(1);
    expect(sessions.has('tour')).toBe(true);
  });

  it('every JSON block parses', () => {
    const bad = all.filter((block) => block.lang === 'json').flatMap((block) => {
      try {
        JSON.parse(block.text);
        return [];
      } catch (error) {
        return [`${block.where}: ${(error as Error).message}`];
      }
    });
    expect(bad).toEqual([]);
  });

  for (const [name, blocks] of sessions) {
    it(`session "${name}" runs as written against a gateway started as its page says`, { timeout: 150_000 }, async () => {
      const gatewayBlock = blocks.find((block) => block.mark?.run && block.mark.gateway);
      const env: Record<string, string> = { SAMPLES_ROOT: root };
      if (gatewayBlock) {
        const dataDir = testDataDir();
        folders.push(dataDir);
        seedPgliteDataDir(dataDir);
        const gateway = await startChildGateway({ ...gatewayEnv(gatewayBlock), DATA_DIR: dataDir });
        gateways.push(gateway);
        env.B = gateway.url;
      }
      const cwd = mkdtempSync(join(tmpdir(), 'mgw-samples-'));
      folders.push(cwd);
      const steps = blocks
        .filter((block) => block !== gatewayBlock)
        .map((block) => `echo '>>> ${block.where}' >&2\n${withExpectations(block.text)}`);
      const result = await runBash(`${PRELUDE}\n${steps.join('\n')}\necho '>>> done' >&2`, env, cwd);
      expect(result.code, `the last lines it printed:\n${result.output.slice(-3000)}`).toBe(0);
      expect(result.output).toContain('>>> done');
    });
  }
});

describe('npm run cli -- json, which the samples capture answers with', () => {
  const json = (path: string, input: string) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, [...distEntry('cli'), 'json', path], { env: { PATH: process.env.PATH ?? '' } });
      let stdout = '';
      let stderr = '';
      child.stdout!.on('data', (chunk) => (stdout += chunk));
      child.stderr!.on('data', (chunk) => (stderr += chunk));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
      child.stdin!.end(input);
    });

  it('prints a string as it is, anything else as JSON, and counts -1 as a list’s last', async () => {
    const answer = JSON.stringify({ success: true, data: { key: 'mgw_test_x', list: [{ id: 1 }, { id: 2, tags: ['a'] }] } });
    expect(await json('data.key', answer)).toMatchObject({ code: 0, stdout: 'mgw_test_x\n' });
    expect(await json('data.list.0.id', answer)).toMatchObject({ code: 0, stdout: '1\n' });
    expect(await json('data.list.-1', answer)).toMatchObject({ code: 0, stdout: '{"id":2,"tags":["a"]}\n' });
  });

  it('refuses input that is not JSON, and a path the JSON does not have, with exit 2 and a line saying which', async () => {
    expect(await json('data.id', 'not json')).toMatchObject({ code: 2, stderr: 'error: standard input is not JSON\n' });
    expect(await json('data.id', '{"data":{}}')).toMatchObject({ code: 2, stderr: 'error: no data.id in the JSON read (id is missing)\n' });
    expect(await json('data.toString', '{"data":{}}')).toMatchObject({ code: 2 });
    expect(await json('data.5', '{"data":[1]}')).toMatchObject({ code: 2 });
  });
});
