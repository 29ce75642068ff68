/**
 * What ffmpeg and ffprobe may open (issue 19, ADR 013). Every upload is hostile until proven otherwise: left to
 * itself, ffmpeg picks the demuxer from the content, and an HLS playlist or a concat script named `.mp4` makes
 * it read files of other projects (or URLs). So every input of every process is opened with
 *   -protocol_whitelist file            no network, no pipes, no nested protocols (crypto:, subfile:, concat:…)
 *   -format_whitelist <VIDEO_DEMUXERS>   only real video containers — no hls, concat, image2, *_pipe, tty…
 * and, once a file has been probed, `-f <its demuxer>`: later commands never guess again. `-protocol_whitelist`
 * alone does not stop a playlist (its segments are plain local paths); the demuxer list does.
 *
 * `runProcess` (run-process.ts), the one place that starts ffmpeg/ffprobe, refuses any argument list whose
 * inputs lack these options, so no caller can forget them.
 */

/**
 * The demuxers of the containers labs record in (VIDEO_EXTENSIONS): MP4/MOV/3GP/M4V (mov), MKV/WebM (matroska),
 * AVI, WMV/ASF, MPEG-TS/MTS/M2TS, MPEG-PS (mpeg), FLV and Ogg. None of them opens another file: the mov demuxer
 * would follow external data references only with `enable_drefs`, which stays off.
 */
export const VIDEO_DEMUXERS = ['mov', 'matroska', 'avi', 'asf', 'mpegts', 'mpeg', 'flv', 'ogg'] as const;
export type VideoDemuxer = (typeof VIDEO_DEMUXERS)[number];

/**
 * The one other demuxer the app uses: the concat list that joins the playback copy's pieces, a file the app
 * writes itself, naming MP4 pieces the app encoded itself.
 */
const JOIN_DEMUXERS = 'concat,mov';

/** A file to open, with the demuxer to force (null only for the first probe of an upload). */
export interface MediaInput {
  path: string;
  demuxer: VideoDemuxer | null;
}

/**
 * The allowed demuxer of a probed container (ffprobe's format_name, e.g. "mov,mp4,m4a,3gp,3g2,mj2" → "mov"),
 * or null when the container is not one we read.
 */
export function demuxerOf(formatName: string | null | undefined): VideoDemuxer | null {
  const names = (formatName ?? '').split(',').map((name) => name.trim());
  return VIDEO_DEMUXERS.find((demuxer) => names.includes(demuxer)) ?? null;
}

/** A stored file whose recorded container is not one we read (a row from before the allow-list). */
export class RefusedContainerError extends Error {
  override readonly name = 'RefusedContainerError';
}

/** A stored file, opened with the demuxer of the container its upload's probe recorded. */
export function storedInput(path: string, container: string | null | undefined): MediaInput {
  const demuxer = demuxerOf(container);
  // Uploads are probed with the allow-list, so only a row stored before it can get here: never open it.
  if (!demuxer) {
    throw new RefusedContainerError(
      `The file is not a video in a container we accept (it is "${container ?? 'unknown'}"); upload the camera's own video file.`,
    );
  }
  return { path, demuxer };
}

/** An MP4 the app encoded itself (a playback piece or copy). */
export const ownMp4 = (path: string): MediaInput => ({ path, demuxer: 'mov' });

const GUARD = ['-protocol_whitelist', 'file', '-format_whitelist'] as const;

/** The input options and `-i` for one input: local files only, video containers only, the known demuxer forced. */
export function inputArgs(input: MediaInput): string[] {
  return [...GUARD, VIDEO_DEMUXERS.join(','), ...(input.demuxer ? ['-f', input.demuxer] : []), '-i', input.path];
}

/** The input options and `-i` for the app's own concat list of its own MP4 pieces. */
export function joinInputArgs(listFile: string): string[] {
  return [...GUARD, JOIN_DEMUXERS, '-f', 'concat', '-safe', '0', '-i', listFile];
}

/** An argument list with an input that is not opened through inputArgs/joinInputArgs. */
export class UnguardedInputError extends Error {
  override readonly name = 'UnguardedInputError';
}

/**
 * Throws unless every `-i` of an ffmpeg/ffprobe argument list comes right after the guard built above. ffprobe
 * would also take a bare positional input, so for it an `-i` is required (`requireInput`). Checked on every
 * process start, before anything runs.
 */
export function assertGuardedInputs(args: readonly string[], options: { requireInput?: boolean } = {}): void {
  const allowedLists = new Set([VIDEO_DEMUXERS.join(','), JOIN_DEMUXERS]);
  let inputs = 0;
  for (let i = 0; i < args.length; i++) {
    if (args[i] !== '-i') continue;
    inputs++;
    // Walk back over an optional forced format (-f X and, for the join, -safe 0) to the guard.
    let at = i;
    if (args[at - 2] === '-safe') at -= 2;
    if (args[at - 2] === '-f') {
      const forced = args[at - 1] ?? '';
      if (!(VIDEO_DEMUXERS as readonly string[]).includes(forced) && forced !== 'concat') {
        throw new UnguardedInputError(`input ${args[i + 1]} forces a demuxer that is not allowed: ${forced}`);
      }
      if (forced === 'concat' && args[at - 3] !== JOIN_DEMUXERS) {
        throw new UnguardedInputError('a concat input must use the join allow-list');
      }
      at -= 2;
    }
    const list = args[at - 1] ?? '';
    const guarded = GUARD.every((word, k) => args[at - 1 - GUARD.length + k] === word) && allowedLists.has(list);
    if (!guarded) throw new UnguardedInputError(`input ${args[i + 1]} is opened without the format allow-list`);
  }
  // `-version` (and nothing else besides -hide_banner) opens no file.
  const versionOnly = args.includes('-version') && args.every((arg) => arg === '-version' || arg === '-hide_banner');
  if (options.requireInput && inputs !== 1 && !versionOnly) {
    throw new UnguardedInputError('ffprobe must be given exactly one input, with -i and the allow-list');
  }
}
