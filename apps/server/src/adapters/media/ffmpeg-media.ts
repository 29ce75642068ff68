import { open, stat } from 'node:fs/promises';
import {
  decodeCheckArgs,
  type Media,
  type ProbeOutput,
  parseProbe,
  probeArgs,
  thumbnailArgs,
  UnreadableVideoError,
  type VideoFacts,
} from './media.js';
import { ProcessError, runProcess } from './run-process.js';

/**
 * The last meaningful line of ffmpeg's stderr, for a human-readable reason: without the "[codec @ 0x…]" tag
 * and without the (server-side) file path ffmpeg puts in front of some messages.
 */
export function lastLine(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return (lines.at(-1) ?? '')
    .replace(/^\[[^\]]*\]\s*/, '')
    .replace(/^(?:[A-Za-z]:)?[\\/]\S*:\s*/, '')
    .trim();
}

/** ffprobe/ffmpeg in child processes: the heavy work never runs on the event loop. */
export class FfmpegMedia implements Media {
  constructor(readonly binaries: { ffmpeg: string; ffprobe: string }) {}

  async probe(file: string, signal?: AbortSignal): Promise<VideoFacts> {
    const { size } = await stat(file);
    if (size === 0) throw new UnreadableVideoError('The file is empty.');
    let output: ProbeOutput;
    try {
      const { stdout } = await runProcess(this.binaries.ffprobe, probeArgs(file), { signal, timeoutMs: 120_000 });
      output = JSON.parse(stdout.toString('utf8')) as ProbeOutput;
    } catch (error) {
      if (error instanceof ProcessError && error.exitCode !== null) {
        throw new UnreadableVideoError(describeProbeFailure(error.stderrTail, await readHead(file)));
      }
      throw error;
    }
    const facts = parseProbe(output, size);
    // Headers can look fine over data that is not (a cut-off or damaged file): decode one frame to be sure.
    try {
      await runProcess(this.binaries.ffmpeg, decodeCheckArgs(file), { signal, timeoutMs: 120_000 });
    } catch (error) {
      if (error instanceof ProcessError && error.exitCode !== null) {
        throw new UnreadableVideoError(`The video stream cannot be decoded (${lastLine(error.stderrTail)}).`);
      }
      throw error;
    }
    return facts;
  }

  async thumbnail(input: string, output: string, atSeconds: number, signal?: AbortSignal): Promise<void> {
    await runProcess(this.binaries.ffmpeg, thumbnailArgs(input, output, atSeconds), { signal });
    // A seek past the last decodable frame writes nothing: fall back to the first frame.
    if (!(await stat(output).catch(() => null))?.size) {
      await runProcess(this.binaries.ffmpeg, thumbnailArgs(input, output, 0), { signal });
    }
  }
}

async function readHead(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(12), 0, 12, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** A reason a person can act on: a cut-off MP4/MOV (it starts like one) is told apart from a non-video. */
export function describeProbeFailure(stderr: string, head: Buffer): string {
  const looksLikeMp4 = head.subarray(4, 8).toString('latin1') === 'ftyp';
  if (looksLikeMp4 && /moov atom not found/i.test(stderr)) {
    return 'The video file is incomplete (it was cut off before its end); upload the whole file again.';
  }
  if (/Invalid data found|moov atom not found/i.test(stderr)) return 'The file is not a video that can be read.';
  if (/Invalid data found/i.test(stderr)) return 'The file is not a video ffprobe can read.';
  const line = lastLine(stderr);
  return `The file is not a readable video${line ? ` (${line})` : ''}.`;
}
