/**
 * The gray-frame reader (issue 21): ffmpeg's stdout is one end of a Unix socket pair and the reader fills the
 * caller's frame buffer from the other. Checked against ffmpeg's own output of the same decode on a pipe, byte for
 * byte, and for every way a decode can end: cleanly, ffmpeg failing at once or not starting, a cancel, a reader
 * that throws, a stream that ends mid-frame (a stand-in decoder).
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { H264_FIXTURE, videoFixtures } from '../../../test/fixtures/videos.js';
import { resolveMediaBinaries } from './binaries.js';
import { FILE_START } from './clean-start.js';
import { allowedCpus, claimCpu } from './cpu-claims.js';
import { type DecodeSource, type DecodeWindow, grayDecodeArgs, readGrayFrames } from './gray-frames.js';
import { ProcessError, runProcess } from './run-process.js';
import { openFramePair } from './socket-frames.js';

const fixtures = videoFixtures();
const { ffmpeg } = resolveMediaBinaries(process.env.TMPDIR ?? '/tmp');
const F = H264_FIXTURE;

const source: DecodeSource = {
  path: fixtures.h264Mp4,
  demuxer: 'mov',
  fps: F.fps,
  width: F.width,
  height: F.height,
  pixelFormat: 'yuv420p',
  fullRange: false,
  startTime: 0,
};
const whole = { x: 0, y: 0, width: F.width, height: F.height };
const windowOf = (overrides: Partial<DecodeWindow> = {}): DecodeWindow => ({
  start: FILE_START,
  frames: null,
  crop: whole,
  ...overrides,
});

// The pair is made through a socket in a directory of os.tmpdir(): a directory of this file's own shows that
// nothing is left behind.
let tmp: string;
const savedTmpdir = process.env.TMPDIR;
beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'gray-test-'));
  process.env.TMPDIR = tmp;
});
afterEach(() => {
  expect(readdirSync(tmp).filter((name) => name.startsWith('frames-'))).toEqual([]);
});
afterAll(() => {
  process.env.TMPDIR = savedTmpdir;
  rmSync(tmp, { recursive: true, force: true });
});

/** The same decode written by ffmpeg to a pipe (what the reader replaced), collected whole. */
async function pipeDecode(window: DecodeWindow): Promise<Buffer> {
  const { stdout } = await runProcess(ffmpeg, grayDecodeArgs(source, window));
  return stdout;
}

/** Every frame the reader gives, copied, and the indices it gave them with. */
async function socketDecode(window: DecodeWindow) {
  const frame = new Uint8Array(window.crop.width * window.crop.height);
  const frames: Uint8Array[] = [];
  const indices: number[] = [];
  await readGrayFrames(ffmpeg, source, window, {
    frame,
    onFrame: (index) => {
      indices.push(index);
      frames.push(frame.slice());
    },
  });
  return { frames, indices };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('readGrayFrames', () => {
  it('gives exactly the bytes ffmpeg writes to a pipe, frame by frame, whole picture and cropped', async () => {
    const crop = { x: 13, y: 7, width: 101, height: 59 };
    for (const window of [windowOf(), windowOf({ crop }), windowOf({ frames: 40, threads: 1 })]) {
      const expected = await pipeDecode(window);
      const frameBytes = window.crop.width * window.crop.height;
      const { frames, indices } = await socketDecode(window);
      const count = window.frames ?? F.frames;
      expect(expected.length).toBe(count * frameBytes);
      expect(indices).toEqual(Array.from({ length: count }, (_, i) => i));
      expect(Buffer.concat(frames).equals(expected)).toBe(true);
    }
  });

  it('fails with ffmpeg’s own error when ffmpeg fails before any frame', async () => {
    const frame = new Uint8Array(F.width * F.height);
    let frames = 0;
    const text = { ...source, path: fixtures.textMp4 };
    const failure = await readGrayFrames(ffmpeg, text, windowOf(), { frame, onFrame: () => frames++ }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ProcessError);
    expect((failure as ProcessError).message).toMatch(/exited with code [1-9]/);
    expect((failure as ProcessError).stderrTail).not.toBe('');
    expect(frames).toBe(0);
  });

  it('fails when ffmpeg cannot start at all', async () => {
    const frame = new Uint8Array(F.width * F.height);
    await expect(
      readGrayFrames(path.join(tmp, 'no-such-ffmpeg'), source, windowOf(), { frame, onFrame: () => {} }),
    ).rejects.toThrow(/could not start/);
  });

  it('a cancel mid-stream kills ffmpeg and fails the read as cancelled', async () => {
    const frame = new Uint8Array(F.width * F.height);
    const controller = new AbortController();
    let pid = 0;
    let frames = 0;
    const failure = await readGrayFrames(ffmpeg, source, windowOf(), {
      frame,
      onFrame: (index) => {
        frames++;
        if (index === 9) controller.abort();
      },
      signal: controller.signal,
      onSpawn: (spawned) => {
        pid = spawned;
      },
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProcessError);
    expect((failure as Error).message).toMatch(/cancelled/);
    expect(frames).toBeGreaterThanOrEqual(10);
    expect(frames).toBeLessThan(F.frames);
    expect(pid).toBeGreaterThan(0);
    expect(isRunning(pid)).toBe(false);
  });

  it('a cancel before the read starts runs nothing', async () => {
    const frame = new Uint8Array(F.width * F.height);
    const signal = AbortSignal.abort();
    let spawned = false;
    await expect(
      readGrayFrames(ffmpeg, source, windowOf(), {
        frame,
        onFrame: () => {},
        signal,
        onSpawn: () => {
          spawned = true;
        },
      }),
    ).rejects.toThrow(/cancelled/);
    expect(spawned).toBe(false);
  });

  it('a reader that throws fails with its own error and stops ffmpeg', async () => {
    const frame = new Uint8Array(F.width * F.height);
    let pid = 0;
    const failure = await readGrayFrames(ffmpeg, source, windowOf(), {
      frame,
      onFrame: (index) => {
        if (index === 4) throw new Error('the counter gave up');
      },
      onSpawn: (spawned) => {
        pid = spawned;
      },
    }).catch((error: unknown) => error);
    expect((failure as Error).message).toBe('the counter gave up');
    expect(isRunning(pid)).toBe(false);
  });

  it('refuses a frame buffer of the wrong size before running anything', async () => {
    await expect(
      readGrayFrames(ffmpeg, source, windowOf(), { frame: new Uint8Array(F.width * F.height - 1), onFrame: () => {} }),
    ).rejects.toThrow(/frame buffer/);
  });
});

/**
 * A decode of 20 frames (ffmpeg's own threads unless `threads` says); answers the CPUs its ffmpeg could run on,
 * read at the first frame: 20 frames (1.5 MB) do not fit in the socket, so ffmpeg is still writing then.
 */
async function decodeAffinity(threads?: number): Promise<number[] | null> {
  const frame = new Uint8Array(F.width * F.height);
  let pid = 0;
  let affinity: number[] | null = null;
  await readGrayFrames(ffmpeg, source, windowOf({ frames: 20, threads }), {
    frame,
    onSpawn: (spawned) => {
      pid = spawned;
    },
    // By the first frame taskset has pinned itself and become ffmpeg (same pid).
    onFrame: (index) => {
      if (index === 0) affinity = allowedCpus(pid);
    },
  });
  return affinity;
}

// ADR 023 (one CPU a decode): CI runs on Linux with util-linux's taskset and at least two cores.
describe('a single-threaded decode on a CPU of its own', () => {
  const ours = allowedCpus()!;
  const claims = () => path.join(tmp, 'subject-video-analysis-cpus');

  it('runs ffmpeg on the first free CPU this process may use, and gives the CPU back after', async () => {
    expect(ours.length).toBeGreaterThanOrEqual(2);
    expect(await decodeAffinity(1)).toEqual([ours[0]]);
    expect(readdirSync(claims())).toEqual([]);
    // A CPU another process holds is left to it.
    const held = claimCpu([ours[0]!], claims())!;
    try {
      expect(await decodeAffinity(1)).toEqual([ours[1]]);
    } finally {
      held.release();
    }
  });

  it('runs unpinned when every CPU has a decode, and a decode with ffmpeg’s own threads is never pinned', async () => {
    const held = ours.map((cpu) => claimCpu([cpu], claims())!);
    try {
      expect(await decodeAffinity(1)).toEqual(ours);
    } finally {
      for (const claim of held) claim.release();
    }
    expect(await decodeAffinity()).toEqual(ours);
  });

  it('gives the CPU back when the decode fails', async () => {
    const frame = new Uint8Array(F.width * F.height);
    const text = { ...source, path: fixtures.textMp4 };
    await expect(
      readGrayFrames(ffmpeg, text, windowOf({ threads: 1 }), { frame, onFrame: () => {} }),
    ).rejects.toBeInstanceOf(ProcessError);
    expect(readdirSync(claims())).toEqual([]);
  });
});

/** A stand-in decoder: writes `bytes` bytes of the pattern i % 251 to its stdout and exits 0. */
function standIn(bytes: number): string {
  const file = path.join(tmp, `stand-in-${bytes}.mjs`);
  writeFileSync(
    file,
    `#!${process.execPath}
process.stdout.write(Buffer.from(Array.from({ length: ${bytes} }, (_, i) => i % 251)));
`,
  );
  chmodSync(file, 0o755);
  return file;
}

describe('readGrayFrames with a stand-in decoder', () => {
  const small = windowOf({ crop: { x: 0, y: 0, width: 10, height: 10 } });

  it('fails when the stream ends in the middle of a frame, after giving the whole frames', async () => {
    const frame = new Uint8Array(100);
    const seen: number[][] = [];
    const failure = await readGrayFrames(standIn(250), source, small, {
      frame,
      onFrame: () => seen.push([frame[0]!, frame[99]!]),
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProcessError);
    expect((failure as Error).message).toMatch(/middle of a frame/);
    // Frame k starts at byte 100k of the pattern i % 251.
    expect(seen).toEqual([
      [0, 99],
      [100, 199],
    ]);
  });

  it('reads a stream of whole frames to its end, and an empty one as no frames', async () => {
    const frame = new Uint8Array(100);
    const firsts: number[] = [];
    await readGrayFrames(standIn(300), source, small, { frame, onFrame: () => firsts.push(frame[0]!) });
    expect(firsts).toEqual([0, 100, 200]);
    let none = 0;
    await readGrayFrames(standIn(0), source, small, { frame, onFrame: () => none++ });
    expect(none).toBe(0);
  });
});

describe('openFramePair', () => {
  it('fills each frame from writes of any size, and reports an unfinished last frame', async () => {
    const stream = Buffer.from(Array.from({ length: 7 * 1000 + 3 }, (_, i) => (i * 7) % 256));
    const frame = new Uint8Array(1000);
    const frames: Buffer[] = [];
    const indices: number[] = [];
    const pair = await openFramePair({
      frame,
      onFrame: (index) => {
        indices.push(index);
        frames.push(Buffer.from(frame));
      },
    });
    expect(readdirSync(tmp).filter((name) => name.startsWith('frames-'))).toEqual([]);
    // Writes of uneven sizes, some spanning frames, with pauses so the reader sees them apart.
    for (let at = 0, k = 0; at < stream.length; k++) {
      const size = [1, 999, 1500, 7, 2493][k % 5]!;
      pair.childEnd.write(stream.subarray(at, at + size));
      at += size;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    pair.childEnd.end();
    expect(await pair.read).toEqual({ frames: 7, leftoverBytes: 3 });
    expect(indices).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(Buffer.concat(frames).equals(stream.subarray(0, 7000))).toBe(true);
  });

  it('settles with the error onFrame throws', async () => {
    const pair = await openFramePair({
      frame: new Uint8Array(10),
      onFrame: () => {
        throw new Error('no room');
      },
    });
    pair.childEnd.write(Buffer.alloc(25));
    await expect(pair.read).rejects.toThrow('no room');
    pair.release();
  });
});
