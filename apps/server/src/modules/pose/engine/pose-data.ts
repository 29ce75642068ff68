/**
 * What every reader of a pose file answers (one shape for DeepLabCut and SLEAP, CSV and HDF5), and the rules that lay
 * it over a video's frames. Readers throw `PoseFileError` naming the request field and what did not fit.
 */
import { CHANNELS, type PoseColumns } from '../pose-file.js';

export const poseFormats = ['dlc_csv', 'dlc_h5', 'sleap_h5', 'sleap_csv'] as const;
export type PoseFormat = (typeof poseFormats)[number];

/** The individual of a single-animal file, and DeepLabCut's own name for the unique body parts of a multi-animal one. */
export const SINGLE = 'single';

export class PoseFileError extends Error {
  override readonly name = 'PoseFileError';
  constructor(
    readonly field: 'file' | 'frame_offset' | 'config',
    message: string,
  ) {
    super(message);
  }
}

export const fileError = (message: string) => new PoseFileError('file', message);

export interface ParsedPose {
  format: PoseFormat;
  scorer: string | null;
  individuals: string[];
  bodyparts: string[];
  /** (individual, body part) index pairs, in the file's column order. */
  keypoints: [number, number][];
  edges: [string, string][];
  hasLikelihood: boolean;
  rows: number;
  /** The frame of each row; null when row i is frame i for every row (a file of the whole video). */
  rowFrames: Int32Array | null;
  /** values[k * 3 + c][row]: keypoint k's x (c = 0), y (1), likelihood (2); NaN when missing. */
  values: Float32Array[];
}

/** The keypoints of a file as they are met, each (individual, body part) once. */
export class KeypointIndex {
  readonly individuals: string[] = [];
  readonly bodyparts: string[] = [];
  readonly keypoints: [number, number][] = [];
  private readonly byName = new Map<string, number>();

  /** The keypoint's index, added when new. */
  index(individual: string, bodypart: string): number {
    const key = JSON.stringify([individual, bodypart]);
    const known = this.byName.get(key);
    if (known !== undefined) return known;
    let i = this.individuals.indexOf(individual);
    if (i < 0) i = this.individuals.push(individual) - 1;
    let b = this.bodyparts.indexOf(bodypart);
    if (b < 0) b = this.bodyparts.push(bodypart) - 1;
    this.byName.set(key, this.keypoints.length);
    return this.keypoints.push([i, b]) - 1;
  }

  get size(): number {
    return this.keypoints.length;
  }
}

/** Columns of NaN: keypoints × 3 channels × rows. */
export function emptyValues(keypointCount: number, rows: number): Float32Array[] {
  return Array.from({ length: keypointCount * CHANNELS }, () => new Float32Array(rows).fill(Number.NaN));
}

/** Row frames that are exactly 0, 1, …, rows − 1 become null (the file covers frames from the first on). */
export function denseOrSparse(frames: Int32Array): Int32Array | null {
  for (let i = 0; i < frames.length; i++) if (frames[i] !== i) return frames;
  return null;
}

/**
 * Lays the file over the video's frames. A file of every frame (DeepLabCut predictions, SLEAP's analysis HDF5) must
 * have the video's frame count, or fit in it from `frameOffset`; a file of some frames (hand-labelled images, SLEAP's
 * CSV, which leaves out frames with no instance) must name frames inside the video (from `frameOffset`, default 0).
 */
export function placeOnVideo(parsed: ParsedPose, videoFrames: number, frameOffset: number | null): PoseColumns {
  const keypointCount = parsed.keypoints.length;
  const values = emptyValues(keypointCount, videoFrames);
  if (parsed.rowFrames === null) {
    const offset = frameOffset ?? 0;
    if (frameOffset === null && parsed.rows !== videoFrames) {
      throw fileError(
        `The file has ${parsed.rows} frames and the video ${videoFrames}: give frame_offset when the file covers only part of the video.`,
      );
    }
    if (offset + parsed.rows > videoFrames) {
      throw new PoseFileError(
        'frame_offset',
        `From frame ${offset}, the file's ${parsed.rows} frames run past the video's last frame (${videoFrames - 1}).`,
      );
    }
    for (let s = 0; s < values.length; s++) values[s]!.set(parsed.values[s]!.subarray(0, parsed.rows), offset);
    return { frameCount: videoFrames, keypointCount, values };
  }
  const offset = frameOffset ?? 0;
  const frames = parsed.rowFrames;
  const seen = new Uint8Array(videoFrames);
  for (let row = 0; row < parsed.rows; row++) {
    const frame = frames[row]! + offset;
    if (frame < 0 || frame >= videoFrames) {
      throw (frameOffset === null ? fileError : (m: string) => new PoseFileError('frame_offset', m))(
        `Frame ${frames[row]} of the file${offset ? ` (video frame ${frame} from frame_offset ${offset})` : ''} is outside the video's frames 0–${videoFrames - 1}.`,
      );
    }
    if (seen[frame]) throw fileError(`Frame ${frames[row]} appears twice in the file.`);
    seen[frame] = 1;
    for (let s = 0; s < values.length; s++) values[s]![frame] = parsed.values[s]![row]!;
  }
  return { frameCount: videoFrames, keypointCount, values };
}

/** A cell as a number: empty and NaN are missing; anything else that is not a number is an error. */
export function cellNumber(cell: string, where: () => string): number {
  if (cell === '' || cell === 'nan' || cell === 'NaN') return Number.NaN;
  const value = Number(cell);
  if (Number.isNaN(value) || cell.trim() === '') throw fileError(`${where()}: "${cell.slice(0, 40)}" is not a number.`);
  return value;
}

/** Splits one CSV line (RFC 4180 quotes); plain lines take the fast path. */
export function csvCells(line: string): string[] {
  if (!line.includes('"')) return line.split(',');
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      cells.push(cell);
      cell = '';
    } else cell += char;
  }
  cells.push(cell);
  return cells;
}

/** The lines of a text file (LF or CRLF), trailing empty lines left out. */
export function textLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  return lines;
}
