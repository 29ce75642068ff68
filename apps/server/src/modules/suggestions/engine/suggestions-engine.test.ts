/**
 * The engine of suggestions (issue 25): the features of an event on a hand-made series, the cross-validation split
 * (no video ever in both a fold's training and its test), the forest's votes, and on generated videos with two event
 * kinds and two labels the measure: after 100 reviewed events over 3 videos, held-out precision of "discard"
 * ≥ 0.95 and at least half the key presses saved on the remaining events.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crossValidate, type Example, foldsByGroup, qualifies } from './cross-validation.js';
import { eventFeatures, FEATURE_NAMES, NEIGHBOUR_CAP_S } from './event-features.js';
import { bestThreshold, type ForestJson, loadForest, trainForest } from './forest.js';
import { predict, suggestionOf, trainModel } from './model.js';
import { POSE_FEATURE_NAMES, poseFeatures, STILL_SPEED } from './pose-features.js';
import { manualKeys, reviewSavings } from './review-savings.js';
import { flickerScene, reviewScene } from './review-scenes.js';

const feature = (row: number[], name: (typeof FEATURE_NAMES)[number]) => row[FEATURE_NAMES.indexOf(name)] as number;

describe('event features', () => {
  it('measures a spike against the threshold: peak, area, time above, rise, decay, baseline, noise, neighbours', () => {
    // 10 fps; a floor of 1 with ±0.5 wiggles before the event at 2 s; the spike 3, 9, 6, 3 then back to 1.
    const values = new Float64Array(60).fill(1);
    for (let i = 0; i < 20; i++) values[i] = i % 2 === 0 ? 0.5 : 1.5;
    values.set([3, 9, 6, 3], 20);
    const series = { values, times: null, fps: 10 };
    const [row] = eventFeatures(series, [2], 2);
    expect(feature(row!, 'peak_over_threshold')).toBe(4.5);
    // Above 2 at 3, 9, 6, 3: (1 + 7 + 4 + 1) / 2 × 0.1 s.
    expect(feature(row!, 'area_over_threshold')).toBeCloseTo(0.65, 12);
    expect(feature(row!, 'time_above_threshold_s')).toBeCloseTo(0.4, 12);
    expect(feature(row!, 'rise_s')).toBeCloseTo(0.1, 12);
    // Half-way from the baseline (median of the second before: 1) to the peak (9) is 5: crossed at 2.3 s (3).
    expect(feature(row!, 'decay_s')).toBeCloseTo(0.2, 12);
    expect(feature(row!, 'baseline_over_threshold')).toBe(0.5);
    expect(feature(row!, 'noise_over_threshold')).toBe(0.25);
    expect(feature(row!, 'previous_event_s')).toBe(NEIGHBOUR_CAP_S);
    const [first, second] = eventFeatures(series, [2, 3.5], 2);
    expect(feature(first!, 'next_event_s')).toBeCloseTo(1.5, 12);
    expect(feature(second!, 'previous_event_s')).toBeCloseTo(1.5, 12);
  });
});

describe('cross-validation by video', () => {
  it('never trains a fold on a video it tests', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 2, maxLength: 40 }), (groups) => {
        const folds = foldsByGroup(groups.map((group) => ({ group })));
        expect(folds.map((fold) => fold.groups)).toEqual([...new Set(groups)].sort().map((group) => [group]));
        for (const fold of folds) {
          expect(fold.test.every((i) => groups[i] === fold.groups[0])).toBe(true);
          expect(fold.train.every((i) => groups[i] !== fold.groups[0])).toBe(true);
          expect(fold.train.length + fold.test.length).toBe(groups.length);
        }
      }),
    );
  });

  it('past MAX_FOLDS videos, deals videos into folds: each video tested once, never trained on in its fold', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 2, maxLength: 200 }),
        fc.integer({ min: 2, max: 12 }),
        (videos, maxFolds) => {
          const groups = videos.map((v) => `video-${v}`);
          const distinct = new Set(groups).size;
          const folds = foldsByGroup(
            groups.map((group) => ({ group })),
            maxFolds,
          );
          expect(folds.length).toBe(Math.min(distinct, maxFolds));
          expect(folds.flatMap((fold) => fold.groups).sort()).toEqual([...new Set(groups)].sort());
          for (const fold of folds) {
            const tested = new Set(fold.test.map((i) => groups[i]));
            expect(fold.train.some((i) => tested.has(groups[i]))).toBe(false);
            expect([...tested].sort()).toEqual([...fold.groups].sort());
            expect(fold.train.length + fold.test.length).toBe(groups.length);
          }
        },
      ),
    );
  });

  it('scores each example with a model that did not see its video, and counts precision and recall per class', () => {
    // A "model" that answers the class it saw most in training: with video x all class 1 and y, z all class 0, the
    // held-out answers show which videos each model saw.
    const examples: Example[] = [
      ...Array.from({ length: 4 }, () => ({ features: [0], target: 1, group: 'x' })),
      ...Array.from({ length: 3 }, () => ({ features: [0], target: 0, group: 'y' })),
      ...Array.from({ length: 3 }, () => ({ features: [0], target: 0, group: 'z' })),
    ];
    const seen: number[][] = [];
    const result = crossValidate(examples, 2, undefined, (_rows, classes) => {
      seen.push(classes);
      const ones = classes.filter((c) => c === 1).length;
      const answer = ones * 2 > classes.length ? [0, 1] : [1, 0];
      return {
        probabilities: (toPredict) => toPredict.map(() => answer),
        toJSON: () => ({ classCount: 2, trees: [] }),
      };
    });
    expect(result.videos).toBe(3);
    // Testing x: trained on y and z only (six 0s) → says 0 for x's 1s. Testing y: x and z (4 ones, 3 zeros) → 1.
    expect(seen.map((classes) => classes.length)).toEqual([6, 7, 7]);
    expect(result.heldOut.slice(0, 4)).toEqual([
      [1, 0],
      [1, 0],
      [1, 0],
      [1, 0],
    ]);
    expect(result.classes[1]).toEqual({ class: 1, examples: 4, predicted: 6, precision: 0, recall: 0 });
    expect(result.classes[0]).toEqual({ class: 0, examples: 6, predicted: 4, precision: 0, recall: 0 });
    // One video: nothing can be held out, so nothing qualifies.
    const single = crossValidate(examples.slice(0, 4), 2);
    expect(single.classes.every((figures) => figures.precision === null && !qualifies(figures))).toBe(true);
  });
});

describe('the forest', () => {
  it('votes for the class of well-separated examples, the same way on every training', () => {
    // Two features that tell the classes apart and one that does not (each tree sees two of the three).
    const rows = Array.from({ length: 60 }, (_, i) => {
      const x = i % 2 === 0 ? 1 + (i % 7) / 10 : 5 + (i % 5) / 10;
      return [x, 2 * x + (i % 3) / 10, i % 3];
    });
    const classes = rows.map((row) => (row[0]! > 3 ? 1 : 0));
    const forest = trainForest(rows, classes, 2);
    const votes = forest.probabilities([
      [1.2, 2.5, 0],
      [5.3, 10.7, 2],
    ]);
    expect(votes[0]![0]).toBeGreaterThan(0.9);
    expect(votes[1]![1]).toBeGreaterThan(0.9);
    for (const shares of votes) expect(shares[0]! + shares[1]!).toBeCloseTo(1, 12);
    expect(JSON.stringify(trainForest(rows, classes, 2).toJSON())).toBe(JSON.stringify(forest.toJSON()));
    // One class only: that class, for sure.
    expect(trainForest([[1], [2]], [1, 1], 3).probabilities([[9]])).toEqual([[0, 1, 0]]);
    // The stored JSON answers exactly as the trained forest.
    const stored = JSON.parse(JSON.stringify(forest.toJSON())) as ForestJson;
    expect(loadForest(stored).probabilities(rows)).toEqual(forest.probabilities(rows));
  });

  it('splits where an exhaustive search of every threshold finds the lowest Gini impurity', () => {
    const giniOf = (classes: number[]) => {
      if (classes.length === 0) return 0;
      const counts = [0, 0, 0];
      for (const c of classes) counts[c]!++;
      return 1 - counts.reduce((sum, n) => sum + n * n, 0) / classes.length ** 2;
    };
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 2 })), {
          minLength: 2,
          maxLength: 30,
        }),
        fc.array(fc.nat(29), { minLength: 1, maxLength: 40 }),
        (points, draws) => {
          const rows = points.map(([value]) => [value]);
          const classes = points.map(([, c]) => c);
          const samples = draws.map((d) => d % points.length);
          const split = bestThreshold(rows, classes, 3, samples, 0);
          // Every midpoint between two distinct sampled values, scored by brute force.
          const values = [...new Set(samples.map((i) => rows[i]![0]!))].sort((a, b) => a - b);
          let best = Number.POSITIVE_INFINITY;
          for (let k = 0; k + 1 < values.length; k++) {
            const threshold = (values[k]! + values[k + 1]!) / 2;
            const left = samples.filter((i) => rows[i]![0]! < threshold).map((i) => classes[i]!);
            const right = samples.filter((i) => rows[i]![0]! >= threshold).map((i) => classes[i]!);
            best = Math.min(best, (left.length * giniOf(left) + right.length * giniOf(right)) / samples.length);
          }
          if (values.length < 2) expect(split).toBeNull();
          else expect(split!.impurity).toBeCloseTo(best, 12);
        },
      ),
    );
  });
});

describe('pose features', () => {
  it('measures the fastest part in body lengths per second, and the change of the parts’ mean speed', () => {
    // 10 fps, 41 frames; three still points spanning a 30 × 40 box (body length 50 px); at the event (frame 20, 2 s)
    // point 0 moves 10 px per frame for 3 frames, then stays.
    const fps = 10;
    const frames = 41;
    const x = [0, 30, 0].map((value) => new Float64Array(frames).fill(value));
    const y = [0, 0, 40].map((value) => new Float64Array(frames).fill(value));
    for (let f = 21; f < frames; f++) x[0]![f] = -10 * Math.min(3, f - 20);
    const [row] = poseFeatures({ fps, x, y }, [2]);
    const [peak, change] = row!;
    expect(POSE_FEATURE_NAMES).toEqual(['pose_peak_speed', 'pose_speed_change']);
    // The box grows to 60 × 40 while the point is out: the median of the 31 frames' diagonals is 72.11 px (√5200).
    const body = Math.sqrt(60 * 60 + 40 * 40);
    expect(peak).toBeCloseTo((10 * fps) / body, 12);
    // After: 3 moves of 100 px/s among 3 parts × 20 frame steps; before: all still.
    expect(change).toBeCloseTo(Math.log10(((3 * 100) / body / 60 + STILL_SPEED) / STILL_SPEED), 12);
    // Missing points everywhere: zeros.
    const empty = [0, 1].map(() => new Float64Array(frames).fill(Number.NaN));
    expect(poseFeatures({ fps, x: empty, y: empty }, [2])).toEqual([[0, 0]]);
  });
});

describe('a model', () => {
  it('suggests only where the classes qualify, with the vote share as its confidence', () => {
    // Discards at x < 0, kept "a" at 0 ≤ x < 10, kept "b" beyond, 40 examples each over 3 videos.
    const examples = Array.from({ length: 120 }, (_, i) => {
      const kind = i % 3;
      const x = kind === 0 ? -5 - (i % 7) : kind === 1 ? 2 + (i % 7) : 15 + (i % 7);
      return {
        features: [x, i % 5],
        discarded: kind === 0,
        label: kind === 1 ? 'a' : kind === 2 ? 'b' : null,
        group: `v${Math.floor(i / 3) % 3}`,
      };
    });
    const model = trainModel(examples, ['x', 'noise']);
    expect(model.json.labels).toEqual(['a', 'b']);
    expect(model.decisions.map((d) => [d.examples, d.precision])).toEqual([
      [80, 1],
      [40, 1],
    ]);
    const figures = { decisions: model.decisions, labels: model.labels, labelNames: model.json.labels };
    const [discard, a, b] = predict(model.json, [
      [-6, 0],
      [4, 0],
      [17, 0],
    ]).map((p) => suggestionOf(p, figures, { precision: 0.9, examples: 30 }));
    expect(discard).toMatchObject({ discard: true, label: null });
    expect(a).toMatchObject({ discard: false, label: 'a' });
    expect(b).toMatchObject({ discard: false, label: 'b' });
    expect(discard!.confidence).toBeGreaterThanOrEqual(0.85);
    // 40 examples per class: a bar of 41 examples suggests nothing.
    const prediction = predict(model.json, [[-6, 0]])[0]!;
    expect(suggestionOf(prediction, figures, { precision: 0.9, examples: 41 })).toBeNull();
  });
});

describe('what suggestions save (the issue’s measure)', () => {
  it('with a pose set, tells twitches from flickers the series alone cannot', () => {
    const scenes = [11, 12, 13].map((seed) => flickerScene(seed));
    const seriesOnly = reviewSavings(scenes, 100, 0.9, { withPose: false });
    const withPose = reviewSavings(scenes, 100, 0.9, { withPose: true });
    expect(withPose.decisions[1]!.precision).toBeGreaterThanOrEqual(0.95);
    expect(seriesOnly.decisions[1]!.precision ?? 0).toBeLessThan(0.8);
    expect(withPose.saved).toBeGreaterThan(seriesOnly.saved);
  });

  it('after 100 reviewed events over 3 videos: discard precision ≥ 0.95 held out, and half the keys saved', () => {
    const scenes = [1, 2, 3].map((seed) => reviewScene(seed));
    const report = reviewSavings(scenes, 100);
    expect(report.reviewed).toBe(100);
    const discard = report.decisions[1]!;
    expect(discard.examples).toBeGreaterThanOrEqual(30);
    expect(discard.precision).toBeGreaterThanOrEqual(0.95);
    expect(report.saved).toBeGreaterThanOrEqual(0.5);
    // What was accepted without a look was right (or nearly): the bar is what makes bulk acceptance safe.
    expect(report.acceptedWrong / report.accepted).toBeLessThanOrEqual(0.05);
    // By hand every remaining event costs its keys.
    const rest = scenes.flatMap((scene, v) => scene.events.slice(v === 0 ? 34 : 33));
    expect(report.keysByHand).toBe(rest.reduce((sum, event) => sum + manualKeys(event), 0));
  });
});
