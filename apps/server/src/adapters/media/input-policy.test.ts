import { describe, expect, it } from 'vitest';
import { proofDecodeArgs } from './clean-start.js';
import {
  assertGuardedInputs,
  demuxerOf,
  inputArgs,
  joinInputArgs,
  RefusedContainerError,
  storedInput,
  UnguardedInputError,
  VIDEO_DEMUXERS,
} from './input-policy.js';
import { decodeCheckArgs, probeArgs, thumbnailArgs } from './media.js';
import { packetIndexArgs } from './packet-index.js';
import { countFramesArgs, joinArgs, pieceArgs } from './playback.js';
import { runProcess } from './run-process.js';

describe('the input policy', () => {
  it('maps ffprobe format names to an allowed demuxer, and nothing else', () => {
    expect(demuxerOf('mov,mp4,m4a,3gp,3g2,mj2')).toBe('mov');
    expect(demuxerOf('matroska,webm')).toBe('matroska');
    expect(demuxerOf('avi')).toBe('avi');
    expect(demuxerOf('asf')).toBe('asf');
    for (const refused of ['hls', 'concat', 'image2', 'jpeg_pipe', 'png_pipe', 'tty', 'lavfi', 'unknown', '', null]) {
      expect(demuxerOf(refused), String(refused)).toBeNull();
    }
    expect(() => storedInput('/x', 'hls')).toThrow(RefusedContainerError);
    expect(storedInput('/x', 'matroska,webm')).toEqual({ path: '/x', demuxer: 'matroska' });
  });

  it('opens every input as a local file of an allowed container, forcing the known demuxer', () => {
    expect(inputArgs({ path: '/v.avi', demuxer: 'avi' })).toEqual([
      ...['-protocol_whitelist', 'file', '-format_whitelist', VIDEO_DEMUXERS.join(',')],
      ...['-f', 'avi', '-i', '/v.avi'],
    ]);
    // The first probe of an upload: no forced demuxer, but only allowed ones can be picked.
    expect(inputArgs({ path: '/u.mp4', demuxer: null })).toEqual([
      ...['-protocol_whitelist', 'file', '-format_whitelist', VIDEO_DEMUXERS.join(','), '-i', '/u.mp4'],
    ]);
  });

  it('every argument builder passes the guard', () => {
    const input = { path: '/v.mp4', demuxer: 'mov' } as const;
    const start = { frame: 30, seekS: 1.001, fromS: 0.98, allowed: [] };
    const lists = [
      probeArgs({ path: '/u.mp4', demuxer: null }),
      decodeCheckArgs(input),
      thumbnailArgs(input, '/t.jpg', start, 30),
      proofDecodeArgs(input, start, 30, 8),
      packetIndexArgs(input),
      countFramesArgs(input),
      pieceArgs(input, '/p.mp4', { seekS: 1, startS: 1, endS: 2 }),
      joinArgs('/list.txt', '/out.mp4'),
    ];
    for (const args of lists) expect(() => assertGuardedInputs(args)).not.toThrow();
    expect(joinArgs('/list.txt', '/out.mp4')).toEqual(expect.arrayContaining(joinInputArgs('/list.txt')));
  });

  it('refuses argument lists that would let ffmpeg pick any demuxer or protocol', () => {
    const refused = [
      ['-i', '/u.mp4', '-f', 'null', '-'],
      ['-protocol_whitelist', 'file', '-i', '/u.mp4'],
      ['-format_whitelist', 'mov', '-i', '/u.mp4'],
      ['-protocol_whitelist', 'file,http', '-format_whitelist', VIDEO_DEMUXERS.join(','), '-i', 'http://x/y.mp4'],
      ['-protocol_whitelist', 'file', '-format_whitelist', 'hls,mov', '-i', '/u.mp4'],
      ['-protocol_whitelist', 'file', '-format_whitelist', VIDEO_DEMUXERS.join(','), '-f', 'hls', '-i', '/u.mp4'],
      ['-protocol_whitelist', 'file', '-format_whitelist', VIDEO_DEMUXERS.join(','), '-f', 'concat', '-i', '/u.mp4'],
      ['-f', 'lavfi', '-i', 'testsrc2'],
      [
        '-protocol_whitelist',
        'file',
        '-format_whitelist',
        VIDEO_DEMUXERS.join(','),
        '-f',
        'image2',
        '-i',
        '/f%03d.jpg',
      ],
      ['-f', 'image2', '-pattern_type', 'glob', '-i', '/frames/*.jpg'],
      // A second input sneaked in after a guarded one.
      [...inputArgs({ path: '/v.mp4', demuxer: 'mov' }), '-i', '/other.m3u8'],
    ];
    for (const args of refused) expect(() => assertGuardedInputs(args), args.join(' ')).toThrow(UnguardedInputError);
    // ffprobe takes a bare positional input too: it must be given exactly one, guarded, with -i.
    expect(() => assertGuardedInputs(['-show_format', '/u.mp4'], { requireInput: true })).toThrow(UnguardedInputError);
    expect(() => assertGuardedInputs(['-version'], { requireInput: true })).not.toThrow();
  });

  it('runProcess refuses to start ffmpeg or ffprobe with an unguarded input', async () => {
    await expect(runProcess('ffprobe', ['-show_format', '/etc/passwd'])).rejects.toThrow(UnguardedInputError);
    await expect(runProcess('ffmpeg', ['-f', 'lavfi', '-i', 'testsrc2', '-f', 'null', '-'])).rejects.toThrow(
      UnguardedInputError,
    );
  });
});
