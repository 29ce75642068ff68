/**
 * What suggestions would save a reviewer on a set of scenes (issue 25), measured the way the issue asks: train on the
 * first reviewed events of each video, cross-validate by video, then suggest for every event not reviewed yet and
 * count Quick Score key presses with and without "accept all ≥ p". Used by `npm run bench -- --only=suggestions`
 * and by the engine's tests.
 */
import type { ClassFigures } from './cross-validation.js';
import {
  type Bar,
  featureNamesFor,
  featureRows,
  predict,
  suggestionOf,
  type TrainingExample,
  trainModel,
} from './model.js';
import type { ReviewedEvent, ReviewScene } from './review-scenes.js';

/**
 * Quick Score keys a reviewer presses for an event by hand (product brief): → to move on; D then → to discard; a
 * label is Shift, a letter of it and Enter in the label menu, then →.
 */
export function manualKeys(event: ReviewedEvent): number {
  if (event.discarded) return 2;
  return event.label ? 4 : 1;
}

/** "Accept all ≥ p" is the command and its confirmation: two presses for any number of events. */
export const BULK_ACCEPT_KEYS = 2;

export interface SavingsReport {
  reviewed: number;
  remaining: number;
  decisions: ClassFigures[];
  labels: ClassFigures[];
  labelNames: (string | null)[];
  /** Remaining events whose suggestion was accepted in bulk, and how many of those were wrong. */
  accepted: number;
  acceptedWrong: number;
  keysByHand: number;
  keysWithSuggestions: number;
  /** 1 − keysWithSuggestions / keysByHand. */
  saved: number;
}

/**
 * Trains on the first `reviewed` events (split evenly over the scenes, the first scenes taking any remainder; each
 * scene's in time order) — with the scenes' pose features when `withPose` and every scene has pose tracks — suggests
 * for the rest as the server does (model.ts: the classes must qualify at `bar`), and accepts in bulk every suggestion
 * whose confidence is at least `acceptAt`.
 */
export function reviewSavings(
  scenes: readonly ReviewScene[],
  reviewed: number,
  acceptAt = 0.9,
  options: { withPose?: boolean; bar?: Bar } = {},
): SavingsReport {
  const withPose = (options.withPose ?? false) && scenes.every((scene) => scene.pose);
  const bar = options.bar ?? { precision: 0.9, examples: 30 };
  const reviewedIn = (v: number) => Math.floor(reviewed / scenes.length) + (v < reviewed % scenes.length ? 1 : 0);
  const rows = scenes.map((scene) =>
    featureRows({
      series: scene.series,
      threshold: scene.threshold,
      times: scene.events.map((event) => event.time),
      pose: withPose ? (scene.pose ?? null) : null,
    }),
  );
  const examples: TrainingExample[] = scenes.flatMap((scene, v) =>
    scene.events.slice(0, reviewedIn(v)).map((event, i) => ({
      features: rows[v]![i]!,
      discarded: event.discarded,
      label: event.discarded ? null : event.label,
      group: String(v),
    })),
  );
  const model = trainModel(examples, featureNamesFor(withPose));
  const figures = { decisions: model.decisions, labels: model.labels, labelNames: model.json.labels };
  let remaining = 0;
  let accepted = 0;
  let acceptedWrong = 0;
  let keysByHand = 0;
  let keysWithSuggestions = 0;
  scenes.forEach((scene, v) => {
    const rest = scene.events.slice(reviewedIn(v));
    const predictions = predict(model.json, rows[v]!.slice(reviewedIn(v)));
    rest.forEach((event, i) => {
      remaining++;
      keysByHand += manualKeys(event);
      const suggestion = suggestionOf(predictions[i]!, figures, bar);
      if (suggestion && suggestion.confidence >= acceptAt) {
        accepted++;
        if (suggestion.discard !== event.discarded || (!event.discarded && suggestion.label !== event.label)) {
          acceptedWrong++;
        }
      } else {
        keysWithSuggestions += manualKeys(event);
      }
    });
  });
  keysWithSuggestions += accepted > 0 ? BULK_ACCEPT_KEYS : 0;
  return {
    reviewed: examples.length,
    remaining,
    decisions: model.decisions,
    labels: model.labels,
    labelNames: model.json.labels,
    accepted,
    acceptedWrong,
    keysByHand,
    keysWithSuggestions,
    saved: keysByHand > 0 ? 1 - keysWithSuggestions / keysByHand : 0,
  };
}
