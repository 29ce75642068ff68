/**
 * A suggestion model (issue 25, ADR 038): two forests — keep or discard, and for a kept event its label ("no label" is
 * a class of its own when reviewers keep events unlabelled) — with their figures cross-validated by video, and the
 * one rule that turns a model's votes into a suggestion a reviewer sees. Pure: the worker thread, the bench and the
 * tests call the same functions.
 */
import type { Series } from '../../analysis/engine/events.js';
import { type ClassFigures, crossValidate, type Example, qualifies } from './cross-validation.js';
import { eventFeatures, FEATURE_NAMES } from './event-features.js';
import { type ForestJson, loadForest, trainForest } from './forest.js';
import { POSE_FEATURE_NAMES, type PoseTracks, poseFeatures } from './pose-features.js';

/** The features of a model: the series' always, the pose set's when every video it learned from had one. */
export function featureNamesFor(withPose: boolean): string[] {
  return withPose ? [...FEATURE_NAMES, ...POSE_FEATURE_NAMES] : [...FEATURE_NAMES];
}

export interface RunFeatureInput {
  series: Series;
  /** The run's event threshold (features are scaled by it). */
  threshold: number;
  /** The run's detected event times (original times), increasing: the events and their neighbours. */
  times: readonly number[];
  /** The video's pose tracks, when the model uses pose features. */
  pose: PoseTracks | null;
}

/** One row of the model's features per event time. */
export function featureRows(input: RunFeatureInput): number[][] {
  const rows = eventFeatures(input.series, input.times, input.threshold);
  if (!input.pose) return rows;
  const pose = poseFeatures(input.pose, input.times);
  return rows.map((row, i) => [...row, ...pose[i]!]);
}

/** A reviewed event as a model learns from it: its features, what the reviewer decided, and its video. */
export interface TrainingExample {
  features: number[];
  discarded: boolean;
  /** The label a kept event was given (null: kept without a label). */
  label: string | null;
  /** The video: cross-validation never tests a video its model trained on. */
  group: string;
}

/** What a stored model holds (the JSON kept in storage). */
export interface ModelJson {
  format: 1;
  features: string[];
  /** Label classes in order; null is "no label". */
  labels: (string | null)[];
  /** Classes 0 keep, 1 discard. */
  decision: ForestJson;
  /** Null when no reviewed event was kept. */
  label: ForestJson | null;
}

export interface TrainedModel {
  json: ModelJson;
  /** Held-out figures of keep (class 0) and discard (class 1). */
  decisions: ClassFigures[];
  /** Held-out figures per label class, in `json.labels` order. */
  labels: ClassFigures[];
  /** Videos the examples come from. */
  videos: number;
}

/** Trains both forests on every example and cross-validates each by video. */
export function trainModel(examples: readonly TrainingExample[], features: string[]): TrainedModel {
  if (examples.length === 0) throw new RangeError('a model needs at least one reviewed event');
  const decisionExamples: Example[] = examples.map((example) => ({
    features: example.features,
    target: example.discarded ? 1 : 0,
    group: example.group,
  }));
  const kept = examples.filter((example) => !example.discarded);
  // "No label" first when it occurs, then the labels by name: the same reviews give the same classes.
  const named = [...new Set(kept.flatMap((example) => (example.label === null ? [] : [example.label])))].sort();
  const labels: (string | null)[] = kept.some((example) => example.label === null) ? [null, ...named] : named;
  const labelExamples: Example[] = kept.map((example) => ({
    features: example.features,
    target: labels.indexOf(example.label),
    group: example.group,
  }));
  const decision = trainForest(
    decisionExamples.map((example) => example.features),
    decisionExamples.map((example) => example.target),
    2,
  );
  const label =
    labelExamples.length > 0
      ? trainForest(
          labelExamples.map((example) => example.features),
          labelExamples.map((example) => example.target),
          labels.length,
        )
      : null;
  return {
    json: { format: 1, features, labels, decision: decision.toJSON(), label: label?.toJSON() ?? null },
    decisions: crossValidate(decisionExamples, 2).classes,
    labels: labelExamples.length > 0 ? crossValidate(labelExamples, labels.length).classes : [],
    videos: new Set(examples.map((example) => example.group)).size,
  };
}

/** A model's votes for one event: the share of trees voting discard, and the label most trees vote for. */
export interface Prediction {
  discardShare: number;
  /** Index into the model's labels; null when the model has no label forest. */
  labelIndex: number | null;
  labelShare: number | null;
}

export function predict(json: ModelJson, rows: number[][]): Prediction[] {
  const decision = loadForest(json.decision).probabilities(rows);
  const label = json.label ? loadForest(json.label).probabilities(rows) : null;
  return rows.map((_, i) => {
    const shares = label?.[i];
    if (!shares) return { discardShare: decision[i]![1]!, labelIndex: null, labelShare: null };
    const best = shares.reduce((top, share, c) => (share > shares[top]! ? c : top), 0);
    return { discardShare: decision[i]![1]!, labelIndex: best, labelShare: shares[best]! };
  });
}

/** The bar a suggestion's classes must clear: held-out precision (the user's) and examples (30, issue 25). */
export interface Bar {
  precision: number;
  examples: number;
}

export interface Suggestion {
  discard: boolean;
  /** The label of a kept event (null: keep without a label); always null for a discard. */
  label: string | null;
  /** The vote share behind it: discard's, or for a kept event the smaller of keep's and the label's. */
  confidence: number;
}

/**
 * What a reviewer is offered for an event, or null: the decision with most votes (keep on a tie) must qualify — its
 * held-out precision at the bar with enough examples — and for a kept event so must the label with most votes, since
 * accepting sets both.
 */
export function suggestionOf(
  prediction: Prediction,
  figures: {
    decisions: readonly ClassFigures[];
    labels: readonly ClassFigures[];
    labelNames: readonly (string | null)[];
  },
  bar: Bar,
): Suggestion | null {
  const discard = prediction.discardShare > 0.5;
  const decision = figures.decisions[discard ? 1 : 0];
  if (!decision || !qualifies(decision, bar)) return null;
  if (discard) return { discard: true, label: null, confidence: prediction.discardShare };
  if (prediction.labelIndex === null || prediction.labelShare === null) return null;
  const label = figures.labels[prediction.labelIndex];
  if (!label || !qualifies(label, bar)) return null;
  return {
    discard: false,
    label: figures.labelNames[prediction.labelIndex] ?? null,
    confidence: Math.min(1 - prediction.discardShare, prediction.labelShare),
  };
}
