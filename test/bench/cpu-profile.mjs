/**
 * Node 20 refuses `--cpu-prof` in NODE_OPTIONS, so a benchmark that starts the gateway as users do
 * (`npm start`) profiles it with this preload instead: `--import <this file>` in NODE_OPTIONS, with
 * CPU_PROFILE_DIR set. Only the gateway's process (dist/main.js) is profiled, not npm's own: its main
 * thread, as `<pid>.cpuprofile`, and each of its worker threads (the embedded database's, the event
 * publisher's), as `<pid>-thread<id>.cpuprofile`, each written when the thread exits (the gateway
 * closes its database's thread on SIGTERM; a thread still running when the process exits writes
 * nothing). Chrome's DevTools and `cpu-profile-summary.ts` read them.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { isMainThread, threadId } from 'node:worker_threads';

const dir = process.env.CPU_PROFILE_DIR;
// A worker's argv does not name the script of its process; a preload runs in a worker only when the
// process it belongs to was started with it.
if (dir && (!isMainThread || process.argv.some((arg) => arg.endsWith('dist/main.js')))) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  // The session is on this thread: its answers arrive synchronously, so this works in an exit handler.
  process.on('exit', () => {
    session.post('Profiler.stop', (error, result) => {
      const file = isMainThread ? `${process.pid}.cpuprofile` : `${process.pid}-thread${threadId}.cpuprofile`;
      if (!error) writeFileSync(join(dir, file), JSON.stringify(result.profile));
    });
  });
}
