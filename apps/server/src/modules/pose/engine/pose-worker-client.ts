/**
 * Runs a pose import in a fresh worker thread (parsing an hour of keypoints is seconds of work that must not hold the
 * event loop); the thread ends with its answer.
 */
import { startWorkerThread } from '../../analysis/engine/worker-client.js';
import type { PoseImportResult, PoseImportTask } from './pose-tasks.js';

export function runPoseImport(task: PoseImportTask): Promise<PoseImportResult> {
  return new Promise((resolve, reject) => {
    const worker = startWorkerThread(
      { source: new URL('./pose.worker.ts', import.meta.url), bundle: new URL('./pose-worker.js', import.meta.url) },
      task,
    );
    let settled = false;
    worker.once('message', (reply: { ok: true; result: PoseImportResult } | { ok: false; message: string }) => {
      settled = true;
      if (reply.ok) resolve(reply.result);
      else reject(new Error(reply.message));
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`The pose worker stopped unexpectedly (exit code ${code}).`));
    });
  });
}
