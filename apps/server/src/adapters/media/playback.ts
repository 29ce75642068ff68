/**
 * The browser-playable copy, as pure decisions and argument lists (no processes, no files): when a copy is
 * needed, how a long copy is cut into pieces, and what ffmpeg is told to make and join them.
 */

import { inputArgs, joinInputArgs, type MediaInput } from './input-policy.js';
import type { PacketIndex } from './packet-index.js';

/** The H.264 profiles every major browser decodes (Chromium, Firefox, Safari), as ffprobe names them. */
const SAFE_H264_PROFILES = new Set(['Constrained Baseline', 'Main', 'High']);
/** 8-bit 4:2:0; `yuvj420p` is the same samples with full-range luma, which browsers decode too. */
const SAFE_PIXEL_FORMATS = new Set(['yuv420p', 'yuvj420p']);
const SAFE_EXTENSIONS = new Set(['.mp4', '.m4v', '.mov']);

/**
 * Why a video needs a playback copy, or null when its original plays in every major browser: only 8-bit 4:2:0
 * H.264 in the Constrained Baseline, Main or High profile, in an MP4/MOV file, does. Everything else —
 * High 4:4:4, High 10, 4:2:2, HEVC, VP9/AV1 (not everywhere), MJPEG, WMV, MPEG-4 part 2, and any codec in
 * AVI, Matroska, FLV, MPEG-TS… — gets an H.264 yuv420p MP4 with the same frames.
 */
export function playbackCopyReason(
  facts: { codec: string; container: string; pixelFormat: string; profile?: string | null },
  fileExtension: string,
): string | null {
  const formats = facts.container.split(',');
  if (!formats.includes('mp4') && !formats.includes('mov')) return `${facts.container} container`;
  if (!SAFE_EXTENSIONS.has(fileExtension.toLowerCase())) return `${fileExtension || 'unknown'} file`;
  if (facts.codec !== 'h264') return `${facts.codec} codec`;
  if (!SAFE_PIXEL_FORMATS.has(facts.pixelFormat)) return `${facts.pixelFormat} pixels`;
  if (!facts.profile || !SAFE_H264_PROFILES.has(facts.profile)) return `H.264 ${facts.profile ?? 'unknown'} profile`;
  return null;
}

export const needsPlaybackCopy = (...args: Parameters<typeof playbackCopyReason>) =>
  playbackCopyReason(...args) !== null;

export interface CopyPiece {
  index: number;
  /** Frames [startFrame, endFrame) of the original. */
  startFrame: number;
  endFrame: number;
  /** The keyframe ffmpeg seeks to (seconds); the piece decodes from there. */
  seekS: number;
  /**
   * Time bounds that keep exactly the piece's frames: its first frame's time and the next piece's first frame's
   * (excluded); null = open. Exact frame times, not midpoints: ffmpeg's `trim` rounds a bound to the stream's time
   * base, so a midpoint (x.5 ticks at 1/30 s) may round down and drop a frame.
   */
  startS: number | null;
  endS: number | null;
  /** From this piece's first frame to the next piece's (the join places the next piece there); null for the last. */
  durationS: number | null;
}

export interface PiecePlanOptions {
  /** Workers expected to share the copy: at least this many pieces when the video is long enough. */
  parallelism: number;
  /** Longest piece, in frames (bounds the work lost when a piece is retried). */
  maxPieceFrames: number;
  /** Shortest piece worth a separate process, in frames. */
  minPieceFrames: number;
}

/**
 * Cuts the original into pieces that start at keyframes: the even cuts (as many pieces as workers, more when
 * a piece would pass `maxPieceFrames`) move back to the keyframe at or before them; a cut that would leave a
 * piece shorter than `minPieceFrames` is dropped. An intra-only stream (MJPEG: every frame a keyframe) cuts
 * exactly; a stream with one keyframe is one piece.
 */
export function planCopyPieces(
  index: Pick<PacketIndex, 'times' | 'keyframes'>,
  options: PiecePlanOptions,
): CopyPiece[] {
  const total = index.times.length;
  const parallelism = Math.max(1, Math.floor(options.parallelism));
  let count = Math.max(parallelism, Math.ceil(total / Math.max(1, options.maxPieceFrames)));
  count = Math.ceil(count / parallelism) * parallelism;
  const minFrames = Math.max(1, options.minPieceFrames);
  const starts = [0];
  for (let i = 1; i < count; i++) {
    let cut = Math.floor((i * total) / count);
    while (cut > 0 && !index.keyframes[cut]) cut--;
    const previous = starts.at(-1)!;
    if (cut - previous >= minFrames && total - cut >= minFrames) starts.push(cut);
  }
  const time = (frame: number) => index.times[frame]!;
  return starts.map((startFrame, i) => {
    const endFrame = starts[i + 1] ?? total;
    const last = i === starts.length - 1;
    return {
      index: i,
      startFrame,
      endFrame,
      seekS: time(startFrame),
      startS: startFrame === 0 ? null : time(startFrame),
      endS: last ? null : time(endFrame),
      durationS: last ? null : time(endFrame) - time(startFrame),
    };
  });
}

/** Seconds as ffmpeg reads them, to the microsecond. */
const seconds = (value: number) => value.toFixed(6);

/**
 * ffmpeg arguments that encode one piece: seek to its keyframe (`seekS`, or from the file's start when null),
 * keep the frames between `startS` and `endS` by their original timestamps (`-copyts`), start the piece at 0,
 * and encode every frame as it is (`-vsync passthrough`, the source's time base): no frame dropped or doubled,
 * a variable frame rate kept. No B-frames, so the pieces join without reordering across the cuts. Video only.
 * Progress lines go to stdout (`-progress pipe:1`).
 */
export function pieceArgs(
  input: MediaInput,
  output: string,
  piece: Pick<CopyPiece, 'startS' | 'endS'> & { seekS: number | null },
  options: { threads?: number } = {},
): string[] {
  const trim = [
    piece.startS === null ? null : `start=${seconds(piece.startS)}`,
    piece.endS === null ? null : `end=${seconds(piece.endS)}`,
  ].filter(Boolean);
  const filters = [
    ...(trim.length > 0 ? [`trim=${trim.join(':')}`] : []),
    'setpts=PTS-STARTPTS',
    // yuv420p needs even sizes; most players need yuv420p.
    'scale=trunc(iw/2)*2:trunc(ih/2)*2',
    'format=yuv420p',
  ];
  return [
    ...['-hide_banner', '-nostdin', '-v', 'error', '-nostats', '-progress', 'pipe:1', '-y'],
    ...(options.threads ? ['-threads', String(options.threads)] : []),
    '-copyts',
    ...(piece.seekS === null ? [] : ['-noaccurate_seek', '-ss', seconds(piece.seekS)]),
    ...inputArgs(input),
    ...['-map', '0:v:0', '-an', '-sn', '-dn'],
    ...['-vf', filters.join(',')],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-bf', '0'],
    ...(options.threads ? ['-x264-params', `threads=${options.threads}`] : []),
    // `-vsync` rather than `-fps_mode`: older ffmpeg builds (the npm-shipped one) know only the former.
    ...['-vsync', 'passthrough', '-enc_time_base', '-1'],
    ...['-f', 'mp4', output],
  ];
}

/** The concat demuxer's list: each piece placed where the next begins (`duration`), so the original times hold. */
export function concatList(pieces: { file: string; durationS: number | null }[]): string {
  const quote = (file: string) => `'${file.replaceAll("'", "'\\''")}'`;
  return pieces
    .map((p) => `file ${quote(p.file)}\n${p.durationS === null ? '' : `duration ${seconds(p.durationS)}\n`}`)
    .join('');
}

/** ffmpeg arguments that join the pieces without re-encoding into one MP4 that starts playing before it is all loaded. */
export function joinArgs(listFile: string, output: string): string[] {
  return [
    ...['-hide_banner', '-nostdin', '-v', 'error', '-y'],
    ...joinInputArgs(listFile),
    ...['-map', '0:v:0', '-c', 'copy', '-movflags', '+faststart', '-f', 'mp4', output],
  ];
}

/** ffprobe arguments that count the packets (frames) of the first video stream without decoding. */
export function countFramesArgs(input: MediaInput): string[] {
  return [
    ...['-v', 'error', '-select_streams', 'v:0', '-count_packets'],
    ...['-show_entries', 'stream=nb_read_packets', '-of', 'csv=p=0'],
    ...inputArgs(input),
  ];
}

/**
 * Whether ffmpeg's stderr (at `-v error`) reports decoding errors: after a seek to a keyframe that is not a clean
 * start (non-IDR I-frames, intra refresh), the decoder says so ("Reference 5 >= 4", "error while decoding MB").
 */
export function reportsDecodeErrors(stderr: string): boolean {
  return stderr.split('\n').some((line) => line.trim() !== '');
}
