/**
 * An Annotator track filled from a rule on a run's series (ADR 037): "the nose within 2 cm of the object" is the bouts
 * where a pose-derived distance is below 2 (annotation.rule.ts defines them). The bouts go into a new track, or into
 * one of the video's tracks — replacing its bouts, or added to them — under the track's version like any change, so
 * they are then corrected by hand as any bout and export like any bouts. The series is one pass over at most a few
 * megabytes (an hour at 30 fps: 108,000 values), read and computed on the request.
 */
import type { AppContext } from '../../context.js';
import { badRequest, HttpError } from '../../lib/errors.js';
import type { TimeRange } from '../../lib/time-ranges.js';
import { findRunOfVideo } from '../analysis/analysis.read.js';
import { readFloat64 } from '../analysis/analysis.results.js';
import type { RunSource } from '../analysis/analysis.runs.js';
import type { VideoRow } from '../videos/video.lookup.js';
import { videoEnd } from './annotation.ranges.js';
import { boutsFromSeries, unionRanges } from './annotation.rule.js';
import type { FillFromSeriesBody } from './annotation.schemas.js';
import { createConfig, getConfig, rewriteRanges } from './annotation.service.js';

const SOURCE = 'source_analysis_uuid';

/** The run's series as one value per video frame, or 400 on `source_analysis_uuid` saying why it has none. */
async function seriesOfRun(context: AppContext, video: VideoRow, analysisUuid: string) {
  const run = await findRunOfVideo(context, video, analysisUuid).catch(() => undefined);
  if (!run) throw badRequest({ [SOURCE]: ['No run of this video has that id.'] });
  if (run.kind === 'location_tracking') {
    throw badRequest({
      [SOURCE]: [
        'That run holds positions (x and y), not one value per frame: derive a series (a pose distance) instead.',
      ],
    });
  }
  if (run.status !== 'succeeded' || !run.seriesKey) {
    throw badRequest({ [SOURCE]: ['That run has no series yet: pick a run that has succeeded.'] });
  }
  if (run.timesKey) {
    throw badRequest({ [SOURCE]: ['That series has times of its own; the rule reads one value per video frame.'] });
  }
  return { values: await readFloat64(context, run.seriesKey), fps: (run.source as RunSource).fps };
}

/** Bouts cut at the video's end (an imported series may run past it); what starts after it is left out. */
function withinVideo(bouts: TimeRange[], end: number | undefined): TimeRange[] {
  if (end === undefined) return bouts;
  return bouts.filter(([start]) => start < end).map(([start, stop]) => [start, Math.min(stop, end)]);
}

export async function fillTrackFromSeries(
  context: AppContext,
  video: VideoRow,
  userId: number,
  body: FillFromSeriesBody,
) {
  const { values, fps } = await seriesOfRun(context, video, body.source_analysis_uuid);
  const bouts = withinVideo(boutsFromSeries(values, fps, body), videoEnd(video));
  if (body.annotation_config_uuid === undefined) {
    const track = await createConfig(context, video, userId, { name: body.name!, color: body.color }, bouts);
    return { created: true, answer: { track, ranges: bouts, version: track.version, bouts: bouts.length } };
  }
  const uuid = body.annotation_config_uuid;
  const written = await rewriteRanges(context, video, uuid, body.version!, (current) =>
    body.mode === 'merge' ? unionRanges(current, bouts) : bouts,
  ).catch((error: unknown) => {
    if (error instanceof HttpError && error.status === 404) {
      throw badRequest({ annotation_config_uuid: ['No track of this video has that id.'] });
    }
    throw error;
  });
  const track = await getConfig(context, video, uuid);
  return { created: false, answer: { track, ranges: written.ranges, version: written.version, bouts: bouts.length } };
}
