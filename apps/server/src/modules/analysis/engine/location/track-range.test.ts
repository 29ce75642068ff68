/**
 * The plumbing of location tracking on a generated video with a known track, with a small tracker defined here
 * (so the plumbing is proven whatever the real trackers do): frames reach the tracker full-range and in order, a
 * range split into pieces handing their state on equals one pass, bypassed frames get no position and are not
 * shown to the tracker, and the reference's frames are the frames a full decode gives — picked one at a time or
 * side by side, or the keyframes in one pass (ADR 029), whose count the decoder must agree with.
 */
import { describe, expect, it } from 'vitest';
import { decodeSourceOf } from '../../../../../test/fixtures/decode-source.js';
import { LAB_SHAPES, labVideo } from '../../../../../test/fixtures/lab-videos.js';
import { LOCATION_FIXTURE, locationVideo } from '../../../../../test/fixtures/location-videos.js';
import { resolveMediaBinaries } from '../../../../adapters/media/binaries.js';
import { FILE_START } from '../../../../adapters/media/clean-start.js';
import { FfmpegMedia } from '../../../../adapters/media/ffmpeg-media.js';
import type { DecodeSource } from '../decode.js';
import { decodeFramesAt, decodeKeyframes, framePicks, KeyframesMiscounted, trackFrameRange } from './track-range.js';
import type { FrameTracker, Point, TrackerHandoff } from './tracker.js';

const binaries = resolveMediaBinaries(process.env.TMPDIR ?? '/tmp');
const media = new FfmpegMedia(binaries);
const F = LOCATION_FIXTURE;

const sourceOf = (file: string): Promise<DecodeSource> => decodeSourceOf(media, file);

/**
 * A test tracker whose answer depends on its state: the centre of the pixels darker than 100, averaged with the
 * previous answer (so a piece that did not receive the state before it would answer differently); it counts the
 * frames it saw in its hand-off. The factory logs every frame shown and every tracker made.
 */
function smoothingTrackers() {
  const log = { frames: [] as Uint8Array[], raw: [] as (Point | null)[], made: [] as (TrackerHandoff | null)[] };
  const make = (handoff: TrackerHandoff | null): FrameTracker => {
    log.made.push(handoff);
    let previous: Point | null = handoff?.previous ?? null;
    let seen = typeof handoff?.seen === 'number' ? handoff.seen : 0;
    return {
      track(frame) {
        log.frames.push(frame.slice());
        seen++;
        let sx = 0;
        let sy = 0;
        let n = 0;
        for (let r = 0; r < F.height; r++) {
          for (let c = 0; c < F.width; c++) {
            if (frame[r * F.width + c]! < 100) {
              sx += c + 0.5;
              sy += r + 0.5;
              n++;
            }
          }
        }
        const found = n === 0 ? null : { x: sx / n, y: sy / n };
        log.raw.push(found);
        previous = !found ? null : previous ? { x: (previous.x + found.x) / 2, y: (previous.y + found.y) / 2 } : found;
        return previous && { ...previous };
      },
      handoff: () => ({ previous, seen }),
    };
  };
  return { make, log };
}

describe('location tracking over frame ranges', () => {
  it('gives the tracker full-range frames in order; the dark box is where the video drew it', async () => {
    const source = await sourceOf(locationVideo());
    expect(source.pixelFormat).toBe('yuv420p');
    expect(source.fullRange).toBe(false);
    const { make, log } = smoothingTrackers();
    const result = await trackFrameRange(
      { ffmpeg: binaries.ffmpeg, source, startFrame: 0, endFrame: null, bypass_ranges: [] },
      make,
      null,
    );
    expect(result.x.length).toBe(F.frames);
    expect(log.made).toEqual([null]);
    // Limited-range luma mapped to full range: the arena, RGB 0xC0 gray, reads 192 (± codec noise).
    const corner = log.frames[0]![5 * F.width + 5]!;
    expect(Math.abs(corner - 0xc0)).toBeLessThanOrEqual(2);
    // The unsmoothed centre of the dark pixels is the box's true centre in every frame.
    log.raw.forEach((found, n) => {
      const truth = F.centre(n);
      expect(Math.abs(found!.x - truth.x)).toBeLessThanOrEqual(1);
      expect(Math.abs(found!.y - truth.y)).toBeLessThanOrEqual(1);
    });
  }, 60_000);

  it('a range split into pieces, each starting from the state the piece before handed on, equals one pass', async () => {
    const source = await sourceOf(locationVideo());
    const task = { ffmpeg: binaries.ffmpeg, source, bypass_ranges: [[1, 1.5]] as [number, number][] };
    const single = await trackFrameRange({ ...task, startFrame: 0, endFrame: null }, smoothingTrackers().make, null);
    const cuts = [0, 17, 45, 46, 90, F.frames];
    const xs: number[] = [];
    const ys: number[] = [];
    let handoff: TrackerHandoff | null = null;
    for (let i = 0; i + 1 < cuts.length; i++) {
      const isLast = i + 2 === cuts.length;
      // Every piece decodes from the file's start here (always clean) and drops the frames before its own.
      const part = await trackFrameRange(
        { ...task, start: FILE_START, startFrame: cuts[i]!, endFrame: isLast ? null : cuts[i + 1]! },
        smoothingTrackers().make,
        handoff,
      );
      expect(part.x.length).toBe(cuts[i + 1]! - cuts[i]!);
      xs.push(...part.x);
      ys.push(...part.y);
      handoff = part.handoff;
    }
    expect(xs).toEqual(Array.from(single.x));
    expect(ys).toEqual(Array.from(single.y));
    expect(handoff!.seen).toBe(F.frames - 15);
    // Without the hand-off the second piece answers otherwise (the state matters, so the equality above proves it).
    const cold = await trackFrameRange({ ...task, startFrame: 17, endFrame: 45 }, smoothingTrackers().make, null);
    expect(Array.from(cold.x)).not.toEqual(xs.slice(17, 45));
  }, 60_000);

  it('bypassed frames get no position, are not shown to the tracker, and end its previous position', async () => {
    const source = await sourceOf(locationVideo());
    const { make, log } = smoothingTrackers();
    // [1, 1.5) s at 30 fps: frames 30–44.
    const result = await trackFrameRange(
      { ffmpeg: binaries.ffmpeg, source, startFrame: 0, endFrame: null, bypass_ranges: [[1, 1.5]] },
      make,
      null,
    );
    for (let n = 0; n < F.frames; n++) {
      const bypassed = n >= 30 && n < 45;
      expect(Number.isNaN(result.x[n]!)).toBe(bypassed);
      expect(Number.isNaN(result.y[n]!)).toBe(bypassed);
    }
    expect(log.frames).toHaveLength(F.frames - 15);
    // Made again at the bypass from its state, without the position before it: frame 45 is not averaged with 29.
    expect(log.made).toEqual([null, { previous: null, seen: 30 }]);
    expect(result.x[45]).toBe(log.raw[30]!.x);
    expect(result.handoff.seen).toBe(F.frames - 15);
  }, 60_000);

  it('decodes the picked frames, each group from its start, equal to the frames of a full decode', async () => {
    const source = await sourceOf(locationVideo());
    const all = smoothingTrackers();
    await trackFrameRange(
      { ffmpeg: binaries.ffmpeg, source, startFrame: 0, endFrame: null, bypass_ranges: [] },
      all.make,
      null,
    );
    const wanted = [0, 13, 13, 59, 60, 119];
    // A start at frame 0 for the first three, the file's start for the rest (two decodes).
    const picks = framePicks(wanted, [null, null, null, FILE_START, FILE_START, FILE_START]);
    expect(picks.map((pick) => pick.frames)).toEqual([wanted]);
    // Frames sharing a start share one decode; another start begins another.
    const keyframe = { frame: 30, seekS: 1.001, fromS: 0.99, allowed: [] };
    expect(framePicks([10, 40, 50, 70], [null, keyframe, keyframe, { ...keyframe, frame: 60, seekS: 2.001 }])).toEqual([
      { start: FILE_START, frames: [10] },
      { start: keyframe, frames: [40, 50] },
      { start: { ...keyframe, frame: 60, seekS: 2.001 }, frames: [70] },
    ]);
    expect(() => framePicks([10], [keyframe])).toThrow(/cannot give frame 10/);
    const frames = await decodeFramesAt(binaries.ffmpeg, source, picks);
    expect(frames).toHaveLength(wanted.length);
    frames.forEach((frame, i) => {
      expect(Buffer.compare(frame, all.log.frames[wanted[i]!]!)).toBe(0);
    });
    // A pick asking past the end of the video fails instead of answering fewer frames.
    await expect(
      decodeFramesAt(binaries.ffmpeg, source, [{ start: FILE_START, frames: [F.frames + 5] }]),
    ).rejects.toThrow(/ended before frame/);
  }, 60_000);

  it('decodes the keyframes in one pass and picks side by side, equal to a full decode; a miscount is refused', async () => {
    const file = locationVideo();
    const source = await sourceOf(file);
    const all = smoothingTrackers();
    await trackFrameRange(
      { ffmpeg: binaries.ffmpeg, source, startFrame: 0, endFrame: null, bypass_ranges: [] },
      all.make,
      null,
    );
    const index = await media.packetIndex({ path: file, demuxer: source.demuxer });
    const keyframes = [...index.keyframes.keys()].filter((frame) => index.keyframes[frame] === 1);
    expect(keyframes).toEqual([0, 30, 60, 90]);
    const fromKeyframes = await decodeKeyframes(binaries.ffmpeg, source, keyframes, [30, 90]);
    expect(fromKeyframes).toHaveLength(2);
    expect(Buffer.compare(fromKeyframes[0]!, all.log.frames[30]!)).toBe(0);
    expect(Buffer.compare(fromKeyframes[1]!, all.log.frames[90]!)).toBe(0);
    // A list of keyframes the decoder does not agree with cannot place its pictures.
    await expect(decodeKeyframes(binaries.ffmpeg, source, [0, 30, 60], [30])).rejects.toThrow(KeyframesMiscounted);

    // Side by side: the same pictures, in the picks' order.
    const keyframe = (frame: number) => ({
      frame,
      seekS: frame / 30 + 0.001,
      fromS: frame / 30 - 0.5 / 30,
      allowed: [],
    });
    const picks = [
      { start: FILE_START, frames: [5, 12] },
      { start: keyframe(30), frames: [31] },
      { start: keyframe(60), frames: [60, 88] },
      { start: keyframe(90), frames: [119] },
    ];
    const sideBySide = await decodeFramesAt(binaries.ffmpeg, source, picks, { concurrency: 3 });
    const wanted = picks.flatMap((pick) => pick.frames);
    expect(sideBySide).toHaveLength(wanted.length);
    sideBySide.forEach((frame, i) => {
      expect(Buffer.compare(frame, all.log.frames[wanted[i]!]!), `frame ${wanted[i]}`).toBe(0);
    });
    // One failing pick fails the whole decode, with its own reason.
    await expect(
      decodeFramesAt(binaries.ffmpeg, source, [...picks, { start: FILE_START, frames: [F.frames + 5] }], {
        concurrency: 2,
      }),
    ).rejects.toThrow(/ended before frame/);

    // x264's intra refresh flags recovery points the decoder does not take as keyframes: the count tells.
    const refresh = labVideo(LAB_SHAPES.find((shape) => shape.name === 'intra-refresh')!);
    const refreshIndex = await media.packetIndex({ path: refresh, demuxer: 'mov' });
    const flagged = [...refreshIndex.keyframes.keys()].filter((frame) => refreshIndex.keyframes[frame] === 1);
    expect(flagged.length).toBeGreaterThan(1);
    await expect(decodeKeyframes(binaries.ffmpeg, await sourceOf(refresh), flagged, flagged)).rejects.toThrow(
      KeyframesMiscounted,
    );
  }, 60_000);
});
