/**
 * The gray-frame stream an analysis decodes: ffmpeg writes frames of the first video stream to its stdout as raw
 * 8-bit gray bytes; its stdout is one end of a Unix socket pair whose other end is read straight into the caller's
 * frame buffer (socket-frames.ts). The arguments are built here and the process runs through runProcess, like
 * every other one. `readGrayFrames` is a plain function of the ffmpeg path (not of the app's context): analyses
 * call it from a worker thread.
 */
import { type CleanStart, judgeDecode } from './clean-start.js';
import { claimDecodeCpu } from './cpu-claims.js';
import { inputArgs, type VideoDemuxer } from './input-policy.js';
import { ProcessError, runProcess } from './run-process.js';
import { type FrameReader, openFramePair } from './socket-frames.js';

/** A rectangle of the picture, in pixels. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What the decoder must know about the video (from ffprobe, kept with the run). */
export interface DecodeSource {
  /** The local file, opened with the demuxer its upload's probe recorded (input-policy.ts). */
  path: string;
  demuxer: VideoDemuxer | null;
  fps: number;
  width: number;
  height: number;
  pixelFormat: string;
  fullRange: boolean;
  /** Time of the first frame (ffprobe's start_time); frame n is at startTime + n / fps. */
  startTime: number;
}

/** 8-bit planar YUV formats whose first plane is the luma we want, ready to take without colour conversion. */
const PLANAR_YUV_8BIT = new Set([
  'yuv420p',
  'yuv422p',
  'yuv444p',
  'yuv440p',
  'yuv411p',
  'yuv410p',
  'yuvj420p',
  'yuvj422p',
  'yuvj444p',
  'yuvj440p',
  'yuvj411p',
]);

/**
 * Whether ffmpeg's Y plane is taken as is (`extractplanes=y`, the fast path: the analysis maps limited-range
 * luma to 0–255 itself) or ffmpeg converts to gray (any other pixel format, already full range).
 */
export function readsLumaPlane(source: Pick<DecodeSource, 'pixelFormat'>): boolean {
  return PLANAR_YUV_8BIT.has(source.pixelFormat);
}

/** Whether the analysis must map the decoded bytes from limited (16–235) to full range. */
export function needsRangeMapping(source: Pick<DecodeSource, 'pixelFormat' | 'fullRange'>): boolean {
  return readsLumaPlane(source) && !source.fullRange;
}

export interface DecodeWindow {
  /**
   * Where decoding starts (FILE_START, or a proven clean start from clean-start.ts): the output's first frame
   * is `start.frame`.
   */
  start: CleanStart;
  /** Frames to output; null = to the end of the stream. */
  frames: number | null;
  /** Part of the picture to output (the whole picture when it covers it). */
  crop: Rect;
  /** ffmpeg decoding threads (0 = ffmpeg's choice). */
  threads?: number;
  /**
   * Decode only the frames the decoder takes as keyframes (`-skip_frame nokey`): one pass over the file that
   * decodes a handful of pictures. Frames are then counted among the keyframes, not among all frames, and which
   * keyframes the decoder takes is its own affair (x264's intra-refresh points and open-GOP I frames it may not):
   * the caller checks the count against the packet index and the pictures against a full decode.
   */
  keyframesOnly?: boolean;
}

/**
 * ffmpeg arguments that write frames [start.frame, start.frame + frames) of the first video stream to stdout as
 * raw gray bytes, `crop.width × crop.height` per frame.
 *
 * Seeking (ADR 006, clean starts): a start mid-file is a keyframe whose decode was proven equal to a decode that
 * ran through it. `-ss` before `-i` without accurate seeking lands on that keyframe, and a `select` on the
 * original timestamps (`-copyts`) keeps frames from half-way between the wanted frame and the one before it, as
 * the packet index measured them (so variable frame rates cut right too); frames ffmpeg outputs before it (an
 * open GOP's leading frames) are dropped. `passthrough` keeps ffmpeg from duplicating or dropping frames.
 */
export function grayDecodeArgs(source: DecodeSource, window: DecodeWindow): string[] {
  const args = ['-hide_banner', '-nostdin', '-v', 'error'];
  if (window.threads !== undefined) args.push('-threads', String(window.threads));
  const filters: string[] = [];
  const { start } = window;
  if (start.seekS !== null) {
    // -ss counts from the start of the file; with -copyts the filter sees the container's own timestamps.
    args.push('-noaccurate_seek', '-copyts', '-ss', start.seekS.toFixed(6));
    filters.push(`select='gte(t,${start.fromS.toFixed(6)})'`);
  }
  if (window.keyframesOnly) args.push('-skip_frame', 'nokey');
  args.push(...inputArgs(source), '-map', '0:v:0', '-an', '-sn', '-dn');
  filters.push(readsLumaPlane(source) ? 'extractplanes=y' : 'format=gray');
  const { crop } = window;
  if (crop.x !== 0 || crop.y !== 0 || crop.width !== source.width || crop.height !== source.height) {
    filters.push(`crop=${crop.width}:${crop.height}:${crop.x}:${crop.y}:exact=1`);
  }
  // Output timestamps in the source's own time base: a variable frame rate otherwise collides in the raw
  // muxer's 1/fps clock, which ffmpeg reports as an error (and every reported line fails a decode).
  args.push('-vf', filters.join(','), '-vsync', 'passthrough', '-enc_time_base', '-1');
  if (window.frames !== null) args.push('-frames:v', String(window.frames));
  // ffmpeg writes each frame in 32 KB pieces (its I/O buffer). `-avioflags direct` does not change that: the
  // command line opens its output without the flag (ADR 023, night amendment: strace, 10 writes a frame either way).
  args.push('-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1');
  return args;
}

/**
 * Decodes the window's frames into `reader.frame` (`window.crop` width × height bytes), calling `reader.onFrame`
 * for each. Resolves when ffmpeg ends cleanly; rejects with `onFrame`'s own error when it throws (ffmpeg is
 * killed), with a ProcessError when ffmpeg fails, is cancelled (`signal`) or ends in the middle of a frame, and
 * with DecodeErrorReport when ffmpeg reported a decode error its start's proof did not see (clean-start.ts):
 * those pictures are not trusted.
 */
export async function readGrayFrames(
  ffmpeg: string,
  source: DecodeSource,
  window: DecodeWindow,
  hooks: FrameReader & { signal?: AbortSignal; onSpawn?: (pid: number) => void },
): Promise<void> {
  const frameBytes = window.crop.width * window.crop.height;
  if (hooks.frame.length !== frameBytes) {
    throw new Error(`the frame buffer holds ${hooks.frame.length} bytes, a frame ${frameBytes}`);
  }
  if (hooks.signal?.aborted) throw new ProcessError('ffmpeg was cancelled', null, '');
  const pair = await openFramePair(hooks);
  // Kills ffmpeg when the reader fails first (onFrame threw): its error is then the reason, not the kill.
  const readerFailed = new AbortController();
  const signal = hooks.signal ? AbortSignal.any([hooks.signal, readerFailed.signal]) : readerFailed.signal;
  // A single-threaded decode (one of several side by side) runs on a CPU of its own when one is free.
  const cpu = window.threads === 1 ? claimDecodeCpu() : null;
  let decoding: ReturnType<typeof runProcess>;
  try {
    decoding = runProcess(ffmpeg, grayDecodeArgs(source, window), {
      signal,
      onSpawn: hooks.onSpawn,
      stdoutSocket: pair.childEnd,
      pin: cpu ?? undefined,
    });
  } catch (error) {
    cpu?.release();
    throw error;
  } finally {
    // ffmpeg holds its own copy now: the stream ends when ffmpeg ends.
    pair.release();
  }
  const read = pair.read.catch((error: Error) => {
    readerFailed.abort();
    throw error;
  });
  const [decoded, frames] = await Promise.allSettled([decoding, read]);
  cpu?.release();
  if (frames.status === 'rejected') throw frames.reason;
  if (decoded.status === 'rejected') throw decoded.reason;
  const { stderr, stderrOverflow } = decoded.value;
  if (frames.value.leftoverBytes !== 0) {
    throw new ProcessError('ffmpeg ended in the middle of a frame', 0, stderr.slice(-4096).trim());
  }
  judgeDecode(stderrOverflow ? `${stderr}\n(more than 64 KB of messages)` : stderr, window.start);
}
