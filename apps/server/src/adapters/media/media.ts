import type { CleanStart, ProofCache } from './clean-start.js';
import { inputArgs, type MediaInput } from './input-policy.js';
import type { PacketIndex } from './packet-index.js';
import type { CopyPiece } from './playback.js';

/**
 * What the app needs from ffmpeg/ffprobe, as plain data. Everything in this file is pure (no processes, no files),
 * so the decisions — how a probe is read, which arguments ffmpeg gets — are
 * unit-tested without ffmpeg.
 */

/** Normalised facts about a video file. */
export interface VideoFacts {
  durationS: number;
  /** Frames per second as a number (30000/1001 → 29.97…). */
  fps: number;
  /** The exact rational ffprobe reported ("30000/1001"), for ffmpeg's `-r`. */
  fpsRational: string;
  frameCount: number;
  width: number;
  height: number;
  /** ffprobe's codec_name of the first video stream (h264, mjpeg, hevc…). */
  codec: string;
  /** ffprobe's profile of that stream ("High", "High 4:4:4 Predictive"…), null when it names none. */
  profile: string | null;
  /** ffprobe's format_name ("mov,mp4,m4a,3gp,3g2,mj2", "avi", "matroska,webm"…). */
  container: string;
  sizeBytes: number;
  /** Decoded pixel format (yuv420p, yuvj422p, rgb24…) and whether its samples use the full 0–255 range. */
  pixelFormat: string;
  fullRange: boolean;
  /** Time of the first frame in the container's clock (usually 0; MPEG-TS starts later). */
  startTime: number;
}

/** The file is not a video we can read; `message` is shown to the user. */
export class UnreadableVideoError extends Error {
  override readonly name = 'UnreadableVideoError';
}

/** The slice of `ffprobe -print_format json -show_format -show_streams` that we read. */
export interface ProbeOutput {
  streams?: {
    codec_type?: string;
    codec_name?: string;
    profile?: string;
    start_time?: string;
    pix_fmt?: string;
    color_range?: string;
    width?: number;
    height?: number;
    avg_frame_rate?: string;
    r_frame_rate?: string;
    nb_frames?: string;
    nb_read_packets?: string;
    duration?: string;
    disposition?: { attached_pic?: number };
  }[];
  format?: { format_name?: string; duration?: string; size?: string; start_time?: string };
}

/** "30000/1001" → { num: 30000, den: 1001 }; "0/0", "N/A" or garbage → null. */
export function parseRational(value: string | undefined): { num: number; den: number } | null {
  if (!value) return null;
  const match = /^(\d+)(?:\/(\d+))?$/.exec(value.trim());
  if (!match) return null;
  const num = Number(match[1]);
  const den = match[2] === undefined ? 1 : Number(match[2]);
  if (!Number.isFinite(num) || !Number.isFinite(den) || num <= 0 || den <= 0) return null;
  return { num, den };
}

function positiveNumber(value: string | undefined): number | null {
  if (value === undefined) return null;
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/**
 * Turns ffprobe's JSON into facts, or throws UnreadableVideoError. The frame count comes from the container
 * (nb_frames), else from counted packets, else duration × fps.
 */
export function parseProbe(output: ProbeOutput, sizeBytes: number): VideoFacts {
  // Cover art in an audio file is a "video" stream too; it is not a video.
  const stream = output.streams?.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  if (!stream?.codec_name) throw new UnreadableVideoError('The file has no video stream.');
  const width = stream.width ?? 0;
  const height = stream.height ?? 0;
  if (width <= 0 || height <= 0) throw new UnreadableVideoError('The video stream has no picture size.');
  const rational = parseRational(stream.avg_frame_rate) ?? parseRational(stream.r_frame_rate);
  if (!rational) throw new UnreadableVideoError('The video has no frame rate.');
  const fps = rational.num / rational.den;
  const durationS = positiveNumber(stream.duration) ?? positiveNumber(output.format?.duration);
  const counted = positiveNumber(stream.nb_frames) ?? positiveNumber(stream.nb_read_packets);
  const frameCount = counted ?? (durationS ? Math.round(durationS * fps) : 0);
  if (!frameCount || frameCount <= 0) throw new UnreadableVideoError('The video has no frames.');
  return {
    durationS: durationS ?? frameCount / fps,
    fps,
    fpsRational: rational.den === 1 ? String(rational.num) : `${rational.num}/${rational.den}`,
    frameCount: Math.round(frameCount),
    width,
    height,
    codec: stream.codec_name,
    profile: stream.profile && stream.profile !== 'unknown' ? stream.profile : null,
    container: output.format?.format_name ?? 'unknown',
    sizeBytes,
    pixelFormat: stream.pix_fmt ?? 'unknown',
    // JPEG-style "yuvj" formats and streams flagged "pc" carry 0–255 luma; everything else is limited 16–235.
    fullRange: (stream.pix_fmt ?? '').startsWith('yuvj') || stream.color_range === 'pc',
    startTime: Number(stream.start_time ?? output.format?.start_time ?? 0) || 0,
  };
}

/** ffprobe arguments that print the format and streams as JSON. */
export function probeArgs(input: MediaInput): string[] {
  return ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...inputArgs(input)];
}

/** ffmpeg arguments that decode the first video frame and discard it: proves the stream is decodable. */
export function decodeCheckArgs(input: MediaInput): string[] {
  return [
    ...['-hide_banner', '-nostdin', '-v', 'error', ...inputArgs(input)],
    ...['-map', '0:v:0', '-frames:v', '1', '-f', 'null', '-'],
  ];
}

/**
 * One JPEG of frame `frame`, `width` pixels wide (height keeps the aspect ratio, rounded to even), decoded from
 * `start` (a proven clean start at or before it, or the file's start): no seek lands on a keyframe the decoder
 * cannot start from cleanly, so the picture is never a broken one.
 */
export function thumbnailArgs(
  input: MediaInput,
  output: string,
  start: CleanStart,
  frame: number,
  width = 320,
): string[] {
  const args = ['-hide_banner', '-nostdin', '-v', 'error', '-y'];
  let select: string;
  if (start.seekS === null) {
    select = `select='gte(n,${frame})'`;
  } else {
    args.push('-noaccurate_seek', '-copyts', '-ss', start.seekS.toFixed(6));
    select = `select='gte(t,${start.fromS.toFixed(6)})'`;
  }
  args.push(...inputArgs(input), '-map', '0:v:0', '-an', '-sn', '-dn', '-frames:v', '1');
  args.push('-vf', `${select},scale=${width}:-2`, '-vsync', 'passthrough', '-q:v', '4', '-f', 'image2', output);
  return args;
}

/** The time for a thumbnail: about 10% into the video, so it is past a black first frame. */
export function thumbnailTime(durationS: number): number {
  return Math.max(0, Math.min(durationS * 0.1, Math.max(0, durationS - 0.1)));
}

/**
 * The app's one way to ffmpeg and ffprobe; `FfmpegMedia` runs the real binaries. Modules call these methods and
 * never start a process or build an argument list themselves (the analyses' gray-frame stream, which runs in a
 * worker thread without the context, is the plain function `readGrayFrames` of gray-frames.ts).
 */
export interface Media {
  /**
   * Facts about a local file; throws UnreadableVideoError when it is not a decodable video in one of the allowed
   * containers (input-policy.ts). `container` names the demuxer later commands must force.
   */
  probe(file: string, signal?: AbortSignal): Promise<VideoFacts>;
  /** The video's packet index (packet-index.ts): one read of the file's packets, to be stored with the video. */
  packetIndex(input: MediaInput, signal?: AbortSignal): Promise<PacketIndex>;
  /**
   * A JPEG of a frame about `atSeconds` in, decoded from a proven clean start found in `index` (the video's
   * packet index); answers which frame.
   */
  thumbnail(
    input: MediaInput,
    output: string,
    atSeconds: number,
    index: PacketIndex,
    signal?: AbortSignal,
  ): Promise<{ frame: number }>;
  /**
   * For each frame of `leads`, the latest proven clean start of `index` from which a decode gives that frame and
   * all after it (null: none near). Proofs are read from and added to `proofs` (the caller stores them).
   */
  cleanStarts(
    input: MediaInput,
    index: PacketIndex,
    leads: readonly number[],
    options: { proofs: ProofCache; fps?: number; signal?: AbortSignal },
  ): Promise<(CleanStart | null)[]>;
  /** Encodes one piece of the playback copy (playback-copy.ts). */
  encodePiece(input: MediaInput, output: string, piece: CopyPiece, options: EncodePieceOptions): Promise<void>;
  /** Joins the copy's pieces, in order, without re-encoding; answers the joined file's frame count. */
  joinPieces(
    pieces: { file: string; durationS: number | null }[],
    workDir: string,
    output: string,
    signal?: AbortSignal,
  ): Promise<{ frames: number }>;
  /** "ffmpeg version …" of the binary in use, for a run's record ("unknown" when it cannot tell). */
  version(): Promise<string>;
  /** Paths of the binaries in use, for the health report, logs and the analyses' worker threads. */
  readonly binaries: { ffmpeg: string; ffprobe: string };
}

export interface EncodePieceOptions {
  signal?: AbortSignal;
  /** ffmpeg threads (0 = ffmpeg's choice). */
  threads?: number;
  /** Frames encoded so far. */
  onFrames?: (frames: number) => void;
  warn?: (message: string) => void;
}
