/**
 * The processes behind clean decode starts (see clean-start.ts): ffprobe's packet list read as a stream into a
 * SeekIndex, and the proof of a start — two short decodes hashed frame by frame.
 */
import {
  type CleanStart,
  FILE_START,
  framemd5Lines,
  packetListArgs,
  proofDecodeArgs,
  proofWindow,
  readPacketLine,
  type SeekIndex,
  SeekIndexBuilder,
  startAt,
  stderrLines,
} from './clean-start.js';
import type { MediaInput } from './input-policy.js';
import { ProcessError, runProcess, spawnMedia } from './run-process.js';

/**
 * Reads the packet list of the first video stream (no decoding: ffprobe reads the packets' headers, so the cost
 * is one read of the file) into a SeekIndex. Lines are parsed as they arrive; memory stays constant.
 */
export function readSeekIndex(ffprobe: string, input: MediaInput, signal?: AbortSignal): Promise<SeekIndex> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new ProcessError('ffprobe was cancelled', null, ''));
      return;
    }
    let child: ReturnType<typeof spawnMedia>;
    try {
      child = spawnMedia(ffprobe, packetListArgs(input));
    } catch (error) {
      reject(error);
      return;
    }
    const builder = new SeekIndexBuilder();
    let rest = '';
    let stderr = '';
    let cancelled = false;
    const onAbort = () => {
      cancelled = true;
      child.kill('SIGKILL');
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) readPacketLine(builder, line);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4096);
    });
    child.on('error', (error) => reject(new ProcessError(`ffprobe could not start: ${error.message}`, null, '')));
    child.on('close', (code) => {
      signal?.removeEventListener('abort', onAbort);
      if (cancelled) return reject(new ProcessError('ffprobe was cancelled', code, stderr.trim()));
      if (code !== 0) return reject(new ProcessError(`ffprobe exited with code ${code}`, code, stderr.trim()));
      if (rest) readPacketLine(builder, rest);
      resolve(builder.finish());
    });
  });
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
