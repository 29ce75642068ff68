/**
 * The `eztrack` tracker against the plain reference of its definition (eztrack.reference.ts) on generated arenas
 * with known truth: every setting that changes a branch (methods, window, weight, threshold, wire kernel, even
 * kernels, exclusion), frames where nothing is left, an opening that leaves nothing, and split runs. Positions must
 * be equal to the last bit: both follow numpy's order of summation, so no tolerance is needed.
 */
import { describe, expect, it } from 'vitest';
import { createEztrackTracker } from './eztrack.js';
import { referenceTrack } from './eztrack.reference.js';
import { makeScene, type Scene } from './eztrack.scenes.js';
import { polygonsMask } from './polygon-mask.js';
import { medianReference } from './reference.js';
import { EZTRACK_DEFAULTS, type EztrackParameters, type Point, type TrackerHandoff } from './tracker.js';

const WIDTH = 96;
const HEIGHT = 72;

function run(
  scene: Scene,
  parameters: EztrackParameters,
  reference: Float32Array,
  exclusionMask: Uint8Array | null = null,
  frames: readonly Uint8Array[] = scene.frames,
  handoff: TrackerHandoff | null = null,
) {
  const tracker = createEztrackTracker({
    parameters,
    reference,
    width: scene.width,
    height: scene.height,
    exclusionMask,
    handoff,
  });
  const positions = frames.map((frame) => tracker.track(frame));
  return { positions, handoff: tracker.handoff() };
}

function expectSameAsReference(
  scene: Scene,
  parameters: EztrackParameters,
  reference: Float32Array,
  exclusionMask: Uint8Array | null = null,
) {
  const ours = run(scene, parameters, reference, exclusionMask).positions;
  const expected = referenceTrack(
    { parameters, reference, width: scene.width, height: scene.height, exclusionMask },
    scene.frames,
  );
  expect(ours).toEqual(expected);
  return ours;
}

const distance = (a: Point | null, b: Point | null) => (a && b ? Math.hypot(a.x - b.x, a.y - b.y) : Number.NaN);

const darkScene = makeScene({
  width: WIDTH,
  height: HEIGHT,
  frames: 14,
  seed: 7,
  wire: 70,
  distractor: [6, 54, 7, 20],
});
// The reference shows the arena without the distractor (it arrives after the reference frames, say).
const darkReference = medianReference(
  makeScene({ width: WIDTH, height: HEIGHT, frames: 14, seed: 7, wire: 70 }).frames,
  WIDTH,
  HEIGHT,
);
const exclusion = polygonsMask(
  [
    [
      [3.5, 51.2],
      [16.9, 51],
      [17, 64.7],
      [3, 64],
    ],
  ],
  WIDTH,
  HEIGHT,
);
const windowed: EztrackParameters = { ...EZTRACK_DEFAULTS, window_size: 30 };

describe('eztrack equals its definition', () => {
  it('with ezTrack’s defaults, a wire and an excluded distractor', () => {
    const positions = expectSameAsReference(darkScene, EZTRACK_DEFAULTS, darkReference, exclusion);
    // And it finds the animal: its darkest change lies on its body (semi-axes 8 × 4.5 px).
    positions.forEach((p, f) => {
      expect(distance(p, darkScene.centres[f] ?? null)).toBeLessThan(8);
    });
  });

  it('with a window smaller than the arena, for each window weight', () => {
    for (const window_weight of [0.9, 0.5, 0, 1]) {
      expectSameAsReference(darkScene, { ...windowed, window_weight }, darkReference, exclusion);
    }
  });

  it('for odd, even and degenerate window sizes, and without the window', () => {
    for (const window_size of [0, 1, 7, 31, 200]) {
      expectSameAsReference(darkScene, { ...windowed, window_size }, darkReference, exclusion);
    }
    expectSameAsReference(darkScene, { ...windowed, use_window: false }, darkReference, exclusion);
  });

  it('for each wire kernel, even ones included, and without wire removal', () => {
    for (const wire_krn of [1, 2, 3, 4, 8]) {
      expectSameAsReference(darkScene, { ...windowed, wire_krn }, darkReference, exclusion);
    }
    expectSameAsReference(darkScene, { ...windowed, rmv_wire: false }, darkReference, exclusion);
  });

  it('for thresholds whose percentile falls on ties, on 0, and at the ends', () => {
    for (const loc_thresh of [0, 12.5, 50, 90, 97.31, 99.9, 100]) {
      expectSameAsReference(darkScene, { ...windowed, loc_thresh }, darkReference, exclusion);
      expectSameAsReference(darkScene, { ...windowed, loc_thresh, use_window: false }, darkReference, exclusion);
    }
  });

  it('for the light and abs methods, on a light animal', () => {
    const light = makeScene({ width: WIDTH, height: HEIGHT, frames: 10, seed: 3, animal: 235, wire: 220 });
    const reference = medianReference(light.frames, WIDTH, HEIGHT);
    for (const method of ['light', 'abs', 'dark'] as const) {
      const positions = expectSameAsReference(light, { ...windowed, method }, reference);
      if (method === 'dark') continue;
      positions.forEach((p, f) => {
        expect(distance(p, light.centres[f] ?? null)).toBeLessThan(6);
      });
    }
  });

  it('gives no position when nothing is left, and windows the next frame with an empty square', () => {
    // Noise-free frames of the bare floor against a reference of the bare floor: the difference is all 0.
    const scene = makeScene({
      width: WIDTH,
      height: HEIGHT,
      frames: 8,
      seed: 11,
      noise: 0,
      wire: null,
      empty: [0, 3, 4],
    });
    const reference = medianReference([scene.floor], WIDTH, HEIGHT);
    const positions = expectSameAsReference(scene, windowed, reference);
    expect(positions.map((p) => p === null)).toEqual([true, false, false, true, true, false, false, false]);
    // With window_weight 1 an empty square leaves nothing: ezTrack (x86-64) never finds the animal again.
    const later = makeScene({ width: WIDTH, height: HEIGHT, frames: 7, seed: 11, noise: 0, wire: null, empty: [3] });
    const stuck = expectSameAsReference(later, { ...windowed, window_weight: 1 }, reference);
    expect(stuck.map((p) => p === null)).toEqual([false, false, false, true, true, true, true]);
  });

  it('keeps the frame before the opening when the opening leaves nothing', () => {
    // A 25 × 25 kernel fits in no animal 16 × 9 px: every opening is empty, so rmv_wire changes nothing.
    const params = { ...windowed, wire_krn: 25 };
    const opened = expectSameAsReference(darkScene, params, darkReference, exclusion);
    expect(opened).toEqual(run(darkScene, { ...params, rmv_wire: false }, darkReference, exclusion).positions);
    // While a kernel that fits does change positions.
    const small = run(darkScene, { ...windowed, wire_krn: 3 }, darkReference, exclusion).positions;
    expect(small).not.toEqual(opened);
  });

  it('ignores the exclusion region; without it the distractor pulls the position', () => {
    const excluded = run(darkScene, windowed, darkReference, exclusion).positions;
    const included = expectSameAsReference(darkScene, { ...windowed }, darkReference, null);
    const error = (positions: (Point | null)[]) =>
      Math.max(...positions.map((p, f) => distance(p, darkScene.centres[f] ?? null)));
    expect(error(excluded)).toBeLessThan(8);
    expect(error(included)).toBeGreaterThan(error(excluded));
  });

  it('removes a wire as dark as the animal', () => {
    const scene = makeScene({ width: WIDTH, height: HEIGHT, frames: 10, seed: 5, wire: 50, semiAxes: [9, 5] });
    const reference = medianReference(scene.frames, WIDTH, HEIGHT);
    const params = { ...EZTRACK_DEFAULTS, loc_thresh: 97 };
    const error = (positions: (Point | null)[]) =>
      positions.reduce((sum, p, f) => sum + distance(p, scene.centres[f] ?? null), 0) / positions.length;
    const kept = expectSameAsReference(scene, { ...params, rmv_wire: false }, reference);
    const removed = expectSameAsReference(scene, params, reference);
    expect(error(removed)).toBeLessThan(error(kept) - 1);
  });

  it('puts the position at the mean pixel index of the animal (x = column, not column + ½)', () => {
    // Flat floor, no noise, reference = the floor: the difference is the same everywhere on the animal.
    const scene = makeScene({ width: WIDTH, height: HEIGHT, frames: 6, seed: 2, texture: 0, noise: 0, wire: null });
    const reference = medianReference([scene.floor], WIDTH, HEIGHT);
    // Without the window (int16 values) and with one covering the arena (float64 values).
    const positions = [
      ...expectSameAsReference(scene, { ...windowed, use_window: false, loc_thresh: 50, rmv_wire: false }, reference),
      ...expectSameAsReference(scene, { ...windowed, window_size: 200, loc_thresh: 50, rmv_wire: false }, reference),
    ];
    positions.forEach((p, i) => {
      const f = i % scene.frames.length;
      const drawn = scene.drawnCentroids[f] as Point;
      expect(Math.abs((p as Point).x - drawn.x)).toBeLessThan(1e-12);
      expect(Math.abs((p as Point).y - drawn.y)).toBeLessThan(1e-12);
      // The drawn pixels' indices average half a pixel left of and above the true centre.
      expect(Math.abs(drawn.x + 0.5 - (scene.centres[f] as Point).x)).toBeLessThan(0.3);
    });
  });
});

describe('a split run', () => {
  it('equals one pass wherever it is split, through a JSON hand-off', () => {
    const scene = makeScene({ width: WIDTH, height: HEIGHT, frames: 9, seed: 13, wire: 70, empty: [4] });
    const reference = medianReference(scene.frames, WIDTH, HEIGHT);
    const whole = run(scene, windowed, reference).positions;
    for (let split = 0; split <= scene.frames.length; split++) {
      const head = run(scene, windowed, reference, null, scene.frames.slice(0, split));
      const handoff = JSON.parse(JSON.stringify(head.handoff)) as TrackerHandoff;
      const tail = run(scene, windowed, reference, null, scene.frames.slice(split), split === 0 ? null : handoff);
      expect([...head.positions, ...tail.positions]).toEqual(whole);
    }
  });

  it('starts the window from a hand-off with a position even without the started flag', () => {
    const whole = run(darkScene, windowed, darkReference).positions;
    const previous = whole[4] as Point;
    const tail = run(darkScene, windowed, darkReference, null, darkScene.frames.slice(5), { previous });
    expect(tail.positions).toEqual(whole.slice(5));
  });
});
