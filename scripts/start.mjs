// `npm start`: builds what is not built yet (or is older than its sources), then runs the server with the
// SPA and job workers; `npm run worker` (--worker) runs job workers only. Settings come from the environment.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const workerOnly = process.argv.includes('--worker');

/** Newest modification time of the given files and of the files under the given folders, skipping build output. */
function newestSourceTime(dirs) {
  let newest = 0;
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    if (!statSync(dir).isDirectory()) {
      newest = Math.max(newest, statSync(dir).mtimeMs);
      return;
    }
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  for (const dir of dirs) walk(dir);
  return newest;
}

function buildIfStale(name, output, sources, args) {
  const builtAt = existsSync(output) ? statSync(output).mtimeMs : 0;
  if (builtAt > newestSourceTime(sources)) return;
  console.log(`building ${name}...`);
  const result = spawnSync('npm', args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`building ${name} failed`);
    process.exit(result.status ?? 1);
  }
}

buildIfStale(
  'server',
  path.join(root, 'apps/server/dist/main.js'),
  [path.join(root, 'apps/server/src')],
  ['run', 'build', '-w', 'apps/server'],
);
if (!workerOnly) {
  buildIfStale(
    'web app',
    path.join(root, 'apps/web/dist/index.html'),
    [path.join(root, 'apps/web/src'), path.join(root, 'apps/web/index.html'), path.join(root, 'packages/api/src')],
    ['run', 'build', '-w', 'apps/web'],
  );
}

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
