// Bundles the server's TypeScript into dist/ with esbuild (a second or two): the server, the operator command
// (`npm run admin`) and each worker thread's entry (worker-bundles.mjs).
import { build } from 'esbuild';
import { bundleOptions, workerEntries } from './worker-bundles.mjs';

await build(bundleOptions({ main: 'src/main.ts', admin: 'src/admin.ts', ...workerEntries }, 'dist'));
console.log('server built: apps/server/dist/main.js');
