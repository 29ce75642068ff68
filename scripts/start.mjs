// `npm start`: builds what is not built yet (or is older than its sources), then runs the server with the
// SPA and job workers; `npm run worker` (--worker) runs job workers only. Settings come from the environment.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildServerIfStale, buildWebIfStale, root } from './build-if-stale.mjs';

const workerOnly = process.argv.includes('--worker');

buildServerIfStale();
if (!workerOnly) buildWebIfStale();

const child = spawn(
  process.execPath,
  ['--enable-source-maps', path.join(root, 'apps/server/dist/main.js'), ...(workerOnly ? ['--worker'] : [])],
  {
    stdio: 'inherit',
    env: { WEB_DIST_DIR: path.join(root, 'apps/web/dist'), ...process.env },
  },
);
// Pass stop signals through so the server can drain requests and jobs.
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
