/**
 * The messages between the server and the agreement worker thread (agreement.worker.ts): one long-lived thread that
 * computes agreements and calibration sweeps one after another, so a request never waits for a thread to start and
 * the sweep's code stays compiled between requests.
 */
import type { EventSweep, EventSweepInput, FreezingSweep, FreezingSweepInput } from './calibration.js';
import type { EventAgreement } from './event-agreement.js';
import type { IntervalAgreement } from './interval-agreement.js';
import type { SliceGrid } from './slices.js';

/** One side of a comparison as the worker needs it: event times, and ranges when the side has them. */
export interface ScoringData {
  events: Float64Array;
  ranges: [number, number][] | null;
}

export interface AgreementTask {
  kind: 'agreement';
  reference: ScoringData;
  candidate: ScoringData;
  toleranceS: number;
  /** The slices of the interval agreement (computed when both sides have ranges). */
  grid: SliceGrid;
  binS: number;
}

export type WorkerTask =
  | AgreementTask
  | { kind: 'calibrate-events'; input: EventSweepInput }
  | { kind: 'calibrate-freezing'; input: FreezingSweepInput };

export interface TaskResults {
  agreement: { events: EventAgreement; intervals: IntervalAgreement | null };
  'calibrate-events': EventSweep;
  'calibrate-freezing': FreezingSweep;
}

export type WorkerRequest = { id: number; task: WorkerTask };
export type WorkerReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; name: string; message: string };
