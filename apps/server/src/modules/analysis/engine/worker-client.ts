/**
 * Runs one analysis task in a fresh worker thread, so no heavy loop ever runs on the server's event loop.
 * Cancelling (the signal) asks the thread to stop, kills its ffmpeg by pid, and terminates the thread if it
 * has not ended within half a second: a revoked run's processes are gone within a second.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DecodeErrorReport } from '../../../adapters/media/clean-start.js';
import { ProcessError } from '../../../adapters/media/run-process.js';
import type { TaskResults, WorkerMessage, WorkerTask } from './tasks.js';

let prebuiltBundles: URL | null = null;

/**
 * Run from source, start worker threads from bundles already built in `directory` (worker-bundles.mjs: the test
 * suite builds them once per run) instead of compiling the engine's TypeScript in every thread, ~1.2 s a thread.
 */
export function useWorkerBundles(directory: string): void {
  prebuiltBundles = pathToFileURL(`${directory.replace(/\/$/, '')}/`);
}

/**
 * Starts a worker thread on `source` (a TypeScript entry). In the built server each worker entry is its own bundle
 * beside main.js (`bundle`, see worker-bundles.mjs). From source (tsx) a small bootstrap registers tsx in the thread,
 * then imports the TypeScript entry — unless `useWorkerBundles` named bundles of it.
 */
export function startWorkerThread(entry: { source: URL; bundle: URL }, workerData?: unknown): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(entry.bundle, { workerData });
  if (prebuiltBundles) {
    return new Worker(new URL(path.posix.basename(entry.bundle.pathname), prebuiltBundles), { workerData });
  }
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs');
  const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry.source.href)}); });`;
  return new Worker(bootstrap, { eval: true, workerData });
}

function startWorker(task: WorkerTask): Worker {
  return startWorkerThread(
    {
      source: new URL('./analysis.worker.ts', import.meta.url),
      bundle: new URL('./analysis-worker.js', import.meta.url),
    },
    task,
  );
}

let running = 0;
/** Worker threads alive in this process (tests check that a revoke leaves none). */
export function runningAnalysisWorkers(): number {
  return running;
}

export class TaskCancelledError extends Error {
  override readonly name = 'TaskCancelledError';
}

export function runTask<Kind extends WorkerTask['kind']>(
  task: Extract<WorkerTask, { kind: Kind }>,
  options: { signal?: AbortSignal; onProgress?: (framesDone: number) => void } = {},
): Promise<TaskResults[Kind]> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new TaskCancelledError('The task was cancelled.'));
      return;
    }
    const worker = startWorker(task);
    running++;
    let ffmpegPid: number | undefined;
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;

    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const onAbort = () => {
      worker.postMessage({ type: 'abort' });
      if (ffmpegPid !== undefined) killQuietly(ffmpegPid);
      killTimer = setTimeout(() => void worker.terminate(), 500);
      settle(() => reject(new TaskCancelledError('The task was cancelled.')));
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });

    worker.on('message', (message: WorkerMessage) => {
      switch (message.type) {
        case 'progress':
          if (!settled) options.onProgress?.(message.framesDone);
          break;
        case 'spawned':
          ffmpegPid = message.pid;
          break;
        case 'done':
          // The thread answers only after its ffmpeg has closed; its pid may now belong to someone else.
          ffmpegPid = undefined;
          settle(() => resolve(message.result as TaskResults[Kind]));
          break;
        case 'failed': {
          ffmpegPid = undefined;
          const error =
            message.name === 'ProcessError'
              ? new ProcessError(message.message, message.exitCode, message.stderrTail)
              : message.name === 'DecodeErrorReport'
                ? new DecodeErrorReport(message.stderrTail.split('\n'))
                : new Error(message.message);
          settle(() => reject(error));
          break;
        }
      }
    });
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) => {
      running--;
      if (killTimer) clearTimeout(killTimer);
      // A thread that died without answering (out of memory, killed) must not leave its ffmpeg behind.
      if (ffmpegPid !== undefined) killQuietly(ffmpegPid);
      settle(() => reject(new Error(`The analysis worker stopped unexpectedly (exit code ${code}).`)));
    });
  });
}

function killQuietly(pid: number) {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
