/**
 * Runs analysis tasks in worker threads, so no heavy loop ever runs on the server's event loop. A thread that
 * finished its task waits (unreferenced, so it never keeps the process alive) for the next one: a run's pieces, its
 * join and a review's previews start on a warm thread instead of loading the engine's bundle and compiling the
 * counting kernel again (ADR 023). A process that runs jobs readies a run's threads when it starts and keeps that
 * many (`warmUpAnalysisThreads`), so a run minutes after the last finds them warm too; more end after a minute idle.
 * Cancelling (the signal) asks the thread to stop, kills its ffmpeg by pid, and
 * ends the thread when it answers or within half a second: a revoked run's processes are gone within a second, and
 * a cancelled task's thread is never reused.
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

const ANALYSIS_WORKER = {
  source: new URL('./analysis.worker.ts', import.meta.url),
  bundle: new URL('./analysis-worker.js', import.meta.url),
};

/** Warm threads kept at most: a run's pieces on every worker, its join, a preview. */
const MAX_IDLE_THREADS = 4;
/** A warm thread unused this long ends (its heap is given back), unless it is one of the `keptWarm`. */
const IDLE_THREAD_MS = 60_000;

/** Idle threads kept however long they wait (`warmUpAnalysisThreads`); 0 until a job-running process asks. */
let keptWarm = 0;

const idleThreads = new Map<Worker, NodeJS.Timeout>();

function takeThread(): Worker {
  for (const [worker, timer] of idleThreads) {
    idleThreads.delete(worker);
    clearTimeout(timer);
    worker.ref();
    return worker;
  }
  const worker = startWorkerThread(ANALYSIS_WORKER);
  // A thread that dies while idle leaves the pool; its error (if any) has no task left to fail.
  worker.on('error', () => idleThreads.delete(worker));
  worker.on('exit', () => idleThreads.delete(worker));
  return worker;
}

function releaseThread(worker: Worker) {
  if (idleThreads.size >= MAX_IDLE_THREADS) {
    void worker.terminate();
    return;
  }
  worker.unref();
  const timer = setTimeout(function endUnlessKept() {
    if (idleThreads.size <= keptWarm) {
      // One of the threads kept warm: look again later (the timer is unreferenced and cheap).
      idleThreads.set(worker, setTimeout(endUnlessKept, IDLE_THREAD_MS).unref());
      return;
    }
    idleThreads.delete(worker);
    void worker.terminate();
  }, IDLE_THREAD_MS);
  timer.unref();
  idleThreads.set(worker, timer);
}

/**
 * Starts `count` threads (at most MAX_IDLE_THREADS) and readies each with a warm-up task, then keeps that many idle
 * threads however long they wait: a run's pieces and its join start on threads whose bundle is loaded and whose
 * counting kernel is compiled and optimised — about a second of CPU a run otherwise pays whenever the last run was
 * more than a minute ago (ADR 023). A process that runs jobs calls it once at start; nothing waits for it.
 */
export async function warmUpAnalysisThreads(count: number): Promise<void> {
  keptWarm = Math.min(MAX_IDLE_THREADS, Math.max(0, Math.floor(count)));
  const missing = Math.max(0, keptWarm - idleThreads.size - running);
  await Promise.all(Array.from({ length: missing }, () => runTask({ kind: 'warm-up' })));
}

/** The warm threads' ids (tests check that a task reuses one). */
export function idleAnalysisThreadIds(): number[] {
  return [...idleThreads.keys()].map((worker) => worker.threadId);
}

/** Ends the warm threads and stops keeping any (tests that count threads; nothing else needs to). */
export async function endIdleAnalysisThreads(): Promise<void> {
  keptWarm = 0;
  const workers = [...idleThreads.keys()];
  for (const [worker, timer] of idleThreads) {
    clearTimeout(timer);
    idleThreads.delete(worker);
  }
  await Promise.all(workers.map((worker) => worker.terminate()));
}

let running = 0;
/** Worker threads busy with a task, or ending after a cancel (tests check that a revoke leaves none). */
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
    const worker = takeThread();
    running++;
    let ffmpegPid: number | undefined;
    let settled = false;
    let cancelled = false;
    let killTimer: NodeJS.Timeout | undefined;

    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    /** The thread is done with this task: back to the pool, or (cancelled) ended. */
    const letGo = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      if (cancelled) {
        if (killTimer) clearTimeout(killTimer);
        void worker.terminate();
        return;
      }
      worker.off('exit', onExit);
      running--;
      releaseThread(worker);
    };
    const onAbort = () => {
      cancelled = true;
      worker.postMessage({ type: 'abort' });
      if (ffmpegPid !== undefined) killQuietly(ffmpegPid);
      killTimer = setTimeout(() => void worker.terminate(), 500);
      settle(() => reject(new TaskCancelledError('The task was cancelled.')));
    };
    const onMessage = (message: WorkerMessage) => {
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
          letGo();
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
          letGo();
          break;
        }
      }
    };
    const onError = (error: Error) => settle(() => reject(error));
    const onExit = (code: number) => {
      running--;
      if (killTimer) clearTimeout(killTimer);
      // A thread that died without answering (out of memory, killed) must not leave its ffmpeg behind.
      if (ffmpegPid !== undefined) killQuietly(ffmpegPid);
      settle(() => reject(new Error(`The analysis worker stopped unexpectedly (exit code ${code}).`)));
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage({ type: 'task', task });
  });
}

function killQuietly(pid: number) {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
