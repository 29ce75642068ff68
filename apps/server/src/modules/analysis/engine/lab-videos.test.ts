/**
 * Issue 9 on the shapes lab recordings have (test/fixtures/lab-videos.ts): for each, a run cut into small
 * segments — each decoding from a proven clean start — equals one pass over the whole video value for value; the
 * counts equal OpenCV's on ffmpeg's own gray frames; and the thumbnail, taken mid-video from a clean start, is
 * byte for byte the picture a decode from the file's start gives for that frame.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeSourceOf } from '../../../../test/fixtures/decode-source.js';
import { damagedLabVideo, LAB_SHAPES, labVideo } from '../../../../test/fixtures/lab-videos.js';
import { resolveMediaBinaries } from '../../../adapters/media/binaries.js';
import {
  type CleanStart,
  DecodeErrorReport,
  FILE_START,
  findCleanStart,
  type ProofCache,
  type SeekIndex,
} from '../../../adapters/media/clean-start.js';
import { prover, proveStart } from '../../../adapters/media/clean-start-ffmpeg.js';
import { FfmpegMedia } from '../../../adapters/media/ffmpeg-media.js';
import { inputArgs } from '../../../adapters/media/input-policy.js';
import { thumbnailArgs } from '../../../adapters/media/media.js';
import { type PacketIndex, seekIndexOf } from '../../../adapters/media/packet-index.js';
import { runProcess } from '../../../adapters/media/run-process.js';
import type { DecodeSource } from './decode.js';
import { analyseFrameRange, type MovementParameters } from './movement.js';
import { grayMat, loadOpenCv, openCvBlur, openCvChanged, openCvCountIn } from './opencv.reference.js';
import { maxLeadFrames, planSegments, withCleanStarts } from './plan.js';

const binaries = resolveMediaBinaries(process.env.TMPDIR ?? '/tmp');
const media = new FfmpegMedia(binaries);
const parameters: MovementParameters = {
  threshold: 8,
  opening: 0,
  closing: 0,
  small_object_removal: 0,
  rois: [],
  bypass_ranges: [],
};
/** Segments forced small: many cuts, at and between keyframes. */
const SEGMENT_FRAMES = 25;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'lab-videos-'));
  await loadOpenCv();
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const sourceOf = (file: string): Promise<DecodeSource> => decodeSourceOf(media, file);

/** Every frame as ffmpeg's own gray conversion gives it, in decode order, none dropped or repeated. */
async function grayFrames(file: string, width: number, height: number): Promise<Uint8Array[]> {
  const { stdout } = await runProcess(binaries.ffmpeg, [
    ...['-v', 'error', ...inputArgs({ path: file, demuxer: null }), '-map', '0:v:0', '-vsync', 'passthrough'],
    ...['-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'],
  ]);
  const size = width * height;
  expect(stdout.length % size).toBe(0);
  return Array.from({ length: stdout.length / size }, (_, f) => stdout.subarray(f * size, (f + 1) * size));
}

/** The notebook computation: cv2.blur, absdiff, > threshold, countNonZero over the whole picture. */
function openCvCounts(frames: Uint8Array[], width: number, height: number, threshold: number): number[] {
  const counts = [0];
  let previous = openCvBlur(grayMat(frames[0]!, width, height));
  for (let f = 1; f < frames.length; f++) {
    const gray = grayMat(frames[f]!, width, height);
    const blurred = openCvBlur(gray);
    gray.delete();
    const changed = openCvChanged(blurred, previous, threshold);
    counts.push(openCvCountIn(changed, { x: 0, y: 0, width, height }));
    changed.delete();
    previous.delete();
    previous = blurred;
  }
  previous.delete();
  return counts;
}

for (const shape of LAB_SHAPES) {
  describe(shape.label, () => {
    let file: string;
    let source: DecodeSource;
    let packets: PacketIndex;
    let index: SeekIndex;
    let single: number[];

    beforeAll(async () => {
      file = labVideo(shape);
      source = await sourceOf(file);
      packets = await media.packetIndex(source);
      index = seekIndexOf(packets);
      single = Array.from(
        (await analyseFrameRange({ ffmpeg: binaries.ffmpeg, source, parameters, startFrame: 0, endFrame: null }))
          .values,
      );
    });

    it('counts every frame as OpenCV does on ffmpeg gray frames, and the index counts the same frames', async () => {
      const frames = await grayFrames(file, shape.width, shape.height);
      expect(frames.length).toBe(Math.round(shape.fps * shape.seconds));
      expect(index.frameCount).toBe(frames.length);
      expect(single).toEqual(openCvCounts(frames, shape.width, shape.height, parameters.threshold));
      // Real counts, not rows of zeros.
      expect(single.filter((count) => count > 0).length).toBeGreaterThan(frames.length * 0.9);
    });

    it(`cut every ${SEGMENT_FRAMES} frames, each decoding from a proven clean start, equals the single pass`, async () => {
      const planned = planSegments(index.frameCount, {
        parallelism: 1,
        maxSegmentFrames: SEGMENT_FRAMES,
        minSegmentFrames: 1,
      });
      const cache: ProofCache = new Map();
      const prove = prover(binaries.ffmpeg, source, index, source.fps);
      const starts: (CleanStart | null)[] = [];
      for (const segment of planned) starts.push(await findCleanStart(index, segment.startFrame - 1, cache, prove));
      const segments = withCleanStarts(planned, starts, maxLeadFrames(source.fps, SEGMENT_FRAMES));
      // Cuts that seek mid-file are really exercised (every shape has proven starts after its first keyframe).
      expect(segments.filter((segment) => segment.start.seekS !== null).length).toBeGreaterThanOrEqual(3);
      // Side by side, as the job system runs them.
      const parts = await Promise.all(
        segments.map(async (segment, i) => {
          const last = i === segments.length - 1;
          const { values } = await analyseFrameRange({
            ffmpeg: binaries.ffmpeg,
            source,
            parameters,
            startFrame: segment.startFrame,
            endFrame: last ? null : segment.endFrame,
            start: segment.start,
          });
          expect(values.length, `segment ${i} from frame ${segment.startFrame}`).toBe(
            (last ? index.frameCount : segment.endFrame) - segment.startFrame,
          );
          return Array.from(values);
        }),
      );
      const joined = parts.flat();
      expect(joined).toEqual(single);
    });

    it('takes the thumbnail from a clean start mid-video: the same JPEG as a decode from the start', async () => {
      const out = path.join(dir, `${shape.name}-thumbnail.jpg`);
      const { frame } = await media.thumbnail(source, out, shape.seconds / 2, packets);
      expect(frame).toBeGreaterThan(0);
      const reference = path.join(dir, `${shape.name}-reference.jpg`);
      const { stderr } = await runProcess(binaries.ffmpeg, thumbnailArgs(source, reference, FILE_START, frame));
      expect(stderr).toBe('');
      expect(readFileSync(out).equals(readFileSync(reference))).toBe(true);
    });
  });
}

describe('starts that are not clean', () => {
  it('refuses an intra-refresh keyframe as a start of its own and proves it from the keyframe before', async () => {
    const file = { path: labVideo(LAB_SHAPES.find((shape) => shape.name === 'intra-refresh')!), demuxer: null };
    const index = seekIndexOf(await media.packetIndex(file));
    // The third flagged keyframe (x264 places them a refresh period apart).
    const third = 2;
    const frame = index.keyframes[third]!.frame;
    expect(frame).toBeGreaterThan(30);
    // ffmpeg starts there without a message, but holds back pictures until the refresh has healed them.
    expect(await proveStart(binaries.ffmpeg, file, index, third, third, 30)).toBe(false);
    const start = await proveStart(binaries.ffmpeg, file, index, third - 1, third, 30);
    expect(start).toMatchObject({ frame, seekS: expect.closeTo(index.keyframes[third - 1]!.time, 2) });
  });

  it('fails a decode through damaged data with the decode error ffmpeg reported', async () => {
    const file = damagedLabVideo();
    const source = await sourceOf(file);
    const failure = await analyseFrameRange({
      ffmpeg: binaries.ffmpeg,
      source,
      parameters,
      startFrame: 0,
      endFrame: null,
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DecodeErrorReport);
    expect((failure as DecodeErrorReport).lines.join('\n')).toMatch(/error while decoding MB|concealing/);
  });
});
