// npm test: the type check runs beside the tests at the lowest CPU priority, filling the time they
// wait on sockets and timers (docs/development.md, "Tests"). Its output follows the tests'; either
// failing fails the run.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));

function run(args, { capture, background = false }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', capture ? 'pipe' : 'inherit', capture ? 'pipe' : 'inherit'] });
    // Without a pid (the spawn failed) setPriority would lower this process instead.
    if (background && child.pid) lowerPriority(child.pid);
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.once('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

async function typecheck() {
  const server = await run([tsc, '--noEmit'], { capture: true, background: true });
  const dashboard = await run([tsc, '--noEmit', '-p', 'src/dashboard'], { capture: true, background: true });
  return { code: server.code || dashboard.code, output: server.output + dashboard.output };
}

const [types, tests] = await Promise.all([typecheck(), run([vitest, 'run', ...process.argv.slice(2)], { capture: false })]);
if (types.code !== 0) process.stderr.write(`\ntype check failed:\n${types.output}`);
else process.stdout.write('type check passed (server, tests and dashboard)\n');
process.exit(tests.code || types.code);

function lowerPriority(pid) {
  try {
    setPriority(pid, 19);
  } catch {
    // A system that refuses it runs the check at normal priority, as before.
  }
}
