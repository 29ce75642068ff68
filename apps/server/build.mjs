// Bundles the server's TypeScript into dist/ with esbuild (a second or two); npm packages stay external, except
// the workspace's own (below).
import { createRequire } from 'node:module';
import { build } from 'esbuild';

// Workspace packages (@app/*) export TypeScript source, which Node cannot load from node_modules: bundle them in.
// A plugin's answer comes before `packages: 'external'`, so only these are inlined.
const resolveFromServer = createRequire(import.meta.url).resolve;
const bundleWorkspacePackages = {
  name: 'bundle-workspace-packages',
  setup(plugin) {
    plugin.onResolve({ filter: /^@app\// }, (args) => ({ path: resolveFromServer(args.path) }));
  },
};

await build({
  absWorkingDir: import.meta.dirname,
  // Worker threads are their own bundles, loaded by path (analysis/engine/worker-client.ts, agreement's client);
  // `admin` is the operator command (npm run admin).
  entryPoints: {
    main: 'src/main.ts',
    admin: 'src/admin.ts',
    'analysis-worker': 'src/modules/analysis/engine/analysis.worker.ts',
    'agreement-worker': 'src/modules/agreement/engine/agreement.worker.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  // Dynamic imports become their own chunks, so optional adapters (S3, SMTP) load only when configured.
  splitting: true,
  packages: 'external',
  plugins: [bundleWorkspacePackages],
  sourcemap: true,
  logLevel: 'warning',
});
console.log('server built: apps/server/dist/main.js');
