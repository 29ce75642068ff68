/**
 * Pose files for the frame-coded video (support/quick-score.ts), written by the server tests' own writers of the
 * formats (apps/server/src/modules/pose/pose-files.test-support.ts: DeepLabCut's CSV and config.yaml), from truths
 * defined here, and the waits of a page whose player draws them.
 */
import { expect, type Page } from '@playwright/test';
import { dlcConfigYaml, dlcCsv, type PoseTruth } from '../../apps/server/src/modules/pose/pose-files.test-support';
import { CODED, shownFrame } from './quick-score';

const SCORER = 'DLC_resnet50_openfieldNov27shuffle1_1000';

/**
 * The overlay's file: body part p at frame f sits at (20.25 + 100·p + f mod 100, 30.5 + 70·p + ⌊f / 10⌋ mod 40). The
 * nose is sure (0.95), the ear only on even frames (0.9, else 0.3), the tail fairly (0.8).
 */
export const OVERLAY_PARTS = ['nose', 'ear', 'tail'] as const;
export const overlayPosition = (part: number, frame: number) => ({
  x: 20.25 + 100 * part + (frame % 100),
  y: 30.5 + 70 * part + (Math.floor(frame / 10) % 40),
});
export const overlayLikelihood = (part: number, frame: number) =>
  part === 0 ? 0.95 : part === 1 ? (frame % 2 ? 0.3 : 0.9) : 0.8;

export function overlayCsv(): Buffer {
  const truth: PoseTruth = {
    frames: CODED.frames,
    individuals: ['single'],
    parts: { single: [...OVERLAY_PARTS] },
    point(frame, _individual, part) {
      const p = OVERLAY_PARTS.indexOf(part as (typeof OVERLAY_PARTS)[number]);
      const { x, y } = overlayPosition(p, frame);
      return [x, y, overlayLikelihood(p, frame)];
    },
  };
  return dlcCsv(truth, { scorer: SCORER });
}

/**
 * The novel-object scene, for derived series, zones and rules: a nose, a tail and the object, all sure (0.95). The
 * object stays at (250, 120). The nose waits at (60, 120), swaying half a pixel, and visits the object — sitting 10 px
 * from it, at (240, 120) — at frames 300–359 and 600–659 (10–12 s and 20–22 s): each arrival and departure is one
 * frame's jump of 180 px (5,400 px/s against a sway under 3 px/s), so the nose's speed has events at frames 300, 360,
 * 600 and 660, its distance to the object is below 20 px exactly during the visits, and a zone around the object
 * holds the nose 4 s in 2 entries, first at 10 s.
 */
export const OBJECT_SCENE = {
  object: [250, 120] as const,
  visits: [
    [300, 360],
    [600, 660],
  ] as const,
  /** The frames where the nose's speed jumps. */
  jumps: [300, 360, 600, 660],
  /** A square around the object, in video pixels (the picture is 320 × 240). */
  zone: { from: [225, 95] as const, to: [275, 145] as const },
  skeleton: [['nose', 'tail']] as [string, string][],
};

const visiting = (frame: number) => OBJECT_SCENE.visits.some(([start, end]) => frame >= start && frame < end);

const objectTruth: PoseTruth = {
  frames: CODED.frames,
  individuals: ['single'],
  parts: { single: ['nose', 'tail', 'object'] },
  point(frame, _individual, part) {
    if (part === 'object') return [OBJECT_SCENE.object[0], OBJECT_SCENE.object[1], 0.95];
    const sway = 0.5 * Math.sin(frame / 5);
    if (part === 'tail') return [40 + sway, 140, 0.95];
    return visiting(frame) ? [240, 120 + sway, 0.95] : [60 + sway, 120, 0.95];
  },
};

export const objectSceneCsv = () => dlcCsv(objectTruth, { scorer: SCORER });
/** The scene's DeepLabCut project file; `skeleton` may name parts the file lacks, to see the import refuse it. */
export const objectSceneConfig = (skeleton: [string, string][] = OBJECT_SCENE.skeleton) =>
  dlcConfigYaml(objectTruth, skeleton);

export async function videoLoaded(page: Page) {
  await expect
    .poll(() => page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => v.readyState))
    .toBeGreaterThanOrEqual(2);
}

/** Waits until the browser shows `frame` and the overlay has drawn it. */
export async function atFrame(page: Page, frame: number) {
  await expect.poll(() => shownFrame(page)).toBe(frame);
  await expect(page.getByTestId('pose-layer')).toHaveAttribute('data-frame', String(frame));
  await expect(page.getByTestId('pose-layer')).toHaveAttribute('data-loaded', 'true');
}
