/**
 * Runs one suggestions task in a fresh worker thread (the analysis module's thread starter): features over an hour's
 * series and a forest's training are seconds of work that must not hold the event loop. A signal that aborts ends the
 * thread at once (a training job stopping with its worker process).
 */
import { startWorkerThread } from '../../analysis/engine/worker-client.js';
import type { SuggestionReply, SuggestionResults, SuggestionTask } from './suggestions-tasks.js';

export function runSuggestionTask<Kind extends SuggestionTask['kind']>(
  task: Extract<SuggestionTask, { kind: Kind }>,
  signal?: AbortSignal,
): Promise<SuggestionResults[Kind]> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new Error('The suggestions task was cancelled.'));
      return;
    }
    const worker = startWorkerThread(
      {
        source: new URL('./suggestions.worker.ts', import.meta.url),
        bundle: new URL('./suggestions-worker.js', import.meta.url),
      },
      task,
    );
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const onAbort = () => {
      void worker.terminate();
      settle(() => reject(new Error('The suggestions task was cancelled.')));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (reply: SuggestionReply) =>
      settle(() => (reply.ok ? resolve(reply.result as SuggestionResults[Kind]) : reject(new Error(reply.message)))),
    );
    worker.once('error', (error) => settle(() => reject(error)));
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`The suggestions worker stopped unexpectedly (exit code ${code}).`))),
    );
  });
}
