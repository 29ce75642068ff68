import { describe, expect, it } from 'vitest';
import { decodeSourceOf } from '../../../../test/fixtures/decode-source.js';
import { analysisFixtures, JUMPS_FIXTURE } from '../../../../test/fixtures/videos.js';
import { resolveMediaBinaries } from '../../../adapters/media/binaries.js';
import { FfmpegMedia } from '../../../adapters/media/ffmpeg-media.js';
import { inputArgs } from '../../../adapters/media/input-policy.js';
import { runProcess } from '../../../adapters/media/run-process.js';
import { detectEvents } from './events.js';
import type { Rect } from './intensity.js';
import { referenceBlur, referenceChangedMask } from './intensity.reference.js';
import { analyseFrameRange, type MovementParameters } from './movement.js';
import { runTask } from './worker-client.js';

const fixtures = analysisFixtures();
const binaries = resolveMediaBinaries(process.env.TMPDIR ?? '/tmp');
const media = new FfmpegMedia(binaries);
const J = JUMPS_FIXTURE;

const defaults: MovementParameters = {
  threshold: 20,
  opening: 0,
  closing: 0,
  small_object_removal: 0,
  rois: [],
  bypass_ranges: [],
};

const sourceOf = (file: string) => decodeSourceOf(media, file);

async function analyse(
  file: string,
  parameters: Partial<MovementParameters>,
  startFrame = 0,
  endFrame: number | null = null,
) {
  const source = await sourceOf(file);
  const { values } = await analyseFrameRange({
    ffmpeg: binaries.ffmpeg,
    source,
    parameters: { ...defaults, ...parameters },
    startFrame,
    endFrame,
  });
  return values;
}

/**
 * The counting definition written as plainly as possible over whole frames that ffmpeg converted to gray itself
 * (its own colour conversion, not our luma shortcut): rounded 3×3 mean with reflected edges, |difference| >
 * threshold, counted inside the ROI.
 */
async function referenceCounts(file: string, threshold: number, roi: Rect | null): Promise<number[]> {
  const { stdout } = await runProcess(binaries.ffmpeg, [
    ...['-v', 'error', ...inputArgs({ path: file, demuxer: null }), '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'],
  ]);
  const { width, height } = J;
  const frameBytes = width * height;
  const frames = stdout.length / frameBytes;
  const blurred = (f: number) => referenceBlur(stdout.subarray(f * frameBytes, (f + 1) * frameBytes), width, height);
  const area = roi ?? { x: 0, y: 0, width, height };
  const counts = [0];
  let previous = blurred(0);
  for (let f = 1; f < frames; f++) {
    const current = blurred(f);
    counts.push(referenceChangedMask(previous, current, width, area, threshold).reduce((n, v) => n + v, 0));
    previous = current;
  }
  return counts;
}

function onsetFrames(values: Float64Array, fps: number) {
  return Array.from(
    detectEvents({ values, times: null, fps }, { event_threshold_k: 3, event_threshold: null, refractory_s: 0.5 })
      .onsets,
  );
}

const near = (actual: number[], expected: readonly number[]) => {
  expect(actual).toHaveLength(expected.length);
  for (const [i, frame] of actual.entries()) expect(Math.abs(frame - expected[i]!)).toBeLessThanOrEqual(1);
};

describe('movement detection on generated videos', () => {
  it('counts, value for value, what a plain reference loop counts on the same frames (whole frame and ROI)', async () => {
    const whole = await analyse(fixtures.jumpsMp4, {});
    expect(Array.from(whole)).toEqual(await referenceCounts(fixtures.jumpsMp4, 20, null));
    const roi = { x: 33, y: 91, width: 101, height: 57 };
    const inRoi = await analyse(fixtures.jumpsMp4, { rois: [{ start_s: 0, ...roi }], threshold: 12 });
    expect(Array.from(inRoi)).toEqual(await referenceCounts(fixtures.jumpsMp4, 12, roi));
    // The jumps really are in there: the comparison is not between two rows of zeros.
    expect(inRoi[J.jumpFrames[0]]).toBeGreaterThan(100);
  });

  it('finds the square’s jumps at their frames (±1) inside the ROI, and the sliding square outside it adds events', async () => {
    const inRoi = await analyse(fixtures.jumpsMp4, { rois: [{ start_s: 0, ...J.leftRoi }] });
    near(onsetFrames(inRoi, J.fps), J.jumpFrames);
    // Still frames inside the ROI change nothing at all.
    const quiet = Array.from(inRoi).filter((_, frame) => !J.jumpFrames.some((j) => Math.abs(frame - j) <= 1));
    expect(Math.max(...quiet)).toBe(0);
    const whole = await analyse(fixtures.jumpsMp4, {});
    const moving = Array.from(whole).filter((v, frame) => frame > 0 && v > 0).length;
    expect(moving).toBeGreaterThan(100);
  });

  it('gives the same onsets for the same content as MJPEG in AVI', async () => {
    const avi = await analyse(fixtures.jumpsAvi, { rois: [{ start_s: 0, ...J.leftRoi }] });
    near(onsetFrames(avi, J.fps), J.jumpFrames);
  });

  it('bypass ranges empty their frames and remove the events in them', async () => {
    const values = await analyse(fixtures.jumpsMp4, {
      rois: [{ start_s: 0, ...J.leftRoi }],
      bypass_ranges: [[1.9, 2.5]],
    });
    for (let frame = 57; frame < 75; frame++) expect(Number.isNaN(values[frame])).toBe(true);
    expect(Number.isNaN(values[56])).toBe(false);
    expect(values[75]).toBe(0);
    near(onsetFrames(values, J.fps), [J.jumpFrames[0], J.jumpFrames[2]]);
  });

  it('switches ROIs at their start times', async () => {
    // 0–1.5 s the left part (first jump), 1.5–4 s an empty patch of texture (later jumps unseen), from 4 s the
    // sliding square.
    const values = await analyse(fixtures.jumpsMp4, {
      rois: [
        { start_s: 0, ...J.leftRoi },
        { start_s: 1.5, x: 160, y: 150, width: 60, height: 90 },
        { start_s: 4, x: 220, y: 50, width: 100, height: 50 },
      ],
    });
    expect(values[J.jumpFrames[0]]).toBeGreaterThan(0);
    expect(Math.max(...Array.from(values.subarray(45, 120)))).toBe(0);
    expect(Array.from(values.subarray(120)).filter((v) => v > 0).length).toBeGreaterThan(20);
  });

  for (const [name, file] of [
    ['H.264 with B-frames', fixtures.jumpsMp4],
    ['MJPEG AVI', fixtures.jumpsAvi],
  ] as const) {
    it(`segmented runs equal the single pass exactly (${name})`, async () => {
      const parameters = { threshold: 15, opening: 3, small_object_removal: 5 };
      const single = await analyse(file, parameters);
      expect(single).toHaveLength(J.frames);
      // Cuts just before, at and after keyframes (every 48 frames) and mid-GOP.
      for (const cuts of [
        [0, 47, 48, 49, 150],
        [0, 1, 30, 96, 150],
        [0, 75, 150],
      ]) {
        const parts: number[] = [];
        for (let i = 0; i + 1 < cuts.length; i++) {
          const last = i + 2 === cuts.length;
          parts.push(...(await analyse(file, parameters, cuts[i]!, last ? null : cuts[i + 1]!)));
        }
        expect(parts).toEqual(Array.from(single));
      }
    });
  }

  it('runs in a worker thread with the same result as in-process', async () => {
    const source = await sourceOf(fixtures.jumpsMp4);
    const parameters = { ...defaults, rois: [{ start_s: 0, ...J.leftRoi }] };
    const progress: number[] = [];
    const { values } = await runTask(
      { kind: 'frames', ffmpeg: binaries.ffmpeg, source, parameters, startFrame: 0, endFrame: null },
      { onProgress: (n) => progress.push(n) },
    );
    expect(Array.from(values)).toEqual(Array.from(await analyse(fixtures.jumpsMp4, parameters)));
  });
});
