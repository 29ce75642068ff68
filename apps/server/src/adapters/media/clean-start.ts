/**
 * Clean decode starts (issue 9): where ffmpeg may start decoding a video mid-file and still produce the stream's
 * own pictures. Everything here is pure (no processes): the arguments of the proof decodes, the choice of
 * candidates among the packet index's keyframes, and the judgement of ffmpeg's stderr.
 *
 * A keyframe flag in the container does not make a clean start: x264's intra refresh marks frames that need a
 * whole refresh period to heal, open GOPs start with frames that reference the previous GOP, and some encoders
 * flag frames the decoder cannot start from at all. So a start is used only once a decode from it gave the same
 * pictures (hash of every plane) as a decode that began earlier and ran through it.
 */
import { inputArgs, type MediaInput } from './input-policy.js';

/** A keyframe of the index: its frame number (presentation order) and when it is shown. */
export interface SeekPoint {
  /** Frame number: how many frames of the stream are shown before it. */
  frame: number;
  /** Its presentation time, seconds, in the container's clock. */
  time: number;
  /** Half-way between the previous frame's time and its own: `t ≥ from` keeps exactly this frame on. */
  from: number;
}

/**
 * The keyframes of a video's first video stream a decode may seek to, at least a second apart: a view of its
 * packet index (packet-index.ts, `seekIndexOf`).
 */
export interface SeekIndex {
  /** Frames counted in the packet list. */
  frameCount: number;
  /** The container's start time (ffmpeg's -ss counts from it). */
  startTime: number;
  keyframes: SeekPoint[];
}

/**
 * Where a decode starts: ffmpeg seeks to `seekS` (null: no seek, the file's start) and keeps frames shown at or
 * after `fromS`; the output's first frame is frame `frame`, and frames from it on are proven to be the stream's
 * own. `allowed` are the lines ffmpeg printed while starting there in the proof (messages about frames before
 * `frame`, which are dropped); any other line during a decode from this start is a decode error.
 */
export interface CleanStart {
  frame: number;
  seekS: number | null;
  fromS: number;
  allowed: string[];
}

/** The file's start: always clean. Frames before the wanted ones are decoded and dropped. */
export const FILE_START: CleanStart = { frame: 0, seekS: null, fromS: 0, allowed: [] };

/** The frames a proof compares: about a second of video, at least 8 and at most 60 frames. */
export function proofWindow(fps: number): number {
  return Math.max(8, Math.min(60, Math.round(fps)));
}

/** The start of a decode that seeks to keyframe `seek` and keeps frames from keyframe `valid` on. */
export function startAt(index: SeekIndex, seek: number, valid: number, allowed: string[] = []): CleanStart {
  const seekPoint = index.keyframes[seek]!;
  const validPoint = index.keyframes[valid]!;
  if (seekPoint.frame === 0) return FILE_START;
  // ffmpeg's -ss counts from the container's start; a millisecond on keeps float rounding from landing on the
  // keyframe before (which would only cost time: the proof checks what the seek really does).
  return {
    frame: validPoint.frame,
    seekS: Math.max(0, seekPoint.time - index.startTime + 0.001),
    fromS: validPoint.from,
    allowed,
  };
}

/**
 * ffmpeg arguments that print the hash (every plane, as decoded) and time of `frames` frames from frame `valid`
 * on, decoding from `start`, one line each (framemd5). Without a seek frames are kept by number, so a proof
 * against the file's start also checks that the index counted frames as the decoder outputs them.
 */
export function proofDecodeArgs(input: MediaInput, start: CleanStart, valid: number, frames: number): string[] {
  const args = ['-hide_banner', '-nostdin', '-v', 'error', '-threads', '1'];
  let select: string;
  if (start.seekS === null) {
    args.push('-copyts');
    select = `select='gte(n,${valid})'`;
  } else {
    args.push('-noaccurate_seek', '-copyts', '-ss', start.seekS.toFixed(6));
    select = `select='gte(t,${start.fromS.toFixed(6)})'`;
  }
  args.push(...inputArgs(input), '-map', '0:v:0', '-an', '-sn', '-dn', '-vf', select, '-vsync', 'passthrough');
  args.push('-enc_time_base', '-1');
  args.push('-frames:v', String(frames), '-f', 'framemd5', '-');
  return args;
}

/** framemd5 output → "pts hash" per frame. */
export function framemd5Lines(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => {
      const fields = line.split(',').map((f) => f.trim());
      return `${fields[2]} ${fields[5]}`;
    });
}

/** A stderr line without the context's address ("[h264 @ 0x55…] x" → "[h264] x"), trimmed. */
export function normaliseLine(line: string): string {
  return line.replace(/\[([^\]@]*?)\s*@\s*0x[0-9a-f]+\]/gi, '[$1]').trim();
}

/** The distinct lines ffmpeg printed (normalised), for a proof's `allowed`. */
export function stderrLines(stderr: string): string[] {
  const lines = stderr.split('\n').map(normaliseLine).filter(Boolean);
  return [...new Set(lines.filter((line) => !/^Last message repeated/i.test(line)))];
}

/**
 * The lines of a decode's stderr (run with `-v error`) that report a problem: every line, except those the proof
 * of its start saw (and "Last message repeated" after such a line). ffmpeg at `-v error` prints errors only; a
 * decode error ("error while decoding MB", "Reference 5 >= 4", "gray chroma"…) is one of them, so none passes.
 */
export function decodeErrorLines(stderr: string, allowed: readonly string[]): string[] {
  const ok = new Set(allowed);
  const errors: string[] = [];
  let previousAllowed = false;
  for (const raw of stderr.split('\n')) {
    const line = normaliseLine(raw);
    if (!line) continue;
    if (/^Last message repeated/i.test(line)) {
      if (!previousAllowed) errors.push(line);
      continue;
    }
    previousAllowed = ok.has(line);
    if (!previousAllowed) errors.push(line);
  }
  return errors;
}

/**
 * The proofs to try, in order, for a decode that needs frame `lead` and everything after it: as [seek, valid]
 * index pairs into the keyframes. First the nearest keyframe at or before `lead` as a start of its own; then a
 * start one keyframe earlier that must be right from that keyframe on (an intra-refresh stream heals within a
 * period; an open GOP's leading frames are dropped); then the same one keyframe further back. At most four, so
 * the cost of finding a start is bounded by a few keyframe gaps of decoding.
 */
export function candidateProofs(index: SeekIndex, lead: number): [number, number][] {
  let a = -1;
  for (let i = 0; i < index.keyframes.length && index.keyframes[i]!.frame <= lead; i++) a = i;
  const pairs: [number, number][] = [];
  for (const [seek, valid] of [
    [a, a],
    [a - 1, a],
    [a - 1, a - 1],
    [a - 2, a - 1],
  ] as [number, number][]) {
    if (seek >= 0 && valid >= 0) pairs.push([seek, valid]);
  }
  return pairs;
}

/** Where a cached or fresh proof is kept: "seek:valid" → the start, or false when it was not clean. */
export type ProofCache = Map<string, CleanStart | false>;

export const proofKey = (seek: number, valid: number) => `${seek}:${valid}`;

/**
 * The latest clean start for a decode needing frame `lead` on, trying candidateProofs in order with `prove`
 * (cached in `cache`); null when none is proven (the caller decodes from the file's start, or cuts elsewhere).
 * A start at the file's first keyframe needs no proof.
 */
export async function findCleanStart(
  index: SeekIndex,
  lead: number,
  cache: ProofCache,
  prove: (seek: number, valid: number) => Promise<CleanStart | false>,
): Promise<CleanStart | null> {
  if (lead <= 0) return FILE_START;
  for (const [seek, valid] of candidateProofs(index, lead)) {
    if (index.keyframes[seek]!.frame === 0) return startAt(index, seek, valid);
    const key = proofKey(seek, valid);
    let result = cache.get(key);
    if (result === undefined) {
      result = await prove(seek, valid);
      cache.set(key, result);
    }
    if (result) return result;
  }
  return null;
}

/**
 * ffmpeg finished but reported decode errors (lines not allowed by the start's proof): its pictures cannot be
 * trusted. `lines` are the offending lines, normalised.
 */
export class DecodeErrorReport extends Error {
  override readonly name = 'DecodeErrorReport';
  constructor(readonly lines: string[]) {
    super(`ffmpeg reported a decode error: ${lines[0] ?? 'unknown'}`);
  }
}

/** Throws DecodeErrorReport when a finished decode's stderr has lines its start does not allow. */
export function judgeDecode(stderr: string, start: Pick<CleanStart, 'allowed'>): void {
  const errors = decodeErrorLines(stderr, start.allowed);
  if (errors.length > 0) throw new DecodeErrorReport(errors.slice(0, 20));
}
