/**
 * How far a model's suggestions can be trusted, measured honestly (issue 25): cross-validated by video — every
 * example is predicted by a model that never saw its video — so a lab's figures say how the model does on a video it
 * has not been trained on, which is what every new video is.
 */
import { FOREST_DEFAULTS, type Forest, type ForestOptions, trainForest } from './forest.js';

export interface Example {
  features: number[];
  /** The class (0 … classCount − 1): for decisions 0 kept, 1 discarded; for labels the label's index. */
  target: number;
  /** The video the example comes from: examples of one video are never split between training and testing. */
  group: string;
}

export interface Fold {
  /** The videos the fold tests; the model of the fold never saw them. */
  groups: string[];
  train: number[];
  test: number[];
}

/** Folds at most: past this many videos, videos share folds (still never one video on both sides). */
export const MAX_FOLDS = 10;

/**
 * Folds by video: leave-one-video-out up to `maxFolds` videos; with more, the videos (sorted) are dealt round-robin
 * into `maxFolds` folds, so a project with a hundred reviewed videos trains 10 models, not 100.
 */
export function foldsByGroup(examples: readonly Pick<Example, 'group'>[], maxFolds = MAX_FOLDS): Fold[] {
  const groups = [...new Set(examples.map((example) => example.group))].sort();
  const foldCount = Math.min(groups.length, Math.max(2, maxFolds));
  const foldOf = new Map(groups.map((group, i) => [group, i % foldCount]));
  return Array.from({ length: foldCount }, (_, f) => ({
    groups: groups.filter((group) => foldOf.get(group) === f),
    train: examples.flatMap((example, i) => (foldOf.get(example.group) === f ? [] : [i])),
    test: examples.flatMap((example, i) => (foldOf.get(example.group) === f ? [i] : [])),
  }));
}

export interface ClassFigures {
  class: number;
  /** Examples of the class among all the reviews. */
  examples: number;
  /** Held-out predictions of the class (the class with most votes). */
  predicted: number;
  /** Of those, the share that were right; null when none were predicted. */
  precision: number | null;
  /** Of the examples of the class, the share predicted as it; null without examples. */
  recall: number | null;
}

export interface CrossValidation {
  /** Per held-out example (in the examples' order): its class probabilities from the model that did not see it. */
  heldOut: number[][];
  classes: ClassFigures[];
  /** Folds (one per video up to MAX_FOLDS): with fewer than 2 nothing is held out and every figure is null. */
  videos: number;
}

const argmax = (values: readonly number[]) => values.reduce((best, value, i) => (value > values[best]! ? i : best), 0);

/** Leave-one-video-out figures of a forest on these examples. */
export function crossValidate(
  examples: readonly Example[],
  classCount: number,
  options: ForestOptions = FOREST_DEFAULTS,
  train: (rows: number[][], classes: number[]) => Forest = (rows, classes) =>
    trainForest(rows, classes, classCount, options),
  maxFolds = MAX_FOLDS,
): CrossValidation {
  const heldOut: number[][] = examples.map(() => []);
  const folds = foldsByGroup(examples, maxFolds);
  if (folds.length >= 2) {
    for (const fold of folds) {
      const model = train(
        fold.train.map((i) => (examples[i] as Example).features),
        fold.train.map((i) => (examples[i] as Example).target),
      );
      const answers = model.probabilities(fold.test.map((i) => (examples[i] as Example).features));
      fold.test.forEach((i, k) => {
        heldOut[i] = answers[k] as number[];
      });
    }
  }
  const classes = Array.from({ length: classCount }, (_, c): ClassFigures => {
    const total = examples.filter((example) => example.target === c).length;
    if (folds.length < 2) return { class: c, examples: total, predicted: 0, precision: null, recall: null };
    const predicted = examples.filter((_, i) => argmax(heldOut[i] as number[]) === c);
    const right = predicted.filter((example) => example.target === c).length;
    return {
      class: c,
      examples: total,
      predicted: predicted.length,
      precision: predicted.length > 0 ? right / predicted.length : null,
      recall: total > 0 ? right / total : null,
    };
  });
  return { heldOut, classes, videos: folds.length };
}

/** The bar a class's suggestions must clear to be shown (issue 25): held-out precision and examples. */
export const SUGGESTION_BAR = { precision: 0.9, examples: 30 } as const;

/** Whether a class's suggestions may be shown: held-out precision at the bar, with enough examples of it. */
export function qualifies(figures: ClassFigures, bar: { precision: number; examples: number } = SUGGESTION_BAR) {
  return figures.precision !== null && figures.precision >= bar.precision && figures.examples >= bar.examples;
}
