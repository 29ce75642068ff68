/**
 * The messages between the server and an analysis worker thread. A thread runs one task at a time and stays for
 * the next; the server side is `worker-client.ts`, the thread side `analysis.worker.ts`.
 */
import type { GroupPlotInput } from '../../../lib/figures/group-plot.js';
import type { EventDetectionParameters, Series } from './events.js';
import type { FreezingParameters, FreezingSummary } from './freezing.js';
import type { FigureFormat, FigureInput } from './location/figure.js';
import type { PosePositionsInput } from './location/pose-positions.js';
import type { LocationSummary, LocationSummaryInput } from './location/summary.js';
import type { FramePick, TrackRangeTask } from './location/track-range.js';
import type { TrackerHandoff } from './location/tracker.js';
import type { FrameRangeTask } from './movement.js';
import type { PoseSeriesInput, PoseSeriesStats } from './pose-measures.js';
import type { PreviewResult, PreviewTask } from './preview.js';

export interface DetectTask {
  kind: 'detect';
  series: Series;
  events: EventDetectionParameters;
  /** Null: no freezing summary. */
  freezing: FreezingParameters | null;
  /** When set, the series is also written there as CSV (`frame,time_s,value`). */
  csvPath: string | null;
}

export interface DetectResult {
  threshold: number;
  noiseTop: number;
  /** Event times in seconds, increasing. */
  eventTimes: Float64Array;
  freezing: FreezingSummary | null;
  validSamples: number;
}

export interface ImportTask {
  kind: 'import';
  /** A local CSV file uploaded by the user. */
  path: string;
}

export type ImportResult =
  | { ok: true; values: Float64Array; times: Float64Array | null }
  | { ok: false; error: string };

/** A polygon in the video's pixels, as a run's parameters give it. */
export type PolygonPoints = readonly (readonly [number, number])[];

/** What the worker needs to make a run's tracker (engine/location/trackers.ts). */
export interface TrackerSpec {
  /** The run's parameters: `algorithm` and that algorithm's settings. */
  parameters: { algorithm: string } & Record<string, unknown>;
  width: number;
  height: number;
  /** The run's reference picture, width × height. */
  reference: Float32Array;
  /** Regions the tracker ignores. */
  exclusions: PolygonPoints[];
  /** The state the piece before left (null for the first piece). */
  handoff: TrackerHandoff | null;
}

/** Positions of a range of frames (a piece of a location-tracking run). */
export interface LocationTask extends TrackRangeTask {
  kind: 'location';
  tracker: TrackerSpec;
  /** Frames of the range whose decoded pictures are hashed, to check the reference's own copies (ADR 029). */
  verifyFrames?: number[];
}

/**
 * How a reference's frames are decoded: the keyframes among all the packet index flags (`wanted`, one pass of
 * keyframes only), or picks, each decoded from its start (`concurrency` at once).
 */
export type ReferenceFramePlan =
  | { mode: 'keyframes'; keyframes: number[]; wanted: number[] }
  | { mode: 'picks'; picks: FramePick[]; concurrency: number };

/**
 * The run's reference: the per-pixel median of a plan's frames. Plans are tried in order: one whose decode the
 * decoder miscounts or reports errors in gives way to the next (ADR 029); the last one's failure is the task's.
 */
export interface LocationReferenceTask {
  kind: 'location-reference';
  ffmpeg: string;
  source: TrackRangeTask['source'];
  plans: ReferenceFramePlan[];
  threads?: number;
  /**
   * The run's tracker settings and exclusions: body_core checks whether the reference holds the animal. Absent for a
   * picture that is no tracker's reference (a pose-sourced run's first frame, ADR 037).
   */
  tracker?: Pick<TrackerSpec, 'parameters' | 'exclusions'>;
  /** False for a reference the user chose (an empty-arena video, chosen frames): it is used as it is. */
  check: boolean;
}

/** A reference with the frames it is the median of and each one's hash (reference.ts `frameHash`). */
export interface LocationReferenceResult {
  reference: Float32Array;
  notes: string[];
  frames: number[];
  hashes: string[];
}

/** What a location preview answers (location/preview-picture.ts). */
export interface LocationPreviewResult {
  /** x[i], y[i]: frame startFrame + i's position, NaN for none. */
  x: Float64Array;
  y: Float64Array;
  /** The last frame of the window as a PNG. */
  png: Uint8Array;
}

/** A preview of a location-tracking run: positions of a short window and a picture of its last frame. */
export interface LocationPreviewTask extends TrackRangeTask {
  kind: 'location-preview';
  tracker: TrackerSpec;
  zones: { name: string; points: PolygonPoints }[];
}

/** A run's figures from its positions; zones as polygons (rasterised in the thread). */
export interface LocationSummaryTask {
  kind: 'location-summary';
  input: Omit<LocationSummaryInput, 'zones'> & { zones: { name: string; points: PolygonPoints }[] };
}

/** A location run whose positions are a pose set's body part (ADR 037): the positions and their summary. */
export interface PoseLocationTask {
  kind: 'pose-location';
  positions: PosePositionsInput;
  summary: Omit<LocationSummaryTask['input'], 'x' | 'y' | 'fps' | 'bypassRanges'>;
}

/** A run's figure (track or heat map) drawn as PNG or SVG. */
export interface LocationFigureTask {
  kind: 'location-figure';
  input: FigureInput;
  format: FigureFormat;
  /** The SVG's title. */
  title: string;
}

/** A batch's plot of one measure by group (ADR 035), drawn as PNG or SVG. */
export interface GroupPlotTask {
  kind: 'group-plot';
  input: GroupPlotInput;
  format: 'png' | 'svg';
}

/** A series derived from a pose set (ADR 032), also written as the series CSV at `csvPath`. */
export interface PoseSeriesTask extends PoseSeriesInput {
  kind: 'pose-series';
  csvPath: string;
}

/**
 * Readies a new thread for a run (worker-client.ts, `warmUpAnalysisThreads`): its bundle loaded, the counting
 * kernel compiled and run on synthetic frames, event detection run once — work a run's first frames would pay.
 */
export interface WarmUpTask {
  kind: 'warm-up';
}

export type WorkerTask =
  | WarmUpTask
  | ({ kind: 'frames' } & FrameRangeTask)
  | DetectTask
  | ImportTask
  | ({ kind: 'preview' } & PreviewTask)
  | LocationTask
  | LocationReferenceTask
  | LocationPreviewTask
  | LocationSummaryTask
  | LocationFigureTask
  | GroupPlotTask
  | PoseSeriesTask
  | PoseLocationTask;

export interface TaskResults {
  'warm-up': { frames: number };
  frames: { values: Float64Array };
  detect: DetectResult;
  import: ImportResult;
  preview: PreviewResult;
  /** `entry`: the tracker's state just before the first frame (after the warm-up, if any). */
  location: {
    x: Float64Array;
    y: Float64Array;
    handoff: TrackerHandoff;
    entry: TrackerHandoff;
    /** [frame, hash] of the task's `verifyFrames` it decoded. */
    checked: [number, string][];
  };
  /** `notes`: what the run's summary says about the reference (it held the animal, and was repaired or not). */
  'location-reference': LocationReferenceResult;
  'location-summary': LocationSummary;
  'location-figure': { bytes: Uint8Array };
  'group-plot': { bytes: Uint8Array };
  'location-preview': LocationPreviewResult;
  'pose-series': { values: Float64Array; stats: PoseSeriesStats };
  'pose-location': { x: Float64Array; y: Float64Array; summary: LocationSummary; stats: PoseSeriesStats };
}

/** Thread → server. */
export type WorkerMessage =
  | { type: 'progress'; framesDone: number }
  | { type: 'spawned'; pid: number }
  | { type: 'done'; result: unknown }
  | { type: 'failed'; message: string; exitCode: number | null; stderrTail: string; name: string };
