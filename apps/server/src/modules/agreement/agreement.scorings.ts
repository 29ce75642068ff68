/**
 * A scoring of a video, loaded as what the comparison needs (ADR 010): event times, and ranges when it has them.
 * - run_detected: the run's events at their original (detected) times, every one of them, discarded or not; events
 *   added by hand have no original time and are not part of it;
 * - run_reviewed: the run's events at their current times, discarded ones left out, optionally one label only;
 * - scorer: the run as one user scored it blind (ADR 014), discarded events left out;
 * - track: the annotation track's ranges, and as events their starts;
 * - upload: a list of event times, or of ranges (and as events their starts), sent with the request.
 * A side that names what does not exist, or lies outside the video, is refused with a field error under its name
 * (`reference.analysis_uuid`, `candidate.ranges`…).
 */
import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { analyses, analysisEvents, annotationConfigs } from '../../db/schema.js';
import { isUuid } from '../../lib/access.js';
import { HttpError } from '../../lib/errors.js';
import { timeRangeProblems } from '../../lib/time-ranges.js';
import type { AnalysisRow } from '../analysis/analysis.runs.js';
import { videoEnd } from '../annotations/annotation.ranges.js';
import { scoredEvents, scorersOf } from '../scorers/scorer.view.js';
import type { VideoRow } from '../videos/video.lookup.js';
import type { ScoringInput, scoringSummarySchema } from './agreement.schemas.js';
import type { ScoringData } from './engine/tasks.js';

export type ScoringSide = 'reference' | 'candidate';
type ScoringSummary = z.infer<typeof scoringSummarySchema>;

export interface LoadedScoring {
  data: ScoringData;
  summary: ScoringSummary;
  /** Set for run scorings: the run itself. */
  run: AnalysisRow | null;
}

/** A field error of one side; several are merged into one answer by `loadScorings`. */
class SideError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const RUN_KIND_NAMES: Record<AnalysisRow['kind'], string> = {
  movement_detection: 'Movement detection',
  event_detection: 'Event detection',
  timeseries_import: 'Time series import',
  location_tracking: 'Location tracking',
  pose_series: 'Pose-derived series',
};

const when = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

async function runOfVideo(context: AppContext, video: VideoRow, uuid: string): Promise<AnalysisRow> {
  const [run] = isUuid(uuid)
    ? await context.db
        .select()
        .from(analyses)
        .where(and(eq(analyses.analysisUuid, uuid), eq(analyses.videoUuid, video.videoUuid)))
        .limit(1)
    : [];
  if (!run) throw new SideError('analysis_uuid', 'No run of this video has that id.');
  if (run.status !== 'succeeded')
    throw new SideError('analysis_uuid', 'That run has not succeeded, so it has no events.');
  return run;
}

async function runScoring(context: AppContext, video: VideoRow, input: ScoringInput): Promise<LoadedScoring> {
  const run = await runOfVideo(context, video, input.analysis_uuid!);
  const rows = await context.db
    .select({
      time: analysisEvents.time,
      originalTime: analysisEvents.originalTime,
      label: analysisEvents.label,
      discarded: analysisEvents.discarded,
    })
    .from(analysisEvents)
    .where(eq(analysisEvents.analysisUuid, run.analysisUuid))
    .orderBy(asc(analysisEvents.time), asc(analysisEvents.id));
  const label = input.label ?? null;
  let times: number[];
  if (input.kind === 'run_detected') {
    times = rows.flatMap((row) => (row.originalTime === null ? [] : [row.originalTime]));
  } else {
    if (label !== null && !rows.some((row) => row.label === label)) {
      throw new SideError('label', `No event of this run has the label "${label}".`);
    }
    times = rows.flatMap((row) => (row.discarded || (label !== null && row.label !== label) ? [] : [row.time]));
  }
  const how =
    input.kind === 'run_detected' ? 'events as detected' : `events as reviewed${label ? ` (label "${label}")` : ''}`;
  return {
    data: { events: Float64Array.from(times).sort(), ranges: null },
    summary: {
      kind: input.kind,
      description: `${RUN_KIND_NAMES[run.kind]} of ${when(run.createdAt)}, ${how}`,
      analysis_uuid: run.analysisUuid,
      annotation_config_uuid: null,
      label,
      events: times.length,
      ranges: null,
    },
    run,
  };
}

async function scorerScoring(context: AppContext, video: VideoRow, input: ScoringInput): Promise<LoadedScoring> {
  const run = await runOfVideo(context, video, input.analysis_uuid!);
  const scorer = (await scorersOf(context.db, run.analysisUuid)).find((s) => s.userId === input.user_id);
  if (!scorer) throw new SideError('user_id', 'That user is not scoring this run on their own.');
  const events = await scoredEvents(context.db, run.analysisUuid, scorer.userId);
  const times = events.flatMap((event) => (event.discarded ? [] : [event.time]));
  return {
    data: { events: Float64Array.from(times).sort(), ranges: null },
    summary: {
      kind: 'scorer',
      description: `${RUN_KIND_NAMES[run.kind]} of ${when(run.createdAt)}, events as scored blind by ${scorer.name}`,
      analysis_uuid: run.analysisUuid,
      annotation_config_uuid: null,
      label: null,
      events: times.length,
      ranges: null,
    },
    run,
  };
}

async function trackScoring(context: AppContext, video: VideoRow, uuid: string): Promise<LoadedScoring> {
  const [track] = isUuid(uuid)
    ? await context.db
        .select({
          uuid: annotationConfigs.annotationConfigUuid,
          name: annotationConfigs.name,
          ranges: annotationConfigs.ranges,
        })
        .from(annotationConfigs)
        .where(and(eq(annotationConfigs.annotationConfigUuid, uuid), eq(annotationConfigs.videoUuid, video.videoUuid)))
        .limit(1)
    : [];
  if (!track) throw new SideError('annotation_config_uuid', 'No annotation track of this video has that id.');
  const ranges = track.ranges;
  return {
    data: { events: Float64Array.from(ranges, ([start]) => start), ranges },
    summary: {
      kind: 'track',
      description: `Annotation track "${track.name}"`,
      analysis_uuid: null,
      annotation_config_uuid: track.uuid,
      label: null,
      events: ranges.length,
      ranges: ranges.length,
    },
    run: null,
  };
}

function uploadScoring(video: VideoRow, input: ScoringInput): LoadedScoring {
  const end = videoEnd(video);
  const base = { kind: 'upload' as const, analysis_uuid: null, annotation_config_uuid: null, label: null };
  if (input.ranges) {
    const problems = timeRangeProblems(input.ranges, end);
    if (problems.length > 0) throw new SideError('ranges', problems.join(' '));
    return {
      data: { events: Float64Array.from(input.ranges, ([start]) => start), ranges: input.ranges },
      summary: {
        ...base,
        description: `Uploaded ranges (${input.ranges.length})`,
        events: input.ranges.length,
        ranges: input.ranges.length,
      },
      run: null,
    };
  }
  const events = input.events ?? [];
  if (end !== undefined) {
    const late = events.findIndex((time) => time > end);
    if (late !== -1) {
      throw new SideError('events', `Event ${late + 1} (${events[late]} s) is after the end of the video (${end} s).`);
    }
  }
  return {
    data: { events: Float64Array.from(events).sort(), ranges: null },
    summary: { ...base, description: `Uploaded events (${events.length})`, events: events.length, ranges: null },
    run: null,
  };
}

async function loadScoring(context: AppContext, video: VideoRow, input: ScoringInput): Promise<LoadedScoring> {
  switch (input.kind) {
    case 'run_detected':
    case 'run_reviewed':
      return runScoring(context, video, input);
    case 'scorer':
      return scorerScoring(context, video, input);
    case 'track':
      return trackScoring(context, video, input.annotation_config_uuid!);
    case 'upload':
      return uploadScoring(video, input);
  }
}

/**
 * Loads the named sides together; every side's problem is reported in one answer (400, field → messages).
 */
export async function loadScorings<Sides extends Partial<Record<ScoringSide, ScoringInput>>>(
  context: AppContext,
  video: VideoRow,
  sides: Sides,
): Promise<{ [Side in keyof Sides]: LoadedScoring }> {
  const entries = Object.entries(sides) as [ScoringSide, ScoringInput][];
  const settled = await Promise.allSettled(entries.map(([, input]) => loadScoring(context, video, input)));
  const errors: Record<string, string[]> = {};
  const loaded: Partial<Record<ScoringSide, LoadedScoring>> = {};
  settled.forEach((outcome, index) => {
    const side = entries[index]![0];
    if (outcome.status === 'fulfilled') loaded[side] = outcome.value;
    else if (outcome.reason instanceof SideError) errors[`${side}.${outcome.reason.field}`] = [outcome.reason.message];
    else throw outcome.reason;
  });
  if (Object.keys(errors).length > 0) throw new HttpError(400, errors);
  return loaded as { [Side in keyof Sides]: LoadedScoring };
}
