// `npm run admin -- <command>`: the operator command (list-projects, activate-project, lock-project), built like
// `npm start` builds the server, run with the same settings from the environment.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { buildServerIfStale, root } from './build-if-stale.mjs';

buildServerIfStale();
const result = spawnSync(
  process.execPath,
  ['--enable-source-maps', path.join(root, 'apps/server/dist/admin.js'), ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
