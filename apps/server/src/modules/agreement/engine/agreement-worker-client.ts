/**
 * The server's side of the agreement worker: one thread, started on first use and kept for later requests (its
 * compiled code makes a sweep several times faster than in a fresh thread), working through tasks one at a time.
 * While no task is pending the thread does not keep the process alive; a thread that dies fails what it held and a
 * new one starts with the next task.
 */
import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../../analysis/engine/worker-client.js';
import type { TaskResults, WorkerReply, WorkerTask } from './tasks.js';

let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();

function failAll(error: Error) {
  for (const waiter of pending.values()) waiter.reject(error);
  pending.clear();
}

function thread(): Worker {
  if (worker) return worker;
  const started = startWorkerThread({
    source: new URL('./agreement.worker.ts', import.meta.url),
    bundle: new URL('./agreement-worker.js', import.meta.url),
  });
  started.on('message', (reply: WorkerReply) => {
    const waiter = pending.get(reply.id);
    if (!waiter) return;
    pending.delete(reply.id);
    if (pending.size === 0) started.unref();
    // The error's name crosses the thread (a TooManyPairsError stays recognisable), its class does not.
    if (reply.ok) waiter.resolve(reply.result);
    else waiter.reject(Object.assign(new Error(reply.message), { name: reply.name }));
  });
  started.on('error', (error) => failAll(error));
  started.on('exit', (code) => {
    if (worker === started) worker = null;
    failAll(new Error(`The agreement worker stopped unexpectedly (exit code ${code}).`));
  });
  worker = started;
  return started;
}

export function runAgreementTask<Kind extends WorkerTask['kind']>(
  task: Extract<WorkerTask, { kind: Kind }>,
): Promise<TaskResults[Kind]> {
  const target = thread();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
    target.ref();
    target.postMessage({ id, task });
  });
}

/**
 * Starts the thread and passes a small made-up sweep and comparison through it, so that the first real request finds
 * the thread running and its code compiled (a cold thread spends most of a first sweep compiling). The server calls
 * it once it listens; nothing depends on its answer.
 */
export async function warmUpAgreementWorker(): Promise<void> {
  const fps = 30;
  const values = Float64Array.from({ length: 30 * fps * 20 }, (_, i) => (i % 97 === 0 ? 500 : (i * 7919) % 50));
  const reference = Float64Array.from({ length: 40 }, (_, i) => (i * 97 * 6) / fps);
  const series = { values, times: null, fps };
  await runAgreementTask({
    kind: 'calibrate-events',
    input: { series, reference, toleranceS: 0.2, mode: 'k', values: [1, 2, 3, 4, 5], refractories: [0.25, 0.5] },
  });
  await runAgreementTask({
    kind: 'calibrate-freezing',
    input: { values, fps, reference: [[10, 60]], thresholds: [5, 10, 20], minDurations: [0.5, 1], binS: 60 },
  });
  const side = { events: reference, ranges: [[10, 60]] as [number, number][] };
  await runAgreementTask({
    kind: 'agreement',
    reference: side,
    candidate: side,
    toleranceS: 0.2,
    grid: { count: values.length, sliceS: 1 / fps, fps },
    binS: 60,
  });
}

/** Ends the thread (the server shutting down, or a test). */
export async function stopAgreementWorker(): Promise<void> {
  const current = worker;
  worker = null;
  if (current) await current.terminate();
}
