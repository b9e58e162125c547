/**
 * Node 20 refuses `--cpu-prof` in NODE_OPTIONS, so a benchmark that starts the gateway as users do
 * (`npm start`) profiles it with this preload instead: `--import <this file>` in NODE_OPTIONS, with
 * CPU_PROFILE_DIR set. Only the gateway's process (dist/main.js) is profiled, not npm's own; the
 * profile is written when it exits (SIGTERM ends it with process.exit), as `<pid>.cpuprofile`, which
 * Chrome's DevTools and `cpu-profile-summary.ts` read.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const dir = process.env.CPU_PROFILE_DIR;
if (dir && process.argv.some((arg) => arg.endsWith('dist/main.js'))) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  // The session is on this thread: its answers arrive synchronously, so this works in an exit handler.
  process.on('exit', () => {
    session.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
