/**
 * ffmpeg decoding to raw 8-bit gray frames on a pipe, and the pure pieces around it (arguments, frame
 * assembly). ffmpeg decodes with its own threads; the analysis reads the frames in a worker thread.
 */
import type { CleanStart } from '../../../adapters/media/clean-start.js';
import { inputArgs, type VideoDemuxer } from '../../../adapters/media/input-policy.js';
import type { Rect } from './intensity.js';

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
  // Unbuffered output: one write per frame instead of one per 32 KB of ffmpeg's I/O buffer — fewer wake-ups of
  // the reader; a third less system time on both sides of the pipe.
  args.push('-avioflags', 'direct', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1');
  return args;
}

/**
 * Cuts a byte stream into frames of `frameBytes`, calling `onFrame` with one reused buffer per frame (copy it
 * to keep it). Chunks arrive in any size; at most one frame is buffered.
 */
export class FrameAssembler {
  private readonly frame: Uint8Array;
  private filled = 0;
  framesOut = 0;

  constructor(
    readonly frameBytes: number,
    private readonly onFrame: (frame: Uint8Array, index: number) => void,
    private readonly lut: Uint8Array | null = null,
    /** Assemble straight into this buffer (the counter's own), instead of a new one. */
    target?: Uint8Array,
  ) {
    this.frame = target ?? new Uint8Array(frameBytes);
  }

  push(chunk: Uint8Array): void {
    let offset = 0;
    while (offset < chunk.length) {
      const take = Math.min(this.frameBytes - this.filled, chunk.length - offset);
      const part = chunk.subarray(offset, offset + take);
      if (this.lut) {
        const lut = this.lut;
        const target = this.frame;
        let j = this.filled;
        for (let i = 0; i < part.length; i++) target[j++] = lut[part[i]!]!;
      } else {
        this.frame.set(part, this.filled);
      }
      this.filled += take;
      offset += take;
      if (this.filled === this.frameBytes) {
        this.filled = 0;
        this.onFrame(this.frame, this.framesOut++);
      }
    }
  }

  /** Bytes of an unfinished last frame (a stream that ended mid-frame), 0 when the stream ended cleanly. */
  get leftoverBytes(): number {
    return this.filled;
  }
}
