// The esbuild options the server is bundled with, and its worker threads' entries: build.mjs bundles them into
// dist/ for `npm start`; the test suite's global setup bundles the worker entries once per run, so a test's worker
// thread loads the same bundle production loads instead of compiling the engine's TypeScript in every thread.
import { createRequire } from 'node:module';

// Workspace packages (@app/*) export TypeScript source, which Node cannot load from node_modules: bundle them in.
// A plugin's answer comes before `packages: 'external'`, so only these are inlined.
const resolveFromServer = createRequire(import.meta.url).resolve;
const bundleWorkspacePackages = {
  name: 'bundle-workspace-packages',
  setup(plugin) {
    plugin.onResolve({ filter: /^@app\// }, (args) => ({ path: resolveFromServer(args.path) }));
  },
};

/** Worker threads are their own bundles, loaded by file name (analysis/engine/worker-client.ts and its users). */
export const workerEntries = {
  'analysis-worker': 'src/modules/analysis/engine/analysis.worker.ts',
  'agreement-worker': 'src/modules/agreement/engine/agreement.worker.ts',
  'pose-worker': 'src/modules/pose/engine/pose.worker.ts',
  'suggestions-worker': 'src/modules/suggestions/engine/suggestions.worker.ts',
};

/** esbuild options for `entryPoints` written to `outdir` (npm packages stay external, except the workspace's own). */
export function bundleOptions(entryPoints, outdir) {
  return {
    absWorkingDir: import.meta.dirname,
    entryPoints,
    outdir,
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
  };
}
