import { describe, expect, it } from 'vitest';
import { FILE_START } from '../../../adapters/media/clean-start.js';
import { type DecodeSource, type DecodeWindow, grayDecodeArgs, needsRangeMapping } from './decode.js';

const source = (overrides: Partial<DecodeSource> = {}): DecodeSource => ({
  path: '/videos/mouse.mp4',
  demuxer: 'mov',
  fps: 30,
  width: 640,
  height: 480,
  pixelFormat: 'yuv420p',
  fullRange: false,
  startTime: 0,
  ...overrides,
});

const wholePicture = { x: 0, y: 0, width: 640, height: 480 };
const window = (overrides: Partial<DecodeWindow> = {}): DecodeWindow => ({
  start: FILE_START,
  frames: null,
  crop: wholePicture,
  ...overrides,
});

/** The value following `flag`, or undefined when the flag is absent. */
const argAfter = (args: string[], flag: string) => {
  const at = args.indexOf(flag);
  return at === -1 ? undefined : args[at + 1];
};

describe('grayDecodeArgs', () => {
  it('does not seek from frame 0 and writes raw gray to stdout', () => {
    const args = grayDecodeArgs(source(), window());
    expect(args).not.toContain('-ss');
    expect(args).not.toContain('-copyts');
    expect(argAfter(args, '-i')).toBe('/videos/mouse.mp4');
    expect(argAfter(args, '-map')).toBe('0:v:0');
    expect(argAfter(args, '-vf')).toBe('extractplanes=y');
    expect(argAfter(args, '-vsync')).toBe('passthrough');
    expect(args).not.toContain('-frames:v');
    expect(args.slice(-5)).toEqual(['-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1']);
  });

  it('seeks to a clean start without accurate seeking and keeps frames from its time on', () => {
    const start = { frame: 90, seekS: 2.951, fromS: 4.483333, allowed: [] };
    const args = grayDecodeArgs(source({ startTime: 1.5 }), window({ start }));
    expect(args).toContain('-copyts');
    expect(args).toContain('-noaccurate_seek');
    expect(argAfter(args, '-ss')).toBe('2.951000');
    expect(args.indexOf('-ss')).toBeLessThan(args.indexOf('-i'));
    expect(argAfter(args, '-vf')).toBe("select='gte(t,4.483333)',extractplanes=y");
  });

  it('takes the luma plane of 8-bit planar YUV and converts anything else to gray', () => {
    for (const pixelFormat of ['yuv420p', 'yuvj422p', 'yuv444p', 'yuvj420p']) {
      expect(argAfter(grayDecodeArgs(source({ pixelFormat }), window()), '-vf')).toBe('extractplanes=y');
    }
    for (const pixelFormat of ['rgb24', 'yuv420p10le', 'nv12', 'gray']) {
      expect(argAfter(grayDecodeArgs(source({ pixelFormat }), window()), '-vf')).toBe('format=gray');
    }
  });

  it('crops exactly only when the crop is not the whole picture', () => {
    const crop = { x: 9, y: 19, width: 32, height: 44 };
    expect(argAfter(grayDecodeArgs(source(), window({ crop })), '-vf')).toBe('extractplanes=y,crop=32:44:9:19:exact=1');
    expect(
      argAfter(
        grayDecodeArgs(
          source({ pixelFormat: 'rgb24' }),
          window({ crop, start: { frame: 3, seekS: 0.05, fromS: 0.083333, allowed: [] } }),
        ),
        '-vf',
      ),
    ).toBe("select='gte(t,0.083333)',format=gray,crop=32:44:9:19:exact=1");
    // A crop at the origin but smaller, or the full size but moved, is still a crop.
    expect(argAfter(grayDecodeArgs(source(), window({ crop: { ...wholePicture, width: 639 } })), '-vf')).toContain(
      'crop=639:480:0:0',
    );
    expect(argAfter(grayDecodeArgs(source(), window({ crop: { ...wholePicture, y: 1 } })), '-vf')).toContain('crop=');
  });

  it('limits the frame count only when one is given, and passes the thread count', () => {
    expect(argAfter(grayDecodeArgs(source(), window({ frames: 250 })), '-frames:v')).toBe('250');
    expect(argAfter(grayDecodeArgs(source(), window({ frames: 0 })), '-frames:v')).toBe('0');
    expect(argAfter(grayDecodeArgs(source(), window({ threads: 2 })), '-threads')).toBe('2');
    expect(grayDecodeArgs(source(), window())).not.toContain('-threads');
  });
});

describe('needsRangeMapping', () => {
  it('maps limited-range planar luma only', () => {
    expect(needsRangeMapping({ pixelFormat: 'yuv420p', fullRange: false })).toBe(true);
    expect(needsRangeMapping({ pixelFormat: 'yuv422p', fullRange: false })).toBe(true);
    expect(needsRangeMapping({ pixelFormat: 'yuv420p', fullRange: true })).toBe(false);
    expect(needsRangeMapping({ pixelFormat: 'yuvj420p', fullRange: true })).toBe(false);
    // ffmpeg's conversion to gray already yields full range for formats it converts.
    expect(needsRangeMapping({ pixelFormat: 'rgb24', fullRange: false })).toBe(false);
    expect(needsRangeMapping({ pixelFormat: 'yuv420p10le', fullRange: false })).toBe(false);
  });
});
