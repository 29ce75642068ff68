import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveMediaBinaries } from './binaries.js';
import { FfmpegMedia } from './ffmpeg-media.js';
import type { PacketIndex } from './packet-index.js';
import { concatList, needsPlaybackCopy, pieceArgs, planCopyPieces, playbackCopyReason } from './playback.js';
import { encodePiece, joinPieces } from './playback-copy.js';

const MP4 = 'mov,mp4,m4a,3gp,3g2,mj2';

describe('playbackCopyReason: which originals need a copy', () => {
  it.each([
    // codec, profile, pixel format, container, extension → copy?
    ['h264', 'High', 'yuv420p', MP4, '.mp4', false],
    ['h264', 'Main', 'yuv420p', MP4, '.mov', false],
    ['h264', 'Constrained Baseline', 'yuv420p', MP4, '.m4v', false],
    ['h264', 'High', 'yuvj420p', MP4, '.mp4', false],
    ['h264', 'High 4:4:4 Predictive', 'yuv444p', MP4, '.mp4', true],
    ['h264', 'High 10', 'yuv420p10le', MP4, '.mp4', true],
    ['h264', 'High 4:2:2', 'yuv422p', MP4, '.mp4', true],
    ['h264', 'Baseline', 'yuv420p', MP4, '.mp4', true],
    ['h264', 'Extended', 'yuv420p', MP4, '.mp4', true],
    ['h264', null, 'yuv420p', MP4, '.mp4', true],
    ['h264', 'High', 'yuv420p', 'avi', '.avi', true],
    ['h264', 'High', 'yuv420p', 'matroska,webm', '.mkv', true],
    ['h264', 'High', 'yuv420p', 'flv', '.flv', true],
    ['h264', 'High', 'yuv420p', 'mpegts', '.ts', true],
    ['h264', 'High', 'yuv420p', MP4, '.3gp', true],
    ['hevc', 'Main', 'yuv420p', MP4, '.mp4', true],
    ['hevc', 'Main', 'yuv420p', 'matroska,webm', '.mkv', true],
    ['mjpeg', 'Baseline', 'yuvj420p', 'avi', '.avi', true],
    ['wmv3', 'Main', 'yuv420p', 'asf', '.wmv', true],
    ['mpeg4', 'Simple Profile', 'yuv420p', MP4, '.mp4', true],
    ['vp9', 'Profile 0', 'yuv420p', 'matroska,webm', '.webm', true],
    ['av1', 'Main', 'yuv420p', MP4, '.mp4', true],
  ])('%s %s %s in %s (%s) → copy %s', (codec, profile, pixelFormat, container, extension, expected) => {
    expect(needsPlaybackCopy({ codec, profile, pixelFormat, container }, extension)).toBe(expected);
  });

  it('names the reason', () => {
    const facts = { codec: 'h264', profile: 'High 4:4:4 Predictive', pixelFormat: 'yuv444p', container: MP4 };
    expect(playbackCopyReason(facts, '.mp4')).toBe('yuv444p pixels');
    expect(playbackCopyReason({ ...facts, container: 'avi' }, '.avi')).toBe('avi container');
  });
});

describe('planning the pieces', () => {
  const index = (count: number, keyEvery: number, step = 0.04): Pick<PacketIndex, 'times' | 'keyframes'> => ({
    times: Float64Array.from({ length: count }, (_, i) => i * step),
    keyframes: Uint8Array.from({ length: count }, (_, i) => (i % keyEvery === 0 ? 1 : 0)),
  });

  it('cuts an intra-only stream evenly, one piece per worker, and bounds piece length', () => {
    const two = planCopyPieces(index(1000, 1), { parallelism: 2, maxPieceFrames: 10_000, minPieceFrames: 10 });
    expect(two.map((p) => [p.startFrame, p.endFrame])).toEqual([
      [0, 500],
      [500, 1000],
    ]);
    expect(two[0]).toMatchObject({ seekS: 0, startS: null, endS: 20, durationS: 20 });
    expect(two[1]).toMatchObject({ seekS: 20, startS: 20, endS: null, durationS: null });
    const bounded = planCopyPieces(index(1000, 1), { parallelism: 1, maxPieceFrames: 300, minPieceFrames: 10 });
    expect(bounded.map((p) => p.endFrame - p.startFrame)).toEqual([250, 250, 250, 250]);
  });

  it('moves cuts back to keyframes, drops pieces that would be too short, keeps one piece without keyframes', () => {
    const pieces = planCopyPieces(index(1000, 300), { parallelism: 4, maxPieceFrames: 10_000, minPieceFrames: 10 });
    expect(pieces.map((p) => p.startFrame)).toEqual([0, 300, 600]);
    expect(pieces.at(-1)!.endFrame).toBe(1000);
    expect(planCopyPieces(index(1000, 5000), { parallelism: 2, maxPieceFrames: 100, minPieceFrames: 10 })).toHaveLength(
      1,
    );
  });

  it('tells ffmpeg to keep every frame with its own time, and the join where each piece begins', () => {
    const args = pieceArgs({ path: '/in.avi', demuxer: 'avi' }, '/p.mp4', { seekS: 20, startS: 19.98, endS: 39.98 });
    const argAfter = (flag: string) => args[args.indexOf(flag) + 1];
    expect(argAfter('-vsync')).toBe('passthrough');
    expect(argAfter('-enc_time_base')).toBe('-1');
    expect(argAfter('-ss')).toBe('20.000000');
    expect(args.indexOf('-copyts')).toBeLessThan(args.indexOf('-i'));
    expect(argAfter('-vf')).toBe(
      'trim=start=19.980000:end=39.980000,setpts=PTS-STARTPTS,scale=trunc(iw/2)*2:trunc(ih/2)*2,format=yuv420p',
    );
    expect(argAfter('-bf')).toBe('0');
    expect(
      pieceArgs({ path: '/in.avi', demuxer: 'avi' }, '/p.mp4', { seekS: null, startS: null, endS: null }),
    ).not.toContain('-ss');
    expect(
      concatList([
        { file: "/a/it's.mp4", durationS: 20 },
        { file: '/b.mp4', durationS: null },
      ]),
    ).toBe("file '/a/it'\\''s.mp4'\nduration 20.000000\nfile '/b.mp4'\n");
  });
});

describe('playback copies of generated videos (real ffmpeg)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'playback-test-'));
  const binaries = resolveMediaBinaries(dir);
  const media = new FfmpegMedia(binaries);
  const ffmpeg = (args: string[]) => execFileSync(binaries.ffmpeg, ['-hide_banner', '-v', 'error', '-y', ...args]);
  const files = {
    /** H.264 High 4:4:4 yuv444p, variable frame rate (gaps of 33, 43, 83… ms), a keyframe every 15 frames. */
    vfr444: path.join(dir, 'vfr-444.mp4'),
    /** H.264 High yuv420p, 30 fps. */
    high420: path.join(dir, 'high-420.mp4'),
    /** MJPEG in AVI, 30 fps (a 1/30 s time base: bounds between frames would round). */
    mjpeg: path.join(dir, 'mjpeg.avi'),
    /** H.264 4:4:4 with intra refresh: its keyframes after the first are recovery points, not clean starts. */
    refresh: path.join(dir, 'intra-refresh-444.mp4'),
  };
  /** Every frame's time, as ffprobe decodes them. */
  const frameTimes = (file: string) =>
    execFileSync(binaries.ffprobe, [
      ...['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'frame=pts_time', '-of', 'csv=p=0', file],
    ])
      .toString('utf8')
      .split('\n')
      .map((line) => line.split(',')[0]!.trim())
      .filter(Boolean)
      .map(Number);

  beforeAll(() => {
    const vfr = 'N*33+if(gte(N\\,20)\\,50\\,0)+if(gte(N\\,50)\\,100\\,0)+if(eq(mod(N\\,7)\\,3)\\,10\\,0)';
    ffmpeg([
      ...['-f', 'lavfi', '-i', 'testsrc2=s=320x240:r=30', '-frames:v', '90'],
      ...['-vf', `settb=1/1000,setpts='${vfr}'`, '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '15'],
      ...['-pix_fmt', 'yuv444p', '-vsync', 'passthrough', '-enc_time_base', '1/1000', files.vfr444],
    ]);
    ffmpeg([
      ...['-f', 'lavfi', '-i', 'testsrc2=s=320x240:r=30', '-frames:v', '60'],
      ...['-c:v', 'libx264', '-profile:v', 'high', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', files.high420],
    ]);
    ffmpeg([
      ...['-f', 'lavfi', '-i', 'testsrc2=s=320x240:r=30', '-frames:v', '120', '-c:v', 'libx264', '-preset', 'veryfast'],
      ...['-x264-params', 'intra-refresh=1:keyint=30', '-pix_fmt', 'yuv444p', files.refresh],
    ]);
    ffmpeg([
      ...['-f', 'lavfi', '-i', 'testsrc2=s=322x242:r=30', '-frames:v', '100'],
      ...['-c:v', 'mjpeg', '-q:v', '10', '-pix_fmt', 'yuvj420p', files.mjpeg],
    ]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('decides from the probe: 4:4:4 H.264 and MJPEG AVI get a copy, 4:2:0 High H.264 MP4 does not', async () => {
    const decide = async (file: string) => needsPlaybackCopy(await media.probe(file), path.extname(file));
    expect(await media.probe(files.vfr444)).toMatchObject({ profile: 'High 4:4:4 Predictive', pixelFormat: 'yuv444p' });
    expect(await decide(files.vfr444)).toBe(true);
    expect(await decide(files.high420)).toBe(false);
    expect(await decide(files.mjpeg)).toBe(true);
  });

  /**
   * Each frame's PSNR (dB) between the copy and the original, paired in order: a frame shown at the wrong place
   * (testsrc2 moves every frame) or decoded broken scores far below a faithful encode (≥ 35 dB here).
   */
  const psnrPerFrame = (copy: string, original: string) =>
    execFileSync(binaries.ffmpeg, [
      ...['-hide_banner', '-v', 'error', '-i', copy, '-i', original],
      ...[
        '-lavfi',
        '[0]settb=1,setpts=N[c];[1]scale=trunc(iw/2)*2:trunc(ih/2)*2,format=yuv420p,settb=1,setpts=N[o];[c][o]psnr=stats_file=-',
      ],
      ...['-f', 'null', '-'],
    ])
      .toString('utf8')
      .trim()
      .split('\n')
      .map((line) => Number(/psnr_avg:(\S+)/.exec(line)?.[1] ?? Number.NaN));

  /** Makes the copy in pieces as the jobs do (plan, encode each, join) and returns its path. */
  async function copyInPieces(file: string, parallelism: number): Promise<{ copy: string; pieces: number }> {
    const input = { path: file, demuxer: null };
    const index = await media.packetIndex(input);
    const pieces = planCopyPieces(index, { parallelism, maxPieceFrames: 10_000, minPieceFrames: 5 });
    const outputs: { file: string; durationS: number | null }[] = [];
    for (const piece of pieces) {
      const output = path.join(dir, `${path.basename(file)}-${parallelism}-${piece.index}.mp4`);
      await encodePiece(binaries, input, output, piece, {});
      outputs.push({ file: output, durationS: piece.durationS });
    }
    const copy = path.join(dir, `${path.basename(file)}-${parallelism}.mp4`);
    await joinPieces(binaries, outputs, path.join(dir, `${path.basename(file)}-${parallelism}.txt`), copy);
    return { copy, pieces: pieces.length };
  }

  it.each([
    ['vfr444', 1],
    ['vfr444', 3],
    ['mjpeg', 1],
    ['mjpeg', 4],
    ['refresh', 3],
  ] as const)(
    '%s in %i piece(s): frame n of the copy is frame n of the original, at its time',
    async (name, parallelism) => {
      const original = files[name];
      const { copy, pieces } = await copyInPieces(original, parallelism);
      expect(pieces).toBe(parallelism);
      const facts = await media.probe(copy);
      expect(facts).toMatchObject({ codec: 'h264', pixelFormat: 'yuv420p' });
      expect(needsPlaybackCopy(facts, '.mp4')).toBe(false);
      const want = frameTimes(original);
      const got = frameTimes(copy);
      expect(got.length).toBe(want.length);
      const first = want[0]!;
      for (let i = 0; i < want.length; i++) expect(Math.abs(got[i]! - (want[i]! - first))).toBeLessThan(1e-6);
      const psnr = psnrPerFrame(copy, original);
      expect(psnr.length).toBe(want.length);
      expect(Math.min(...psnr)).toBeGreaterThan(30);
      if (name === 'vfr444') {
        // Really variable: gaps of 33 ms and of 43 ms or more are both there, and kept.
        const gaps = new Set(want.slice(1).map((t, i) => Math.round((t - want[i]!) * 1000)));
        expect(gaps.has(33)).toBe(true);
        expect([...gaps].some((gap) => gap >= 43)).toBe(true);
      }
    },
  );
});
