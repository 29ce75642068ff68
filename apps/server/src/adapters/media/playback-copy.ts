import { writeFile } from 'node:fs/promises';
import { type MediaInput, ownMp4 } from './input-policy.js';
import { type CopyPiece, concatList, countFramesArgs, joinArgs, pieceArgs, reportsDecodeErrors } from './playback.js';
import { lastLine, lineReader, runProcess } from './run-process.js';

type Binaries = { ffmpeg: string; ffprobe: string };

/** Frames (packets) of the first video stream of a file, counted without decoding. */
export async function countFrames(binaries: Binaries, file: MediaInput, signal?: AbortSignal): Promise<number> {
  const { stdout } = await runProcess(binaries.ffprobe, countFramesArgs(file), { signal, timeoutMs: 600_000 });
  const count = Number.parseInt(stdout.toString('utf8').trim(), 10);
  return Number.isFinite(count) ? count : 0;
}

/** A piece that came out wrong even when decoded from the start of the file: retrying cannot help. */
export class PieceMismatchError extends Error {}

/**
 * Encodes one piece. It first decodes from the piece's keyframe; when the decoder reports errors there (a
 * keyframe that is not a clean start) or the piece has the wrong number of frames, it decodes again from the
 * start of the file and drops the frames before the piece — slower, but exact. `onFrames` gets the frames
 * encoded so far.
 */
export async function encodePiece(
  binaries: Binaries,
  input: MediaInput,
  output: string,
  piece: CopyPiece,
  options: { signal?: AbortSignal; threads?: number; onFrames?: (frames: number) => void; warn?: (m: string) => void },
): Promise<{ fromStart: boolean }> {
  const expected = piece.endFrame - piece.startFrame;
  const attempt = async (seekS: number | null) => {
    const reader = lineReader((line) => {
      const match = /^frame=(\d+)/.exec(line);
      if (match) options.onFrames?.(Number(match[1]));
    });
    const { stderr } = await runProcess(
      binaries.ffmpeg,
      pieceArgs(input, output, { ...piece, seekS }, { threads: options.threads }),
      { signal: options.signal, onStdout: (chunk) => reader.push(chunk) },
    );
    reader.end();
    return { stderr, frames: await countFrames(binaries, ownMp4(output), options.signal) };
  };
  if (piece.startFrame > 0) {
    const seeked = await attempt(piece.seekS);
    if (!reportsDecodeErrors(seeked.stderr) && seeked.frames === expected) return { fromStart: false };
    options.warn?.(
      `piece ${piece.index}: decoding from its keyframe gave ${seeked.frames}/${expected} frames` +
        `${reportsDecodeErrors(seeked.stderr) ? ` and errors (${lastLine(seeked.stderr)})` : ''}; decoding from the start`,
    );
  }
  const whole = await attempt(null);
  if (whole.frames !== expected) {
    throw new PieceMismatchError(
      `Piece ${piece.index + 1} of the playable copy has ${whole.frames} frames instead of ${expected}.`,
    );
  }
  if (reportsDecodeErrors(whole.stderr))
    options.warn?.(`piece ${piece.index}: ffmpeg reported ${lastLine(whole.stderr)}`);
  return { fromStart: true };
}

/** Joins the pieces (in order) without re-encoding; each starts where the next one's time begins. */
export async function joinPieces(
  binaries: Binaries,
  pieces: { file: string; durationS: number | null }[],
  listFile: string,
  output: string,
  signal?: AbortSignal,
): Promise<void> {
  await writeFile(listFile, concatList(pieces));
  await runProcess(binaries.ffmpeg, joinArgs(listFile, output), { signal });
}
