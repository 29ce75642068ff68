/**
 * How a run's series is named, the same on every page (ADR 037): a chart's axis in the Movement Detector's result,
 * Quick Score's trace, the Pose page, Analysis Logs, a rule's name in the Annotator. A run with values of its own is
 * named by its kind (a pose series by its measure, body parts and unit); an event detection reads its source's series,
 * which its answer describes (`source_series`), so no page looks the source up.
 */
import type { AnalysisRun } from './api';

/** A body part of a pose series with its individual (null: a run that named none, as a set with one individual). */
export interface PosePart {
  individual: string | null;
  part: string;
}

/** A pose series' body parts in order, each with its individual: a bare name belongs to the run's `individual`. */
export function posePartsOf(parameters: Record<string, unknown>): PosePart[] {
  const individual = typeof parameters.individual === 'string' ? parameters.individual : null;
  if (!Array.isArray(parameters.parts)) return [];
  return parameters.parts.map((entry): PosePart => {
    if (typeof entry === 'object' && entry !== null) {
      const named = entry as { individual?: unknown; part?: unknown };
      return { individual: typeof named.individual === 'string' ? named.individual : null, part: String(named.part) };
    }
    return { individual, part: String(entry) };
  });
}

/** "mouse1 · nose": a body part with its individual, as the Pose page's builder offers it. */
export const partLabel = (part: PosePart) => (part.individual ? `${part.individual} · ${part.part}` : part.part);

/** The individual all the parts share (null: none named, or parts of several). */
function commonIndividual(parts: readonly PosePart[]): string | null | undefined {
  const owners = new Set(parts.map((part) => part.individual));
  return owners.size <= 1 ? ([...owners][0] ?? null) : undefined;
}

/**
 * A pose series' body parts in words: "nose, tail_base (mouse2)" when they share an individual (a single-animal
 * set's `single` is not said), "mouse1 · nose, single · object" when they do not.
 */
export function posePartsText(parts: readonly PosePart[]): string {
  const owner = commonIndividual(parts);
  if (owner === undefined) return parts.map(partLabel).join(', ');
  const names = parts.map((part) => part.part).join(', ');
  return owner && owner !== 'single' ? `${names} (${owner})` : names;
}

/**
 * A pose series as people say it. Parts of one individual: "Speed of nose", "Distance nose–tail_base (mouse2)",
 * "Angle at neck (nose–neck–tail)" (a single-animal set's `single` is not said). Parts of different individuals name
 * each one's: "Distance mouse1 · nose–single · object".
 */
export function poseSeriesName(measure: unknown, parts: readonly PosePart[]): string {
  const owner = commonIndividual(parts);
  const one = owner !== undefined;
  const suffix = owner && owner !== 'single' ? ` (${owner})` : '';
  const names = parts.map((part) => (one ? part.part : partLabel(part)));
  if (measure === 'speed') return `Speed of ${names[0] ?? '?'}${suffix}`;
  if (measure === 'distance') return `Distance ${names.join('–')}${suffix}`;
  if (measure === 'angle') return `Angle at ${names[1] ?? '?'} (${names.join('–')})${suffix}`;
  return 'Pose series';
}

/** A pose series run's name from its parameters. */
export const seriesName = (parameters: Record<string, unknown>) =>
  poseSeriesName(parameters.measure, posePartsOf(parameters));

/** The unit of a pose series' values: the run's own summary says it once computed; else its measure and scale. */
export function seriesUnit(run: Pick<AnalysisRun, 'parameters' | 'summary'>): string {
  const stored = run.summary?.pose_series?.unit;
  if (stored) return stored;
  const scale = run.parameters.scale as { unit?: string } | null | undefined;
  if (run.parameters.measure === 'angle') return 'degrees';
  if (run.parameters.measure === 'speed') return `${scale?.unit ?? 'px'}/s`;
  return scale?.unit ?? 'px';
}

type SourceSeries = NonNullable<AnalysisRun['source_series']>;

/** What the values of a series made by a run of `kind` are. */
function kindLabel(kind: AnalysisRun['kind']): string {
  if (kind === 'movement_detection') return 'changed pixels';
  if (kind === 'location_tracking') return 'position';
  return 'value';
}

/** The series an event detection reads, named from its answer's `source_series`. */
function sourceLabel(source: SourceSeries | null | undefined): string {
  if (!source) return 'value';
  if (source.pose) return `${poseSeriesName(source.pose.measure, source.pose.parts)} (${source.pose.unit})`;
  return kindLabel(source.kind);
}

/**
 * What a run's chart plots, for its axis and its title: "changed pixels" for a movement run (and a detection on one),
 * "Distance mouse1 · nose–single · object (cm)" for a pose series (and a detection on one), "value" for an import.
 */
export function seriesLabel(run: Pick<AnalysisRun, 'kind' | 'parameters' | 'summary' | 'source_series'>): string {
  if (run.kind === 'pose_series') return `${seriesName(run.parameters)} (${seriesUnit(run)})`;
  if (run.kind === 'event_detection') return sourceLabel(run.source_series);
  return kindLabel(run.kind);
}

/** Whether a run's series counts changed pixels (a movement run's, or a detection's on one). */
export const countsChangedPixels = (run: Pick<AnalysisRun, 'kind' | 'source_series'>) =>
  run.kind === 'movement_detection' ||
  (run.kind === 'event_detection' && run.source_series?.kind === 'movement_detection');

/** Whether a run's series is a pose-derived series (the Pose page shows it and the detections on it). */
export const readsPoseSeries = (run: Pick<AnalysisRun, 'kind' | 'source_series'>) =>
  run.kind === 'pose_series' || (run.kind === 'event_detection' && run.source_series?.kind === 'pose_series');
