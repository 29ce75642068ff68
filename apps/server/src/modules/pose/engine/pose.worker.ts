/** Entry point of a pose worker thread: imports one file off the server's event loop, answers, and exits. */
import { parentPort, workerData } from 'node:worker_threads';
import type { PoseImportTask } from './pose-tasks.js';
import { importPoseFile } from './read-pose.js';

const port = parentPort;
if (!port) throw new Error('pose.worker must run in a worker thread');

importPoseFile(workerData as PoseImportTask).then(
  (result) => port.postMessage({ ok: true, result }),
  (error: unknown) => port.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) }),
);
