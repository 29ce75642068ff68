/**
 * `body_core` (ADR 024) on generated open-field videos with known truth (test/fixtures/mouse-scenes.ts): for each
 * hard case of issue 22, the body centre — the midpoint of the head and the tail base — within a median of 6 px,
 * a 90th percentile of 12 px and 20 px at worst, over every frame, with the default settings; and, on the same
 * frames, closer than the plain centre of mass of the thresholded difference that ezTrack computes.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MouseScene, type MouseSceneOptions, mouseScene } from '../../../../../test/fixtures/mouse-scenes.js';
import { resolveMediaBinaries } from '../../../../adapters/media/binaries.js';
import { inputArgs } from '../../../../adapters/media/input-policy.js';
import { runProcess } from '../../../../adapters/media/run-process.js';
import { BODY_DEFAULTS, BODY_RANGES } from './body-parameters.js';
import { checkReference } from './body-reference.js';
import { createBodyTracker } from './body-tracker.js';
import type { Point } from './tracker.js';
import {
  type ErrorFigures,
  errorFigures,
  medianReference,
  plainCentreOfMass,
  referenceIndices,
} from './tracking.reference.js';

const BOUNDS = { median: 6, p90: 12, max: 20 };

/** The frames a reference is made of (ezTrack's positions, 50 of them). */
function referenceFrames(scene: MouseScene): Uint8Array[] {
  return referenceIndices(scene.frames, BODY_DEFAULTS.reference_frames).map((k) => {
    const frame = new Uint8Array(scene.width * scene.height);
    scene.render(k, frame);
    return frame;
  });
}

interface Run {
  ours: ErrorFigures;
  plain: ErrorFigures;
  positions: (Point | null)[];
}

/** Tracks every frame with `body_core` on `reference` and the plain centre of mass on `plainReference`. */
function run(scene: MouseScene, reference: Float32Array, plainReference: Float32Array, dark: boolean): Run {
  const { width, height } = scene;
  const tracker = createBodyTracker({ parameters: {}, reference, width, height, exclusionMask: null, handoff: null });
  const frame = new Uint8Array(width * height);
  const positions: (Point | null)[] = [];
  const plain: (Point | null)[] = [];
  for (let k = 0; k < scene.frames; k++) {
    scene.render(k, frame);
    positions.push(tracker.track(frame));
    plain.push(plainCentreOfMass(frame, plainReference, width, dark));
  }
  return { ours: errorFigures(positions, scene.body), plain: errorFigures(plain, scene.body), positions };
}

function expectWithinBounds(figures: ErrorFigures) {
  expect(figures.missing).toBe(0);
  expect(figures.median).toBeLessThanOrEqual(BOUNDS.median);
  expect(figures.p90).toBeLessThanOrEqual(BOUNDS.p90);
  expect(figures.max).toBeLessThanOrEqual(BOUNDS.max);
}

function expectBetter(ours: ErrorFigures, plain: ErrorFigures) {
  expect(ours.median).toBeLessThan(plain.median);
  expect(ours.p90).toBeLessThan(plain.p90);
  expect(ours.max).toBeLessThan(plain.max);
}

const HARD_CASES: { label: string; options: MouseSceneOptions }[] = [
  { label: 'a dark mouse with a thin tail', options: { frames: 150, seed: 11, animal: 'dark' } },
  { label: 'a light mouse on dark bedding', options: { frames: 150, seed: 12, animal: 'light' } },
  {
    label: 'a tethered mouse (a cable from its head)',
    options: { frames: 150, seed: 13, animal: 'dark', tether: true },
  },
  {
    label: 'a gloved hand, darker than the mouse, reaching in beside it',
    options: { frames: 150, seed: 14, animal: 'dark', hand: { from: 30, to: 130 } },
  },
  {
    label: 'far jumps (cuts, dropped frames) of 250 px or more',
    options: { frames: 150, seed: 15, animal: 'dark', jumps: [40, 80, 120] },
  },
];

describe('body_core finds the body centre in each hard case, with no tuning', () => {
  for (const { label, options } of HARD_CASES) {
    it(`${label}: within ${BOUNDS.median}/${BOUNDS.p90}/${BOUNDS.max} px, closer than the plain centre of mass`, () => {
      const scene = mouseScene(options);
      const frames = referenceFrames(scene);
      const reference = medianReference(frames, scene.width * scene.height);
      // The reference is clean here, and the check says so (and which way the animal differs).
      const check = checkReference({
        reference,
        frames,
        width: scene.width,
        height: scene.height,
        exclusionMask: null,
      });
      expect(check).toMatchObject({ holdsAnimal: false, region: null, repaired: null });
      expect(check.polarity).toBe(options.animal === 'dark' ? -1 : 1);
      const { ours, plain } = run(scene, reference, reference, options.animal === 'dark');
      expectWithinBounds(ours);
      expectBetter(ours, plain);
    });
  }
});

describe('an animal that sits still for 80 % of the video', () => {
  const scene = mouseScene({ frames: 200, seed: 16, animal: 'dark', stillFrom: 40 });
  const size = scene.width * scene.height;
  let frames: Uint8Array[];
  let median: Float32Array;

  beforeAll(() => {
    frames = referenceFrames(scene);
    median = medianReference(frames, size);
  });

  it('is in the median reference: the check finds it where it rests, and body_core cannot work on that reference', () => {
    const check = checkReference({
      reference: median,
      frames,
      width: scene.width,
      height: scene.height,
      exclusionMask: null,
    });
    expect(check.holdsAnimal).toBe(true);
    expect(check.polarity).toBe(-1);
    const rest = scene.body[scene.frames - 1] as Point;
    const region = check.region;
    expect(region).not.toBeNull();
    if (!region) return;
    expect(rest.x).toBeGreaterThan(region.x);
    expect(rest.x).toBeLessThan(region.x + region.width);
    expect(rest.y).toBeGreaterThan(region.y);
    expect(rest.y).toBeLessThan(region.y + region.height);
    // The region is about the animal's size, not the picture.
    expect(region.width * region.height).toBeLessThan(size / 8);
    const unrepaired = run(scene, median, median, true).ours;
    expect(unrepaired.max).toBeGreaterThan(BOUNDS.max);
  });

  it('on the repaired reference body_core is within bounds; the plain centre of mass on the median is not', () => {
    const check = checkReference({
      reference: median,
      frames,
      width: scene.width,
      height: scene.height,
      exclusionMask: null,
    });
    expect(check.repaired).not.toBeNull();
    expect(check.repairFrames).toBeGreaterThanOrEqual(3);
    if (!check.repaired) return;
    // Outside the region the repair changes nothing.
    const region = check.region as NonNullable<typeof check.region>;
    let changedOutside = 0;
    for (let i = 0; i < size; i++) {
      const x = i % scene.width;
      const y = (i - x) / scene.width;
      const inside = x >= region.x && x < region.x + region.width && y >= region.y && y < region.y + region.height;
      if (!inside && check.repaired[i] !== median[i]) changedOutside++;
    }
    expect(changedOutside).toBe(0);
    const { ours, plain } = run(scene, check.repaired, median, true);
    expectWithinBounds(ours);
    expectBetter(ours, plain);
  });

  it('on a reference from an empty-arena video of the same setup body_core is within bounds', () => {
    const empty = Array.from({ length: 15 }, (_, k) => {
      const frame = new Uint8Array(size);
      scene.render(k * 13, frame, { empty: true });
      return frame;
    });
    const reference = medianReference(empty, size);
    expect(
      checkReference({ reference, frames, width: scene.width, height: scene.height, exclusionMask: null }),
    ).toMatchObject({ holdsAnimal: false, polarity: -1 });
    expectWithinBounds(run(scene, reference, median, true).ours);
  });
});

describe('a split run equals a single pass', () => {
  const scene = mouseScene({
    frames: 120,
    seed: 17,
    animal: 'dark',
    tether: true,
    hand: { from: 20, to: 80 },
    jumps: [50, 100],
  });
  const size = scene.width * scene.height;
  const frames: Uint8Array[] = [];
  let reference: Float32Array;

  beforeAll(() => {
    for (let k = 0; k < scene.frames; k++) {
      const frame = new Uint8Array(size);
      scene.render(k, frame);
      frames.push(frame);
    }
    reference = medianReference(
      referenceIndices(scene.frames, 50).map((k) => frames[k] as Uint8Array),
      size,
    );
  });

  const track = (from: number, to: number, handoff: unknown) => {
    const tracker = createBodyTracker({
      parameters: {},
      reference,
      width: scene.width,
      height: scene.height,
      exclusionMask: null,
      handoff: handoff === null ? null : JSON.parse(JSON.stringify(handoff)),
    });
    const positions = frames.slice(from, to).map((frame) => tracker.track(frame));
    return { positions, handoff: tracker.handoff() };
  };

  it('at any frame (the hand coming and going, a jump, the first and last frames), through JSON', () => {
    const whole = track(0, scene.frames, null);
    expectWithinBounds(errorFigures(whole.positions, scene.body));
    for (const cut of [1, 19, 20, 21, 33, 50, 51, 79, 80, 100, 119]) {
      const first = track(0, cut, null);
      const second = track(cut, scene.frames, first.handoff);
      expect([...first.positions, ...second.positions], `cut at ${cut}`).toEqual(whole.positions);
      expect(second.handoff).toEqual(whole.handoff);
    }
  });

  it('in three pieces, and the frame buffer may be reused by the caller', () => {
    const whole = track(0, scene.frames, null);
    const buffer = new Uint8Array(size);
    let handoff: unknown = null;
    const positions: (Point | null)[] = [];
    for (const [from, to] of [
      [0, 40],
      [40, 90],
      [90, scene.frames],
    ] as const) {
      const tracker = createBodyTracker({
        parameters: {},
        reference,
        width: scene.width,
        height: scene.height,
        exclusionMask: null,
        handoff: handoff === null ? null : JSON.parse(JSON.stringify(handoff)),
      });
      for (let k = from; k < to; k++) {
        buffer.set(frames[k] as Uint8Array);
        positions.push(tracker.track(buffer));
      }
      handoff = tracker.handoff();
    }
    expect(positions).toEqual(whole.positions);
  });

  it('excluded pixels are ignored: no position falls in them, and with all of them excluded nothing is found', () => {
    const exclusion = new Uint8Array(size);
    // Everything right of x = 470: the animal's body stays left of it (its tail and the hand may not).
    for (let i = 0; i < size; i++) if (i % scene.width >= 470) exclusion[i] = 1;
    const withHand = createBodyTracker({
      parameters: {},
      reference,
      width: scene.width,
      height: scene.height,
      exclusionMask: exclusion,
      handoff: null,
    });
    const positions = frames.map((frame) => withHand.track(frame));
    expect(positions.every((p) => p === null || p.x < 470)).toBe(true);
    expectWithinBounds(errorFigures(positions, scene.body));
    const blind = createBodyTracker({
      parameters: {},
      reference,
      width: scene.width,
      height: scene.height,
      exclusionMask: new Uint8Array(size).fill(1),
      handoff: null,
    });
    expect(frames.slice(0, 10).map((frame) => blind.track(frame))).toEqual(Array(10).fill(null));
  });

  it('keeps pace with decoding: well under a millisecond of CPU per 640×480 frame', () => {
    const tracker = createBodyTracker({
      parameters: {},
      reference,
      width: scene.width,
      height: scene.height,
      exclusionMask: null,
      handoff: null,
    });
    for (const frame of frames) tracker.track(frame);
    let best = Number.POSITIVE_INFINITY;
    for (let round = 0; round < 3; round++) {
      const start = process.cpuUsage();
      for (const frame of frames) tracker.track(frame);
      const used = process.cpuUsage(start);
      best = Math.min(best, (used.user + used.system) / 1000 / frames.length);
    }
    expect(best).toBeLessThan(1);
  });
});

describe('through a real encode: x264 at CRF 23, decoded to gray by ffmpeg', () => {
  const binaries = resolveMediaBinaries(process.env.TMPDIR ?? '/tmp');
  const scene = mouseScene({ frames: 120, seed: 18, animal: 'dark', tether: true });
  const size = scene.width * scene.height;
  let dir: string;
  let decoded: Uint8Array[];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'body-tracker-'));
    const raw = Buffer.alloc(size * scene.frames);
    for (let k = 0; k < scene.frames; k++) scene.render(k, raw.subarray(k * size, (k + 1) * size));
    const rawFile = path.join(dir, 'scene.gray');
    const video = path.join(dir, 'scene.mp4');
    writeFileSync(rawFile, raw);
    execFileSync(binaries.ffmpeg, [
      ...['-hide_banner', '-v', 'error', '-y'],
      ...['-f', 'rawvideo', '-pix_fmt', 'gray', '-s', `${scene.width}x${scene.height}`, '-r', '30', '-i', rawFile],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', video],
    ]);
    const out = Buffer.alloc(size * scene.frames);
    let filled = 0;
    await runProcess(
      binaries.ffmpeg,
      ['-v', 'error', ...inputArgs({ path: video, demuxer: null }), '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'],
      {
        onStdout: (chunk) => {
          chunk.copy(out, filled);
          filled += chunk.length;
        },
      },
    );
    expect(filled).toBe(size * scene.frames);
    decoded = Array.from({ length: scene.frames }, (_, k) => out.subarray(k * size, (k + 1) * size));
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the decoded frames carry compression noise, and body_core stays within bounds and beats the plain centre of mass', () => {
    const rendered = new Uint8Array(size);
    scene.render(60, rendered);
    let differing = 0;
    for (let i = 0; i < size; i++) if (rendered[i] !== (decoded[60] as Uint8Array)[i]) differing++;
    expect(differing).toBeGreaterThan(size / 4);
    const reference = medianReference(
      referenceIndices(scene.frames, 50).map((k) => decoded[k] as Uint8Array),
      size,
    );
    const tracker = createBodyTracker({
      parameters: {},
      reference,
      width: scene.width,
      height: scene.height,
      exclusionMask: null,
      handoff: null,
    });
    const ours = decoded.map((frame) => tracker.track(frame));
    const plain = decoded.map((frame) => plainCentreOfMass(frame, reference, scene.width, true));
    const figures = errorFigures(ours, scene.body);
    expectWithinBounds(figures);
    expectBetter(figures, errorFigures(plain, scene.body));
  });
});

describe('settings', () => {
  it('every default lies in its range, whole where it must be', () => {
    for (const [name, range] of Object.entries(BODY_RANGES)) {
      const value = BODY_DEFAULTS[name as keyof typeof BODY_RANGES];
      expect(value, name).toBeGreaterThanOrEqual(range.min);
      expect(value, name).toBeLessThanOrEqual(range.max);
      if (range.integer) expect(Number.isInteger(value), name).toBe(true);
    }
  });

  it('refuses a reference or exclusion mask of the wrong size', () => {
    const base = { parameters: {}, width: 8, height: 6, handoff: null };
    expect(() => createBodyTracker({ ...base, reference: new Float32Array(47), exclusionMask: null })).toThrow();
    expect(() =>
      createBodyTracker({ ...base, reference: new Float32Array(48), exclusionMask: new Uint8Array(40) }),
    ).toThrow();
  });
});
