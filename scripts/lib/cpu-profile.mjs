// Loaded into every service and the gateway by `BENCH_PROFILE=1 npm run bench` (NODE_OPTIONS
// --import; Node 20 refuses --cpu-prof there): samples the process's CPU and writes a
// .cpuprofile (open it in Chrome DevTools) into .data/profiles when the process is stopped.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { basename, join } from 'node:path';

const dir = process.env.BENCH_PROFILE_DIR ?? join(process.cwd(), '.data', 'profiles');
const session = new Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.start');
let written = false;
function write() {
  if (written) return;
  written = true;
  // The same-thread session answers synchronously, so this completes inside a signal handler.
  session.post('Profiler.stop', (err, result) => {
    if (err) return;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${basename(process.cwd())}-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
  });
}
process.prependListener('SIGTERM', write);
process.prependListener('SIGINT', write);
process.on('exit', write);
