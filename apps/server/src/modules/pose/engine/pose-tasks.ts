/** The pose worker's one task: read an uploaded file, lay it over the video, write the stored file. */
import type { PoseFormat } from './pose-data.js';

export interface PoseImportTask {
  /** The uploaded file, on local disk. */
  path: string;
  /** Where the stored form (pose-file.ts) is written. */
  outPath: string;
  videoFrames: number;
  frameOffset: number | null;
  /** The text of DeepLabCut's config.yaml sent with the file (its `skeleton` gives the edges); null: none. */
  config: string | null;
}

export interface PoseSetMeta {
  format: PoseFormat;
  scorer: string | null;
  individuals: string[];
  bodyparts: string[];
  keypoints: [number, number][];
  edges: [string, string][];
  hasLikelihood: boolean;
  /** Frames of a file that covers consecutive frames; null for one of chosen frames (labelled images, SLEAP CSV). */
  fileFrames: number | null;
  /** How many frames a file of chosen frames names. */
  labelledFrames: number | null;
  frameCount: number;
  sizeBytes: number;
}

export type PoseImportResult =
  | { ok: true; meta: PoseSetMeta }
  | { ok: false; field: 'file' | 'frame_offset' | 'config'; message: string };
