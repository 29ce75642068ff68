import { describe, expect, it } from 'vitest';
import {
  type CleanStart,
  candidateProofs,
  DecodeErrorReport,
  decodeErrorLines,
  FILE_START,
  findCleanStart,
  judgeDecode,
  normaliseLine,
  type ProofCache,
  proofDecodeArgs,
  type SeekIndex,
  startAt,
  stderrLines,
} from './clean-start.js';
import { PacketIndexReader, seekIndexOf } from './packet-index.js';

/** Packets in decode order as [pts seconds, key], as ffprobe's CSV lines. */
function indexOf(packets: [number | null, boolean][], startTime = 0): SeekIndex {
  const reader = new PacketIndexReader();
  reader.line(`format,${startTime}`);
  for (const [time, key] of packets) reader.line(`packet,${time ?? 'N/A'},N/A,${key ? 'K_' : '__'}`);
  return seekIndexOf(reader.finish());
}

describe("the packet index's seek points (seekIndexOf)", () => {
  it('numbers keyframes in presentation order through B-frame reordering', () => {
    // 30 fps, I P B B P B B … with a keyframe every 2 s: decode order I0 P3 B1 B2 P6 B4 B5 …
    const packets: [number, boolean][] = [];
    for (let gop = 0; gop < 3; gop++) {
      const base = gop * 60;
      packets.push([base / 30, true]);
      for (let f = base + 3; f < base + 60; f += 3)
        packets.push([f / 30, false], [(f - 2) / 30, false], [(f - 1) / 30, false]);
      packets.push([(base + 58) / 30, false], [(base + 59) / 30, false]);
    }
    const index = indexOf(packets);
    expect(index.frameCount).toBe(packets.length);
    expect(index.keyframes.map((k) => k.frame)).toEqual([0, 60, 120]);
    expect(index.keyframes[1]!.time).toBeCloseTo(2, 9);
    // Half-way between frame 59 and frame 60.
    expect(index.keyframes[1]!.from).toBeCloseTo(59.5 / 30, 9);
  });

  it("counts an open GOP's leading frames, which follow the keyframe in decode order, before it", () => {
    // Frames 0–27, then an open-GOP I at frame 30 decoded before its leading B-frames 28 and 29.
    const packets: [number, boolean][] = [];
    for (let f = 0; f < 28; f++) packets.push([f / 25, f === 0]);
    packets.push([30 / 25, true], [28 / 25, false], [29 / 25, false]);
    for (let f = 31; f < 60; f++) packets.push([f / 25, f === 55]);
    const index = indexOf(packets);
    expect(index.keyframes.map((k) => k.frame)).toEqual([0, 30, 55]);
    expect(index.keyframes[1]!.from).toBeCloseTo(29.5 / 25, 9);
    // Keyframes less than a second after the last one kept are left out (MJPEG: every frame is one).
    const dense = indexOf(packets.map(([t]) => [t, true]));
    expect(dense.keyframes.map((k) => k.frame)).toEqual([0, 25, 50]);
  });

  it('keeps no keyframes when a packet has no timestamp, and reads ffprobe CSV lines', () => {
    expect(
      indexOf([
        [0, true],
        [null, false],
        [2, true],
      ]).keyframes,
    ).toEqual([]);
    const reader = new PacketIndexReader();
    for (const line of [
      'packet,0.000000,-0.066667,K_',
      'packet,0.033333,0.000000,__',
      'packet,N/A,0.033333,_D',
      'format,1.500000',
    ]) {
      reader.line(line);
    }
    const index = seekIndexOf(reader.finish());
    expect(index).toMatchObject({ frameCount: 2, startTime: 1.5 });
    expect(index.keyframes.map((k) => k.frame)).toEqual([0]);
  });
});

const index: SeekIndex = {
  frameCount: 300,
  startTime: 0.5,
  keyframes: [0, 60, 120, 180, 240].map((frame) => ({ frame, time: 0.5 + frame / 30, from: 0.5 + (frame - 0.5) / 30 })),
};

describe('starts and their proofs', () => {
  it('seeks from the container start, a millisecond past the keyframe, and keeps frames from the valid one', () => {
    expect(startAt(index, 2, 3)).toEqual({ frame: 180, seekS: 4.001, fromS: index.keyframes[3]!.from, allowed: [] });
    expect(startAt(index, 0, 1)).toEqual(FILE_START);
    const args = proofDecodeArgs({ path: '/v.mp4', demuxer: 'mov' }, startAt(index, 2, 3), 180, 30);
    expect(args.slice(args.indexOf('-ss') - 2, args.indexOf('-ss') + 2)).toEqual([
      ...['-noaccurate_seek', '-copyts', '-ss', '4.001000'],
    ]);
    expect(args[args.indexOf('-vf') + 1]).toBe(`select='gte(t,${index.keyframes[3]!.from.toFixed(6)})'`);
    expect(args.slice(-5)).toEqual(['-frames:v', '30', '-f', 'framemd5', '-']);
    // From the file's start frames are kept by number.
    const fromStart = proofDecodeArgs({ path: '/v.mp4', demuxer: 'mov' }, FILE_START, 180, 30);
    expect(fromStart).not.toContain('-ss');
    expect(fromStart[fromStart.indexOf('-vf') + 1]).toBe("select='gte(n,180)'");
  });

  it('tries the keyframe at or before the frame, then starts one and two keyframes earlier', () => {
    expect(candidateProofs(index, 200)).toEqual([
      [3, 3],
      [2, 3],
      [2, 2],
      [1, 2],
    ]);
    expect(candidateProofs(index, 180)[0]).toEqual([3, 3]);
    expect(candidateProofs(index, 70)).toEqual([
      [1, 1],
      [0, 1],
      [0, 0],
    ]);
  });

  it('takes the first proven candidate, caches every answer, and needs no proof at the file start', async () => {
    const asked: string[] = [];
    const cache: ProofCache = new Map();
    const prove = async (seek: number, valid: number): Promise<CleanStart | false> => {
      asked.push(`${seek}:${valid}`);
      return seek === valid ? false : startAt(index, seek, valid);
    };
    expect(await findCleanStart(index, 200, cache, prove)).toEqual(startAt(index, 2, 3));
    expect(asked).toEqual(['3:3', '2:3']);
    expect(await findCleanStart(index, 190, cache, prove)).toEqual(startAt(index, 2, 3));
    expect(asked).toHaveLength(2);
    expect(await findCleanStart(index, 0, cache, prove)).toBe(FILE_START);
    // Near the start, a candidate at frame 0 is the file start.
    expect(await findCleanStart(index, 70, cache, prove)).toBe(FILE_START);
    const never = async () => false as const;
    expect(await findCleanStart(index, 250, new Map(), never)).toBeNull();
  });
});

describe('judging ffmpeg stderr', () => {
  it('drops the context address and keeps the rest of a line', () => {
    expect(normaliseLine('[h264 @ 0x55d0c0a1b2c0] error while decoding MB 3 4, bytestream -5 ')).toBe(
      '[h264] error while decoding MB 3 4, bytestream -5',
    );
    expect(stderrLines('[h264 @ 0x1] mmco: unref short failure\n[h264 @ 0x2] mmco: unref short failure\n')).toEqual([
      '[h264] mmco: unref short failure',
    ]);
  });

  it("reports every line but those the start's proof allowed (and their repeats)", () => {
    const allowed = ['[h264] mmco: unref short failure'];
    const stderr = [
      '[h264 @ 0xabc] mmco: unref short failure',
      '    Last message repeated 2 times',
      '[h264 @ 0xabc] Reference 5 >= 4',
      '[h264 @ 0xabc] error while decoding MB 12 3, bytestream 140',
      '    Last message repeated 1 times',
    ].join('\n');
    expect(decodeErrorLines(stderr, allowed)).toEqual([
      '[h264] Reference 5 >= 4',
      '[h264] error while decoding MB 12 3, bytestream 140',
      'Last message repeated 1 times',
    ]);
    expect(decodeErrorLines('[h264 @ 0x1] mmco: unref short failure\n', allowed)).toEqual([]);
    expect(decodeErrorLines('', [])).toEqual([]);
    expect(() => judgeDecode('[h264 @ 0x1] gray chroma\n', FILE_START)).toThrow(DecodeErrorReport);
    expect(() => judgeDecode('[h264 @ 0x1] gray chroma\n', FILE_START)).toThrow(
      'ffmpeg reported a decode error: [h264] gray chroma',
    );
  });
});
