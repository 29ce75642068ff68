/**
 * The tasks of a suggestions worker thread (issue 25): features of a run's events, a model's training with its
 * cross-validation, and a model's votes on a run's events. Each thread runs one task and exits
 * (`suggestions-worker-client.ts`; the thread side is `suggestions.worker.ts`).
 */
import type { Series } from '../../analysis/engine/events.js';
import type { ModelJson, Prediction, TrainedModel, TrainingExample } from './model.js';

/** A video's stored pose set (pose/pose-file.ts) and which of its keypoints are the animal's (the first individual's). */
export interface PoseSetInput {
  bytes: Uint8Array;
  frameCount: number;
  keypointCount: number;
  keypoints: number[];
  hasLikelihood: boolean;
}

/** A run's events as the features need them. */
export interface RunInput {
  series: Series;
  threshold: number;
  /** The run's detected event times (original times), increasing. */
  times: Float64Array;
  /** Null: no pose features. */
  pose: PoseSetInput | null;
}

export type SuggestionTask =
  | { kind: 'features'; run: RunInput }
  | { kind: 'train'; examples: TrainingExample[]; features: string[] }
  | { kind: 'predict'; run: RunInput; model: ModelJson };

export interface SuggestionResults {
  features: number[][];
  train: TrainedModel;
  predict: Prediction[];
}

export type SuggestionReply = { ok: true; result: unknown } | { ok: false; message: string };
