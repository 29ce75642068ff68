/**
 * A location-tracking run's jumps as a list (ADR 026): the frames where the position moved more than a body length
 * since the previous tracked frame, from the stored positions and the threshold the run recorded. Paginated as
 * every list is (ADR 002); `ordering=-distance_px` puts the longest first.
 */
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { badRequest } from '../../lib/errors.js';
import { listQuerySchema, parseOrdering, toPage } from '../../lib/pagination.js';
import type { VideoRow } from '../videos/video.lookup.js';
import { findRunOfVideo } from './analysis.read.js';
import type { RunSource } from './analysis.runs.js';
import { findJumps, type Jump, type JumpThreshold } from './engine/location/jumps.js';
import { runJumpThreshold } from './location.join.js';
import type { LocationParameters } from './location.schemas.js';
import { readTrack } from './location.tracking.js';

export const jumpsQuery = listQuerySchema.pick({ page: true, page_size: true, ordering: true });

export const jumpSchema = z.object({
  frame: z.int().meta({ description: 'The frame whose position jumped' }),
  from_frame: z.int().meta({
    description: 'The tracked frame it moved from (frame − 1 unless frames without a position lie between)',
  }),
  time_s: z.number().meta({ description: 'frame / fps' }),
  distance_px: z.number().meta({ description: 'Straight distance from from_frame’s position, in pixels' }),
});

const ORDERINGS = ['frame', 'distance_px'] as const;

export async function listJumps(
  context: AppContext,
  video: VideoRow,
  analysisUuid: string,
  query: z.output<typeof jumpsQuery>,
  requestUrl: string,
) {
  const order = parseOrdering(query.ordering, ORDERINGS, 'frame');
  const run = await findRunOfVideo(context, video, analysisUuid);
  if (run.kind !== 'location_tracking') throw badRequest('Only a location-tracking run has jumps.');
  if (run.status !== 'succeeded' || !run.seriesKey) throw badRequest('This run has not succeeded, so it has no jumps.');
  const source = run.source as RunSource;
  const parameters = run.parameters as LocationParameters;
  const stored = (run.summary as { location?: { jumps?: JumpThreshold } } | null)?.location?.jumps;
  const threshold = stored?.threshold_px ?? runJumpThreshold(run, null).threshold_px;
  const { x, y } = await readTrack(context, run.seriesKey);
  const jumps = findJumps(x, y, source.fps, threshold, parameters.bypass_ranges ?? []);
  const sign = order.descending ? -1 : 1;
  if (order.field === 'distance_px') {
    jumps.sort((a, b) => sign * (a.distance_px - b.distance_px) || a.frame - b.frame);
  } else if (order.descending) jumps.reverse();
  const start = (query.page - 1) * query.page_size;
  const results: Jump[] = jumps.slice(start, start + query.page_size);
  return toPage(requestUrl, context.config.publicUrl, { ...query }, jumps.length, results);
}
