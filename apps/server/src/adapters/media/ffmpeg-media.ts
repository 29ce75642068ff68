import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { type CleanStart, DecodeErrorReport, FILE_START, judgeDecode, type ProofCache } from './clean-start.js';
import { cleanStarts, readPacketIndex } from './clean-start-ffmpeg.js';
import { demuxerOf, type MediaInput, ownMp4 } from './input-policy.js';
import {
  decodeCheckArgs,
  type EncodePieceOptions,
  type Media,
  type ProbeOutput,
  parseProbe,
  probeArgs,
  thumbnailArgs,
  UnreadableVideoError,
  type VideoFacts,
} from './media.js';
import { type PacketIndex, seekIndexOf } from './packet-index.js';
import type { CopyPiece } from './playback.js';
import { countFrames, encodePiece, joinPieces } from './playback-copy.js';
import { lastLine, ProcessError, runProcess } from './run-process.js';

// Modules name the stderr line of a failure through the port's file.
export { lastLine };

/** A thumbnail without a proven start nearer shows a frame at most this far in, decoded from the file's start. */
export const THUMBNAIL_FALLBACK_S = 10;

/** A thumbnail's decode errors as a ProcessError, so the video's failure names ffmpeg's line. */
function judged(stderr: string, start: CleanStart): void {
  try {
    judgeDecode(stderr, start);
  } catch (error) {
    if (error instanceof DecodeErrorReport) {
      throw new ProcessError('ffmpeg reported a decode error in the thumbnail', 0, error.lines.join('\n'));
    }
    throw error;
  }
}

/** ffprobe/ffmpeg in child processes: the heavy work never runs on the event loop. */
export class FfmpegMedia implements Media {
  constructor(readonly binaries: { ffmpeg: string; ffprobe: string }) {}

  async probe(file: string, signal?: AbortSignal): Promise<VideoFacts> {
    const { size } = await stat(file);
    if (size === 0) throw new UnreadableVideoError('The file is empty.');
    let output: ProbeOutput;
    try {
      // The first look at an upload: ffprobe may only pick one of the allowed demuxers.
      const { stdout } = await runProcess(this.binaries.ffprobe, probeArgs({ path: file, demuxer: null }), {
        signal,
        timeoutMs: 120_000,
      });
      output = JSON.parse(stdout.toString('utf8')) as ProbeOutput;
    } catch (error) {
      if (error instanceof ProcessError && error.exitCode !== null) {
        throw new UnreadableVideoError(describeProbeFailure(error.stderrTail, await readHead(file)));
      }
      throw error;
    }
    const facts = parseProbe(output, size);
    const demuxer = demuxerOf(facts.container);
    // ffprobe was held to the list already; this keeps a container outside it from ever being recorded.
    if (!demuxer) throw new UnreadableVideoError(notAVideoContainer(facts.container));
    // Headers can look fine over data that is not (a cut-off or damaged file): decode one frame to be sure.
    try {
      await runProcess(this.binaries.ffmpeg, decodeCheckArgs({ path: file, demuxer }), { signal, timeoutMs: 120_000 });
    } catch (error) {
      if (error instanceof ProcessError && error.exitCode !== null) {
        throw new UnreadableVideoError(`The video stream cannot be decoded (${lastLine(error.stderrTail)}).`);
      }
      throw error;
    }
    return facts;
  }

  /**
   * The thumbnail shows the frame of a proven clean start near `atSeconds` (the keyframe at or before it, or one
   * or two keyframes earlier), so it is never the broken picture a seek to an unclean keyframe decodes. When no
   * start there is proven, a frame at most THUMBNAIL_FALLBACK_S in, decoded from the file's start. A decode error
   * ffmpeg reports fails the thumbnail (the job retries, then the video fails with the reason).
   */
  async thumbnail(
    input: MediaInput,
    output: string,
    atSeconds: number,
    packets: PacketIndex,
    signal?: AbortSignal,
  ): Promise<{ frame: number }> {
    const index = seekIndexOf(packets);
    const keyframeAt = (seconds: number) =>
      index.keyframes.filter((k) => k.time <= index.startTime + seconds).at(-1)?.frame ?? 0;
    const wanted = keyframeAt(atSeconds);
    let [start] = await cleanStarts(this.binaries.ffmpeg, input, packets, [wanted], { proofs: new Map(), signal });
    let frame = start && start.seekS !== null ? start.frame : wanted;
    if (!start) {
      start = FILE_START;
      frame = keyframeAt(Math.min(atSeconds, THUMBNAIL_FALLBACK_S));
    }
    const { stderr } = await runProcess(this.binaries.ffmpeg, thumbnailArgs(input, output, start, frame), { signal });
    judged(stderr, start);
    // Nothing decodable there (a stream shorter than its index): the first frame.
    if (!(await stat(output).catch(() => null))?.size) {
      const first = await runProcess(this.binaries.ffmpeg, thumbnailArgs(input, output, FILE_START, 0), { signal });
      judged(first.stderr, FILE_START);
      return { frame: 0 };
    }
    return { frame };
  }

  packetIndex(input: MediaInput, signal?: AbortSignal): Promise<PacketIndex> {
    return readPacketIndex(this.binaries.ffprobe, input, signal);
  }

  cleanStarts(
    input: MediaInput,
    index: PacketIndex,
    leads: readonly number[],
    options: { proofs: ProofCache; fps?: number; signal?: AbortSignal },
  ): Promise<(CleanStart | null)[]> {
    return cleanStarts(this.binaries.ffmpeg, input, index, leads, options);
  }

  async encodePiece(input: MediaInput, output: string, piece: CopyPiece, options: EncodePieceOptions): Promise<void> {
    await encodePiece(this.binaries, input, output, piece, options);
  }

  async joinPieces(
    pieces: { file: string; durationS: number | null }[],
    workDir: string,
    output: string,
    signal?: AbortSignal,
  ): Promise<{ frames: number }> {
    await joinPieces(this.binaries, pieces, path.join(workDir, 'pieces.txt'), output, signal);
    return { frames: await countFrames(this.binaries, ownMp4(output), signal) };
  }

  private versionLine: Promise<string> | undefined;

  version(): Promise<string> {
    this.versionLine ??= runProcess(this.binaries.ffmpeg, ['-hide_banner', '-version'], { timeoutMs: 10_000 })
      .then(({ stdout }) => /ffmpeg version (\S+)/.exec(stdout.toString('utf8'))?.[1] ?? 'unknown')
      .catch(() => 'unknown');
    return this.versionLine;
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
  const refused = /\[([\w,]+) @ [^\]]*\] Format not on whitelist/i.exec(stderr);
  if (refused) return notAVideoContainer(refused[1] ?? 'unknown');
  const looksLikeMp4 = head.subarray(4, 8).toString('latin1') === 'ftyp';
  if (looksLikeMp4 && /moov atom not found/i.test(stderr)) {
    return 'The video file is incomplete (it was cut off before its end); upload the whole file again.';
  }
  if (/Invalid data found|moov atom not found/i.test(stderr)) return 'The file is not a video that can be read.';
  if (/Invalid data found/i.test(stderr)) return 'The file is not a video ffprobe can read.';
  const line = lastLine(stderr);
  return `The file is not a readable video${line ? ` (${line})` : ''}.`;
}

/** The message for a file whose format ffprobe recognised but which is not a video container we read. */
function notAVideoContainer(format: string): string {
  return (
    `The file is not a video in a container we accept (it is "${format}"); ` +
    `upload the camera's own video file (${VIDEO_CONTAINER_NAMES}).`
  );
}

const VIDEO_CONTAINER_NAMES = 'MP4, MOV, AVI, MKV, WebM, WMV, MPEG-TS, MPEG, FLV or Ogg';
