/**
 * Entry point of the agreement worker thread: answers each request (an agreement, a calibration sweep) in turn, off
 * the server's event loop, and stays alive for the next one.
 */
import { parentPort } from 'node:worker_threads';
import { sweepEvents, sweepFreezing } from './calibration.js';
import { eventAgreement } from './event-agreement.js';
import { intervalAgreement } from './interval-agreement.js';
import type { TaskResults, WorkerReply, WorkerRequest, WorkerTask } from './tasks.js';

const port = parentPort;
if (!port) throw new Error('agreement.worker must run in a worker thread');

function run(task: WorkerTask): TaskResults[WorkerTask['kind']] {
  switch (task.kind) {
    case 'agreement': {
      const { reference, candidate } = task;
      const events = eventAgreement(reference.events, candidate.events, task.toleranceS);
      const intervals =
        reference.ranges && candidate.ranges
          ? intervalAgreement(task.grid, reference.ranges, candidate.ranges, task.binS)
          : null;
      return { events, intervals };
    }
    case 'calibrate-events':
      return sweepEvents(task.input);
    case 'calibrate-freezing':
      return sweepFreezing(task.input);
  }
}

port.on('message', ({ id, task }: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    reply = { id, ok: true, result: run(task) };
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    reply = { id, ok: false, name: failure.name, message: failure.message };
  }
  port.postMessage(reply);
});
