/**
 * The messages between the server and an analysis worker thread. Each worker runs one task and exits; the
 * server side is `worker-client.ts`, the thread side `analysis.worker.ts`.
 */
import type { EventDetectionParameters, Series } from './events.js';
import type { FreezingParameters, FreezingSummary } from './freezing.js';
import type { FrameRangeTask } from './movement.js';
import type { PreviewResult, PreviewTask } from './preview.js';

export interface DetectTask {
  kind: 'detect';
  series: Series;
  events: EventDetectionParameters;
  /** Null: no freezing summary. */
  freezing: FreezingParameters | null;
  /** When set, the series is also written there as CSV (`frame,time_s,value`). */
  csvPath: string | null;
}

export interface DetectResult {
  threshold: number;
  noiseTop: number;
  /** Event times in seconds, increasing. */
  eventTimes: Float64Array;
  freezing: FreezingSummary | null;
  validSamples: number;
}

export interface ImportTask {
  kind: 'import';
  /** A local CSV file uploaded by the user. */
  path: string;
}

export type ImportResult =
  | { ok: true; values: Float64Array; times: Float64Array | null }
  | { ok: false; error: string };

export type WorkerTask =
  | ({ kind: 'frames' } & FrameRangeTask)
  | DetectTask
  | ImportTask
  | ({ kind: 'preview' } & PreviewTask);

export interface TaskResults {
  frames: { values: Float64Array };
  detect: DetectResult;
  import: ImportResult;
  preview: PreviewResult;
}

/** Thread → server. */
export type WorkerMessage =
  | { type: 'progress'; framesDone: number }
  | { type: 'spawned'; pid: number }
  | { type: 'done'; result: unknown }
  | { type: 'failed'; message: string; exitCode: number | null; stderrTail: string; name: string };
