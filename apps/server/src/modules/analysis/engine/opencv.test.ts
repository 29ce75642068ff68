/**
 * The counting definition against OpenCV itself (ADR 006). OpenCV's own WebAssembly build (opencv.js 4.12, from
 * docs.opencv.org, packaged as @techstark/opencv-js) computes what a lab computes in a notebook:
 *
 *   blurred = cv2.blur(gray, (3, 3)); count = cv2.countNonZero((cv2.absdiff(blurred, previous) > threshold)[roi])
 *
 * and the engine must give that number for every frame of real decoded video, exactly. Independent of the engine:
 * the frames reach OpenCV through ffmpeg's own gray conversion (`-pix_fmt gray`), not the engine's luma shortcut,
 * and the active ROI is worked out here, not by plan.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type * as OpenCv from '@techstark/opencv-js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeSourceOf } from '../../../../test/fixtures/decode-source.js';
import { resolveMediaBinaries } from '../../../adapters/media/binaries.js';
import { FfmpegMedia } from '../../../adapters/media/ffmpeg-media.js';
import { inputArgs } from '../../../adapters/media/input-policy.js';
import { runProcess } from '../../../adapters/media/run-process.js';
import type { DecodeSource } from './decode.js';
import { IntensityCounter, type Rect } from './intensity.js';
import { analyseFrameRange, type MovementParameters } from './movement.js';
import {
  type Cv,
  grayMat,
  loadOpenCv,
  openCvBlur,
  openCvChanged,
  openCvCountIn,
  openCvMaskIn,
} from './opencv.reference.js';
import type { TimedRoi } from './plan.js';

let cv: Cv;

const noMorphology = { opening: 0, closing: 0, small_object_removal: 0 };

beforeAll(async () => {
  ({ cv } = await loadOpenCv());
});

describe('the engine equals OpenCV on random frames', () => {
  /** Pictures from 1×1 up, frames, thresholds and ROIs anywhere in them (edges included). */
  const scenario = fc
    .record({ width: fc.integer({ min: 1, max: 40 }), height: fc.integer({ min: 1, max: 40 }) })
    .chain(({ width, height }) =>
      fc.record({
        width: fc.constant(width),
        height: fc.constant(height),
        frames: fc.array(fc.uint8Array({ minLength: width * height, maxLength: width * height }), {
          minLength: 2,
          maxLength: 4,
        }),
        threshold: fc.oneof(
          { weight: 4, arbitrary: fc.integer({ min: 0, max: 40 }) },
          { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }) },
        ),
        roi: fc
          .record({ x: fc.integer({ min: 0, max: width - 1 }), y: fc.integer({ min: 0, max: height - 1 }) })
          .chain(({ x, y }) =>
            fc.record({
              x: fc.constant(x),
              y: fc.constant(y),
              width: fc.integer({ min: 1, max: width - x }),
              height: fc.integer({ min: 1, max: height - y }),
            }),
          ),
      }),
    );

  it('blurs every pixel to what cv2.blur gives and counts what absdiff > threshold counts in the ROI', () => {
    fc.assert(
      fc.property(scenario, ({ width, height, frames, threshold, roi }) => {
        const counter = new IntensityCounter(width, height, { threshold, ...noMorphology });
        let previous: OpenCv.Mat | undefined;
        for (const frame of frames) {
          const gray = grayMat(frame, width, height);
          const blurred = openCvBlur(gray);
          gray.delete();
          const count = counter.push(frame, roi);
          try {
            expect(Array.from(counter.blurredFrame())).toEqual(Array.from(blurred.data));
            if (previous) {
              const changed = openCvChanged(blurred, previous, threshold);
              expect(count).toBe(openCvCountIn(changed, roi));
              changed.delete();
            }
          } finally {
            previous?.delete();
            previous = blurred;
          }
        }
        previous?.delete();
      }),
      { numRuns: 150 },
    );
  });
});

// ---------------------------------------------------------------------------------------------------------
// Videos made by ffmpeg: a texture that drifts, a bright square crossing the top-left corner (partly outside the
// picture), a dark disc crossing the right edge, and per-pixel noise, so rounding and borders both matter.

const FPS = 15;
const SECONDS = 2;
const FRAMES = FPS * SECONDS;

/** The scene's luma (0–255) as a geq expression over X, Y, W, H and T. */
const SCENE = [
  '110+40*sin(X/5+T*3)*cos(Y/7)',
  '+90*between(X,60*T-8,60*T+14)*between(Y,40*T-10,40*T+12)',
  '-80*lte(hypot(X-(W-6-40*T),Y-H/2),13)',
  '+60*(random(1)-0.5)',
].join('');

interface VideoCase {
  label: string;
  extension: 'mp4' | 'avi';
  width: number;
  height: number;
  /** ffmpeg's encoding arguments after the scene filter. */
  make: (scene: string) => string[];
}

const videoCases: VideoCase[] = [
  {
    label: 'H.264 yuv420p (limited-range Y plane, mapped by the engine), 160×120',
    extension: 'mp4',
    width: 160,
    height: 120,
    make: (scene) => [
      ...['-vf', `geq=lum='clip(${scene},0,255)':cb=128:cr=128,format=yuv420p`],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '18', '-f', 'mp4'],
    ],
  },
  {
    label: 'H.264 High 4:4:4 yuv444p, odd size 161×121',
    extension: 'mp4',
    width: 161,
    height: 121,
    make: (scene) => [
      ...['-vf', `geq=lum='clip(${scene},0,255)':cb=128:cr=128,format=yuv444p`],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '18', '-f', 'mp4'],
    ],
  },
  {
    label: 'H.264 High 10 yuv420p10le (ffmpeg converts to gray), 130×98',
    extension: 'mp4',
    width: 130,
    height: 98,
    make: (scene) => [
      ...['-vf', `format=yuv420p10le,geq=lum='clip(4*(${scene}),0,1023)':cb=512:cr=512`],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '18', '-f', 'mp4'],
    ],
  },
  {
    label: 'MJPEG yuvj422p in AVI (full-range Y plane), odd size 99×75',
    extension: 'avi',
    width: 99,
    height: 75,
    make: (scene) => [
      ...['-vf', `geq=lum='clip(${scene},0,255)':cb=128:cr=128,format=yuvj422p`],
      ...['-c:v', 'mjpeg', '-q:v', '4', '-f', 'avi'],
    ],
  },
];

/** ROI sets for a width × height picture: none, two touching edges, and two timed ones inside the picture. */
function roiSets(width: number, height: number): { label: string; rois: TimedRoi[] }[] {
  const third = (n: number) => Math.floor(n / 3);
  return [
    { label: 'no ROI (whole picture)', rois: [] },
    {
      label: 'an ROI on the top and left edges',
      rois: [{ start_s: 0, x: 0, y: 0, width: Math.ceil(width / 2), height: Math.ceil(height / 2) }],
    },
    {
      label: 'an ROI on the bottom and right edges',
      rois: [
        { start_s: 0, x: third(width), y: third(height), width: width - third(width), height: height - third(height) },
      ],
    },
    {
      label: 'two timed ROIs inside the picture (the second from 1 s)',
      rois: [
        { start_s: 0, x: 3, y: 2, width: third(width), height: third(height) },
        {
          start_s: 1,
          x: Math.floor(width / 2),
          y: Math.floor(height / 2) - 5,
          width: third(width),
          height: third(height),
        },
      ],
    },
  ];
}

const THRESHOLDS = [0, 2, 9, 30];

describe('the engine equals OpenCV on decoded video, frame by frame', () => {
  const binaries = resolveMediaBinaries(process.env.TMPDIR ?? '/tmp');
  const media = new FfmpegMedia(binaries);
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'opencv-equality-'));
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  for (const [index, video] of videoCases.entries()) {
    describe(video.label, () => {
      const { width, height } = video;
      let source: DecodeSource;
      let grayFrames: Uint8Array[];
      /** OpenCV's blur of each frame, made once for all the tests of this video. */
      let blurred: OpenCv.Mat[] = [];

      beforeAll(async () => {
        const file = path.join(dir, `scene-${index}.${video.extension}`);
        execFileSync(binaries.ffmpeg, [
          ...['-hide_banner', '-v', 'error', '-y'],
          ...['-f', 'lavfi', '-i', `nullsrc=s=${width}x${height}:r=${FPS}:d=${SECONDS}`],
          ...video.make(SCENE),
          file,
        ]);
        source = await decodeSourceOf(media, file);
        // The lab's side: ffmpeg's own gray frames, blurred by OpenCV.
        const { stdout } = await runProcess(binaries.ffmpeg, [
          ...[
            '-v',
            'error',
            ...inputArgs({ path: file, demuxer: null }),
            '-f',
            'rawvideo',
            '-pix_fmt',
            'gray',
            'pipe:1',
          ],
        ]);
        grayFrames = Array.from({ length: stdout.length / (width * height) }, (_, f) =>
          stdout.subarray(f * width * height, (f + 1) * width * height),
        );
        blurred = grayFrames.map((frame) => {
          const gray = grayMat(frame, width, height);
          const result = openCvBlur(gray);
          gray.delete();
          return result;
        });
      });

      afterAll(() => {
        for (const mat of blurred) mat.delete();
      });

      it('is probed and decoded as made', () => {
        expect([source.width, source.height, source.fps]).toEqual([width, height, FPS]);
        expect(grayFrames).toHaveLength(FRAMES);
      });

      for (const { label: roiLabel, rois } of roiSets(width, height)) {
        it(`${roiLabel}: every frame's count for thresholds ${THRESHOLDS.join(', ')}, cropped and whole`, async () => {
          // The ROI in force at frame f: the last one starting at or before f / fps; none means the whole picture.
          const activeRoi = (frame: number): Rect => {
            const roi = rois.filter((candidate) => candidate.start_s * FPS <= frame).at(-1);
            return roi ? { x: roi.x, y: roi.y, width: roi.width, height: roi.height } : { x: 0, y: 0, width, height };
          };
          let changedFrames = 0;
          for (const threshold of THRESHOLDS) {
            const expected = [0];
            const lastChanged = new cv.Mat();
            try {
              for (let f = 1; f < FRAMES; f++) {
                const changed = openCvChanged(blurred[f]!, blurred[f - 1]!, threshold);
                expected.push(openCvCountIn(changed, activeRoi(f)));
                if (f === FRAMES - 1) changed.copyTo(lastChanged);
                changed.delete();
              }
              changedFrames += expected.filter((count) => count > 0).length;
              const parameters: MovementParameters = { threshold, ...noMorphology, rois, bypass_ranges: [] };
              const task = { ffmpeg: binaries.ffmpeg, source, parameters, startFrame: 0, endFrame: null };

              // Decoding only the ROIs' bounding box plus a 1-pixel margin (the engine's normal path).
              const cropped = await analyseFrameRange(task);
              expect(Array.from(cropped.values), `threshold ${threshold}, cropped`).toEqual(expected);

              // The whole picture, through the mask path (kept masks), with the last frame's mask and pixels.
              const whole = await analyseFrameRange({ ...task, wholePicture: true }, { keepLastFrame: true });
              expect(Array.from(whole.values), `threshold ${threshold}, whole picture`).toEqual(expected);
              const last = whole.lastFrame!;
              expect(last.mask!.roi).toEqual(activeRoi(FRAMES - 1));
              expect(Array.from(last.mask!.mask), `threshold ${threshold}, last mask`).toEqual(
                openCvMaskIn(lastChanged, activeRoi(FRAMES - 1)),
              );
              // The engine's own gray (its Y-plane shortcut where it takes one) is ffmpeg's gray, byte for byte.
              expect(Buffer.from(last.pixels).equals(grayFrames[FRAMES - 1]!), "the last frame's gray").toBe(true);
            } finally {
              lastChanged.delete();
            }
          }
          // The comparison is between real counts, not rows of zeros.
          expect(changedFrames).toBeGreaterThan(FRAMES);
        });
      }
    });
  }
});
