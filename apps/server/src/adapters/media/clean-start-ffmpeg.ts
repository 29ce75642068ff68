/**
 * The processes behind clean decode starts (see clean-start.ts): ffprobe's packet list read as a stream into the
 * packet index, and the proof of a start — two short decodes hashed frame by frame.
 */
import {
  type CleanStart,
  FILE_START,
  findCleanStart,
  framemd5Lines,
  type ProofCache,
  proofDecodeArgs,
  proofWindow,
  type SeekIndex,
  startAt,
  stderrLines,
} from './clean-start.js';
import type { MediaInput } from './input-policy.js';
import { indexFps, type PacketIndex, PacketIndexReader, packetIndexArgs, seekIndexOf } from './packet-index.js';
import { lineReader, runProcess } from './run-process.js';

/**
 * Reads the packet index of the first video stream (no decoding: ffprobe reads the packets' headers, so the cost
 * is one read of the file). Lines are parsed as they arrive.
 */
export async function readPacketIndex(ffprobe: string, input: MediaInput, signal?: AbortSignal): Promise<PacketIndex> {
  const reader = new PacketIndexReader();
  const lines = lineReader((line) => reader.line(line));
  await runProcess(ffprobe, packetIndexArgs(input), { signal, onStdout: (chunk) => lines.push(chunk) });
  lines.end();
  return reader.finish();
}

/**
 * Proves (or disproves) the start that seeks to keyframe `seek` and keeps frames from keyframe `valid` on: the
 * frames of a short window from `valid` on, decoded from it, must hash equal (pts and every plane) to the same
 * frames decoded from one keyframe earlier — or from the file's start, which is right by definition and also
 * checks the index's frame count there. Returns the start, with the lines ffmpeg printed before the first kept
 * frame (allowed in later decodes from it), or false — also when ffmpeg printed anything inside the window.
 */
export async function proveStart(
  ffmpeg: string,
  input: MediaInput,
  index: SeekIndex,
  seek: number,
  valid: number,
  fps: number,
  signal?: AbortSignal,
): Promise<CleanStart | false> {
  const start = startAt(index, seek, valid);
  if (start.seekS === null) return start;
  const validFrame = index.keyframes[valid]!.frame;
  const earlier = seek - 1 >= 0 ? startAt(index, seek - 1, valid) : FILE_START;
  const frames = Math.min(proofWindow(fps), Math.max(1, index.frameCount - validFrame));
  const decode = (from: CleanStart) =>
    runProcess(ffmpeg, proofDecodeArgs(input, from, validFrame, frames), { signal, timeoutMs: 10 * 60_000 });
  const [test, reference] = await Promise.allSettled([decode(start), decode(earlier)]);
  if (reference.status === 'rejected') {
    if (signal?.aborted) throw reference.reason;
    return false;
  }
  if (test.status === 'rejected') {
    if (signal?.aborted) throw test.reason;
    return false;
  }
  const got = framemd5Lines(test.value.stdout.toString('utf8'));
  const want = framemd5Lines(reference.value.stdout.toString('utf8'));
  if (want.length === 0 || got.length !== want.length || got.some((line, i) => line !== want[i])) return false;
  const printed = stderrLines(test.value.stderr);
  if (printed.length === 0) return { ...start, allowed: [] };
  // ffmpeg had something to say: only what it says before the first kept frame (the start's own lead-in: an open
  // GOP's leading frames, references not yet seen) is allowed; a line from inside the window disproves the start.
  const leadIn = await runProcess(ffmpeg, proofDecodeArgs(input, start, validFrame, 1), { signal, timeoutMs: 60_000 });
  const allowed = stderrLines(leadIn.stderr);
  if (printed.some((line) => !allowed.includes(line))) return false;
  return { ...start, allowed };
}

/** A prover for findCleanStart over one input, with a per-call cache the caller may persist. */
export function prover(
  ffmpeg: string,
  input: MediaInput,
  index: SeekIndex,
  fps: number,
  signal?: AbortSignal,
): (seek: number, valid: number) => Promise<CleanStart | false> {
  return (seek, valid) => proveStart(ffmpeg, input, index, seek, valid, fps, signal);
}

/**
 * For each frame of `leads`, the latest proven clean start from which a decode gives that frame and all after it
 * (null: none among the few candidates tried — see candidateProofs). Proofs are looked up in and added to
 * `proofs`, which the caller may store. `fps` null: the index's own rate.
 */
export async function cleanStarts(
  ffmpeg: string,
  input: MediaInput,
  index: PacketIndex,
  leads: readonly number[],
  options: { proofs: ProofCache; fps?: number; signal?: AbortSignal },
): Promise<(CleanStart | null)[]> {
  const seek = seekIndexOf(index);
  const prove = prover(ffmpeg, input, seek, options.fps ?? indexFps(seek), options.signal);
  const starts: (CleanStart | null)[] = [];
  for (const lead of leads) starts.push(await findCleanStart(seek, lead, options.proofs, prove));
  return starts;
}
