/**
 * The messages between the server and an analysis worker thread. Each worker runs one task and exits; the
 * server side is `worker-client.ts`, the thread side `analysis.worker.ts`.
 */
import type { EventDetectionParameters, Series } from './events.js';
import type { FreezingParameters, FreezingSummary } from './freezing.js';
import type { FigureFormat, FigureInput } from './location/figure.js';
import type { LocationSummary, LocationSummaryInput } from './location/summary.js';
import type { FramePick, TrackRangeTask } from './location/track-range.js';
import type { TrackerHandoff } from './location/tracker.js';
import type { FrameRangeTask } from './movement.js';
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
}

/** The run's reference: the per-pixel median of the picked frames, each decoded from a clean start. */
export interface LocationReferenceTask {
  kind: 'location-reference';
  ffmpeg: string;
  source: TrackRangeTask['source'];
  picks: FramePick[];
  threads?: number;
  /** The run's tracker settings and exclusions: body_core checks whether the reference holds the animal. */
  tracker: Pick<TrackerSpec, 'parameters' | 'exclusions'>;
  /** False for a reference the user chose (an empty-arena video, chosen frames): it is used as it is. */
  check: boolean;
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

/** A run's figure (track or heat map) drawn as PNG or SVG. */
export interface LocationFigureTask {
  kind: 'location-figure';
  input: FigureInput;
  format: FigureFormat;
  /** The SVG's title. */
  title: string;
}

export type WorkerTask =
  | ({ kind: 'frames' } & FrameRangeTask)
  | DetectTask
  | ImportTask
  | ({ kind: 'preview' } & PreviewTask)
  | LocationTask
  | LocationReferenceTask
  | LocationPreviewTask
  | LocationSummaryTask
  | LocationFigureTask;

export interface TaskResults {
  frames: { values: Float64Array };
  detect: DetectResult;
  import: ImportResult;
  preview: PreviewResult;
  /** `entry`: the tracker's state just before the first frame (after the warm-up, if any). */
  location: { x: Float64Array; y: Float64Array; handoff: TrackerHandoff; entry: TrackerHandoff };
  /** `notes`: what the run's summary says about the reference (it held the animal, and was repaired or not). */
  'location-reference': { reference: Float32Array; notes: string[] };
  'location-summary': LocationSummary;
  'location-figure': { bytes: Uint8Array };
  'location-preview': LocationPreviewResult;
}

/** Thread → server. */
export type WorkerMessage =
  | { type: 'progress'; framesDone: number }
  | { type: 'spawned'; pid: number }
  | { type: 'done'; result: unknown }
  | { type: 'failed'; message: string; exitCode: number | null; stderrTail: string; name: string };
