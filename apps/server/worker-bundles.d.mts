import type { BuildOptions } from 'esbuild';

export const workerEntries: Record<string, string>;
export function bundleOptions(entryPoints: Record<string, string>, outdir: string): BuildOptions;
