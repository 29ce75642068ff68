import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AVI_FIXTURE, H264_FIXTURE, MOVING_BOX_FIXTURE, videoFixtures } from '../../../test/fixtures/videos.js';
import { ensureExecutable, findOnPath, resolveMediaBinaries } from './binaries.js';
import { FILE_START } from './clean-start.js';
import { describeProbeFailure, FfmpegMedia } from './ffmpeg-media.js';
import { inputArgs } from './input-policy.js';
import {
  type ProbeOutput,
  parseProbe,
  parseRational,
  thumbnailArgs,
  thumbnailTime,
  UnreadableVideoError,
} from './media.js';
import { runProcess } from './run-process.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'media-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const videoStream = (extra: Partial<NonNullable<ProbeOutput['streams']>[number]> = {}) => ({
  codec_type: 'video',
  codec_name: 'h264',
  pix_fmt: 'yuv420p',
  width: 640,
  height: 480,
  avg_frame_rate: '30000/1001',
  r_frame_rate: '30000/1001',
  nb_frames: '300',
  duration: '10.010000',
  ...extra,
});

describe('parseProbe', () => {
  it('reads exact rational frame rates and the container frame count', () => {
    const facts = parseProbe(
      { streams: [{ codec_type: 'audio', codec_name: 'aac' }, videoStream()], format: { format_name: 'mov,mp4' } },
      1234,
    );
    expect(facts).toEqual({
      durationS: 10.01,
      fps: 30000 / 1001,
      fpsRational: '30000/1001',
      frameCount: 300,
      width: 640,
      height: 480,
      codec: 'h264',
      profile: null,
      container: 'mov,mp4',
      sizeBytes: 1234,
      pixelFormat: 'yuv420p',
      fullRange: false,
      startTime: 0,
    });
  });

  it('tells full-range luma (JPEG-style formats, streams flagged "pc") from limited range', () => {
    const read = (extra: Partial<NonNullable<ProbeOutput['streams']>[number]>) =>
      parseProbe({ streams: [videoStream(extra)] }, 1).fullRange;
    expect(read({ pix_fmt: 'yuvj422p' })).toBe(true);
    expect(read({ pix_fmt: 'yuv420p', color_range: 'pc' })).toBe(true);
    expect(read({ pix_fmt: 'yuv420p', color_range: 'tv' })).toBe(false);
    expect(read({ pix_fmt: 'yuv420p' })).toBe(false);
  });

  it('falls back to r_frame_rate, then computes frames from duration × fps when the container has no count', () => {
    const facts = parseProbe(
      {
        streams: [
          videoStream({ avg_frame_rate: '0/0', r_frame_rate: '25/1', nb_frames: undefined, duration: undefined }),
        ],
        format: { format_name: 'matroska,webm', duration: '4.000000' },
      },
      1,
    );
    expect(facts).toMatchObject({ fps: 25, fpsRational: '25', frameCount: 100, durationS: 4 });
  });

  it('rejects files without a usable video stream', () => {
    expect(() => parseProbe({ streams: [{ codec_type: 'audio', codec_name: 'mp3' }] }, 1)).toThrow(
      UnreadableVideoError,
    );
    const coverArt = videoStream({ disposition: { attached_pic: 1 } });
    expect(() => parseProbe({ streams: [coverArt] }, 1)).toThrow(/no video stream/);
    expect(() => parseProbe({ streams: [videoStream({ nb_frames: '0', duration: '0' })] }, 1)).toThrow(/no frames/);
    expect(() => parseProbe({ streams: [videoStream({ avg_frame_rate: '0/0', r_frame_rate: 'N/A' })] }, 1)).toThrow(
      /frame rate/,
    );
  });

  it('parses rationals strictly', () => {
    expect(parseRational('24000/1001')).toEqual({ num: 24000, den: 1001 });
    expect(parseRational('15')).toEqual({ num: 15, den: 1 });
    expect(parseRational('0/0')).toBeNull();
    expect(parseRational('abc')).toBeNull();
  });
});

describe('ffmpeg argument lists', () => {
  it('seeks to the thumbnail clean start before the input, keeps its frame by time and scales to 320 wide', () => {
    const start = { frame: 60, seekS: 2.001, fromS: 1.983333, allowed: [] };
    const args = thumbnailArgs({ path: '/in/a.mp4', demuxer: 'mov' }, '/out/t.jpg', start, 60);
    expect(args.slice(args.indexOf('-ss') - 2, args.indexOf('-ss') + 2)).toEqual([
      ...['-noaccurate_seek', '-copyts', '-ss', '2.001000'],
    ]);
    // The input follows at once, held to the allow-list with its recorded demuxer forced.
    expect(args.slice(args.indexOf('-ss') + 2, args.indexOf('-i') + 2)).toEqual(
      inputArgs({ path: '/in/a.mp4', demuxer: 'mov' }),
    );
    expect(args[args.indexOf('-vf') + 1]).toBe("select='gte(t,1.983333)',scale=320:-2");
    expect(args[args.indexOf('-frames:v') + 1]).toBe('1');
    // From the file's start (no proven start near): no seek, the frame by number.
    const fromStart = thumbnailArgs({ path: '/in/a.mp4', demuxer: 'mov' }, '/out/t.jpg', FILE_START, 45);
    expect(fromStart).not.toContain('-ss');
    expect(fromStart[fromStart.indexOf('-vf') + 1]).toBe("select='gte(n,45)',scale=320:-2");
  });

  it('takes the thumbnail about 10% in', () => {
    expect(thumbnailTime(100)).toBe(10);
    expect(thumbnailTime(0.05)).toBe(0);
  });

  it('tells a cut-off MP4 from a file that is not a video', () => {
    const mp4Head = Buffer.from('0000001c667479706d703432', 'hex');
    expect(describeProbeFailure('moov atom not found', mp4Head)).toMatch(/incomplete/);
    expect(describeProbeFailure('moov atom not found', Buffer.from('hello world!'))).toMatch(/not a video/);
  });
});

describe('binaries', () => {
  it('finds executables on PATH and nothing on an empty PATH', () => {
    expect(findOnPath('ffprobe', '')).toBeNull();
    const fake = path.join(tmp, 'ffprobe');
    writeFileSync(fake, '#!/bin/sh\n');
    chmodSync(fake, 0o644);
    expect(findOnPath('ffprobe', tmp)).toBeNull();
    chmodSync(fake, 0o755);
    expect(findOnPath('ffprobe', tmp)).toBe(fake);
  });

  it('copies a binary without its execute bit into the bin folder with mode 0755', () => {
    const file = path.join(tmp, 'pkg-ffprobe');
    writeFileSync(file, '#!/bin/sh\necho ok\n');
    chmodSync(file, 0o644);
    const runnable = ensureExecutable(file, path.join(tmp, 'bin'));
    expect(runnable).toBe(path.join(tmp, 'bin', 'pkg-ffprobe'));
    expect(statSync(runnable).mode & 0o777).toBe(0o755);
    // An executable file is used where it is.
    expect(ensureExecutable(runnable, path.join(tmp, 'other'))).toBe(runnable);
  });

  it('falls back to the npm-shipped binaries when PATH has none, and they run', async () => {
    const binaries = resolveMediaBinaries(path.join(tmp, 'data'), '');
    expect(binaries.ffmpeg).toMatch(/@ffmpeg-installer|[/\\]bin[/\\]ffmpeg$/);
    expect(binaries.ffprobe).toMatch(/@ffprobe-installer|[/\\]bin[/\\]ffprobe$/);
    const { stdout } = await runProcess(binaries.ffprobe, ['-version']);
    expect(stdout.toString()).toContain('ffprobe version');
  });
});

describe('FfmpegMedia on generated videos', () => {
  const media = new FfmpegMedia(resolveMediaBinaries(tmp));
  const fixtures = videoFixtures();

  it('probes the H.264 MP4 and the MJPEG AVI', async () => {
    expect(await media.probe(fixtures.h264Mp4)).toMatchObject({
      codec: 'h264',
      width: H264_FIXTURE.width,
      height: H264_FIXTURE.height,
      fps: H264_FIXTURE.fps,
      frameCount: H264_FIXTURE.frames,
      durationS: H264_FIXTURE.seconds,
    });
    expect(await media.probe(fixtures.mjpegAvi)).toMatchObject({
      codec: 'mjpeg',
      container: 'avi',
      fps: AVI_FIXTURE.fps,
      frameCount: AVI_FIXTURE.frames,
    });
  });

  it('makes the moving-box video with the frames it promises', async () => {
    expect(await media.probe(fixtures.movingBoxMp4)).toMatchObject({
      codec: 'h264',
      width: MOVING_BOX_FIXTURE.width,
      fps: MOVING_BOX_FIXTURE.fps,
      frameCount: MOVING_BOX_FIXTURE.frames,
    });
    // Decode two gray frames on a pipe: the box sits at x=40 in frame 0 and x=240 in the last frame.
    const gray = async (frame: number) => {
      const { stdout } = await runProcess(media.binaries.ffmpeg, [
        ...['-v', 'error', ...inputArgs({ path: fixtures.movingBoxMp4, demuxer: 'mov' })],
        ...['-vf', `select=eq(n\\,${frame})`, '-frames:v', '1'],
        ...['-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'],
      ]);
      expect(stdout.length).toBe(MOVING_BOX_FIXTURE.width * MOVING_BOX_FIXTURE.height);
      return stdout;
    };
    const { width, box } = MOVING_BOX_FIXTURE;
    const at = (pixels: Buffer, x: number) => pixels[(box.y + box.size / 2) * width + x]!;
    const first = await gray(0);
    const last = await gray(MOVING_BOX_FIXTURE.frames - 1);
    expect(at(first, box.startX + box.size / 2)).toBeGreaterThan(200);
    expect(at(first, box.endX + box.size / 2)).toBeLessThan(50);
    expect(at(last, box.endX + box.size / 2)).toBeGreaterThan(200);
    expect(at(last, box.startX + box.size / 2)).toBeLessThan(50);
  });

  it('rejects the truncated file and the text file with clear reasons', async () => {
    await expect(media.probe(fixtures.truncatedMp4)).rejects.toThrow(/incomplete/);
    await expect(media.probe(fixtures.textMp4)).rejects.toThrow(/not a video/);
  });

  it('kills the process when the signal aborts', async () => {
    const endless = { path: fixtures.h264Mp4, demuxer: 'mov' } as const;
    const controller = new AbortController();
    const aborted = runProcess(
      media.binaries.ffmpeg,
      ['-hide_banner', '-v', 'error', '-re', '-stream_loop', '-1', ...inputArgs(endless), '-f', 'null', '-'],
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 100);
    await expect(aborted).rejects.toThrow(/cancelled/);
    // -re with an endless loop: only the kill can end them: only the kill can end them.
    await expect(
      runProcess(
        media.binaries.ffmpeg,
        ['-v', 'error', '-re', '-stream_loop', '-1', ...inputArgs(endless), '-f', 'null', '-'],
        {
          timeoutMs: 100,
        },
      ),
    ).rejects.toThrow(/timed out/);
  });
});
