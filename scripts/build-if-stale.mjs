// Builds what is not built yet (or is older than its sources), so `npm start` and `npm run admin` work from a fresh
// clone without a separate build step.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');

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
  // On stderr, so a command's own output (npm run admin -- list-projects) stays clean.
  console.error(`building ${name}...`);
  const result = spawnSync('npm', args, { cwd: root, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) {
    console.error(`building ${name} failed`);
    process.exit(result.status ?? 1);
  }
}

export function buildServerIfStale() {
  buildIfStale(
    'server',
    path.join(root, 'apps/server/dist/main.js'),
    [
      path.join(root, 'apps/server/src'),
      path.join(root, 'apps/server/build.mjs'),
      path.join(root, 'apps/server/worker-bundles.mjs'),
      path.join(root, 'packages/time-ranges/src'),
    ],
    ['run', 'build', '-w', 'apps/server'],
  );
}

export function buildWebIfStale() {
  buildIfStale(
    'web app',
    path.join(root, 'apps/web/dist/index.html'),
    [
      path.join(root, 'apps/web/src'),
      path.join(root, 'apps/web/index.html'),
      path.join(root, 'packages/api/src'),
      path.join(root, 'packages/time-ranges/src'),
    ],
    ['run', 'build', '-w', 'apps/web'],
  );
}
