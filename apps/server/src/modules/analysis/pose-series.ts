/**
 * `pose_series` runs (ADR 032): a time series derived from a pose set of the video — the speed of a body part, the
 * distance between two, the angle at a joint — stored like any run's series (Float64 per video frame, its CSV), so
 * event detection reads it unchanged. The parameters are checked against the set when the run is made; one
 * `analyses.pose-series` job computes the series in an analysis worker thread. With a `scale` (ADR 037), speed and
 * distance are in its unit instead of pixels.
 */
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { analyses } from '../../db/schema.js';
import { badRequest } from '../../lib/errors.js';
import { analysisKeys } from '../../lib/storage-keys.js';
import type { VideoRow } from '../videos/video.lookup.js';
import { parameterErrors } from './analysis.parameter-errors.js';
import { PermanentRunFailure } from './analysis.results.js';
import type { AnalysisRow, RunSource } from './analysis.runs.js';
import { unitsPerPixel } from './engine/location/summary.js';
import { PARTS_OF_MEASURE, type PoseMeasure, poseMeasures, UNIT_OF_MEASURE } from './engine/pose-measures.js';
import { runTask } from './engine/worker-client.js';
import { scaleLineOutside } from './location.parameters.js';
import { scaleSchema } from './location.schemas.js';
import { likelihoodCutoff, maxGapFrames } from './pose-settings.js';
import {
  NO_SUCH_SET,
  type PoseSetRow,
  poseRunJob,
  poseSetOfVideo,
  readPoseSetBytes,
  resolveParts,
} from './pose-source.js';

/** A body part of the measure: a name (a part of `individual`), or `{individual, part}` (ADR 037). */
const partSchema = z.union(
  [
    z.string(),
    z.strictObject({
      individual: z.string({ error: 'individual must be the name of an individual of the set.' }),
      part: z.string({ error: 'part must be a body part name.' }),
    }),
  ],
  { error: 'Each part is a body part name, or {individual, part}.' },
);

export const poseSeriesParameters = z.strictObject({
  pose_uuid: z.string({ error: 'Name the pose set the series is derived from (pose_uuid).' }),
  measure: z.enum(poseMeasures, { error: `measure must be one of: ${poseMeasures.join(', ')}.` }),
  individual: z.string({ error: 'individual must be the name of an individual of the set.' }).optional(),
  parts: z.array(partSchema, { error: 'parts must be a list of body parts.' }),
  likelihood_cutoff: likelihoodCutoff,
  max_gap_frames: maxGapFrames,
  /** The location tracker's scale line (ADR 026): speed and distance in its unit. */
  scale: scaleSchema.nullable().default(null),
});

/**
 * The parameters as the run keeps them: every default filled in; the individual of the bare part names named (the
 * set's only one when none was), absent when every part names its own. Runs made before ADR 037 have bare names only.
 */
export type PoseSeriesParameters = z.output<typeof poseSeriesParameters>;

const WHAT_PARTS = {
  speed: 'one body part',
  distance: 'two body parts',
  angle: 'three body parts a, b, c (the angle at b)',
};

/** The measure's keypoints (indices into the set's keypoints), or the field errors of what does not fit the set. */
function resolveKeypoints(set: PoseSetRow, parameters: PoseSeriesParameters) {
  return resolveParts(
    set,
    parameters,
    { individual: 'parameters.individual', parts: 'parameters.parts' },
    {
      checkParts: (parts) =>
        parts.length === PARTS_OF_MEASURE[parameters.measure]
          ? null
          : `${parameters.measure} takes ${WHAT_PARTS[parameters.measure]}; ${parts.length} given.`,
      namedParts: true,
    },
  );
}

/** The unit of a run's values: the measure's, or the scale's for speed and distance. */
export function seriesUnit(parameters: Pick<PoseSeriesParameters, 'measure' | 'scale'>): string {
  if (!parameters.scale || parameters.measure === 'angle') return UNIT_OF_MEASURE[parameters.measure];
  return parameters.measure === 'speed' ? `${parameters.scale.unit}/s` : parameters.scale.unit;
}

/** Checks a pose_series run's parameters against the video and its pose sets: 400 by field, or the parameters to keep. */
export async function checkPoseSeriesParameters(
  context: AppContext,
  video: Pick<VideoRow, 'videoUuid' | 'width' | 'height'>,
  raw: unknown,
): Promise<PoseSeriesParameters> {
  const parsed = poseSeriesParameters.safeParse(raw);
  if (!parsed.success) throw parameterErrors(parsed.error);
  const { scale, measure } = parsed.data;
  if (scale && measure === 'angle') {
    throw badRequest({ 'parameters.scale': ['An angle is in degrees whatever the scale: leave scale out.'] });
  }
  const outside = scale ? scaleLineOutside(scale, video) : null;
  if (outside) throw badRequest({ 'parameters.scale.line': [outside] });
  const set = await poseSetOfVideo(context, video.videoUuid, parsed.data.pose_uuid);
  if (!set) throw badRequest({ 'parameters.pose_uuid': [NO_SUCH_SET] });
  const resolved = resolveKeypoints(set, parsed.data);
  if ('errors' in resolved) throw badRequest(resolved.errors);
  const { individual: _asked, ...rest } = parsed.data;
  return resolved.individual === undefined ? rest : { ...rest, individual: resolved.individual };
}

/** Stores the series and the summary and marks the run succeeded — unless it was revoked meanwhile. */
async function completePoseRun(
  context: AppContext,
  run: AnalysisRow,
  values: Float64Array,
  pose: Record<string, unknown>,
  keys: { seriesKey: string; seriesCsvKey: string },
) {
  const fps = (run.source as RunSource).fps;
  let valid = 0;
  for (const value of values) if (!Number.isNaN(value)) valid++;
  const summary = {
    samples: values.length,
    valid_samples: valid,
    duration_s: values.length / fps,
    events: 0,
    event_rate_per_min: null,
    threshold: null,
    noise_top: null,
    freezing: null,
    frames_per_second: null,
    pose_series: pose,
  };
  await context.db
    .update(analyses)
    .set({
      status: 'succeeded',
      progress: 1,
      error: null,
      finishedAt: new Date(),
      summary,
      ...keys,
      timesKey: null,
      sampleCount: values.length,
    })
    .where(and(eq(analyses.analysisUuid, run.analysisUuid), eq(analyses.status, 'running')));
}

async function computePoseSeries(context: AppContext, run: AnalysisRow, dir: string, signal: AbortSignal) {
  const parameters = run.parameters as PoseSeriesParameters;
  const set = await poseSetOfVideo(context, run.videoUuid, parameters.pose_uuid);
  if (!set) throw new PermanentRunFailure('The pose set this series is derived from was deleted.');
  const resolved = resolveKeypoints(set, parameters);
  if ('errors' in resolved) throw new PermanentRunFailure(Object.values(resolved.errors).flat().join(' '));
  const csvPath = path.join(dir, 'series.csv');
  const { values, stats } = await runTask(
    {
      kind: 'pose-series',
      bytes: await readPoseSetBytes(context, set),
      frameCount: set.frameCount,
      keypointCount: set.keypoints.length,
      keypoints: resolved.keypoints,
      measure: parameters.measure as PoseMeasure,
      fps: (run.source as RunSource).fps,
      likelihoodCutoff: parameters.likelihood_cutoff,
      hasLikelihood: set.hasLikelihood,
      maxGapFrames: parameters.max_gap_frames,
      // Runs made before ADR 037 have no scale.
      unitsPerPixel: parameters.scale && parameters.measure !== 'angle' ? unitsPerPixel(parameters.scale) : null,
      csvPath,
    },
    { signal },
  );
  const stored = analysisKeys(run);
  await context.storage.write(stored.series, Buffer.from(values.buffer, values.byteOffset, values.byteLength));
  await context.storage.importFile(stored.seriesCsv, csvPath, 'text/csv');
  await completePoseRun(
    context,
    run,
    values,
    {
      pose_name: set.name,
      unit: seriesUnit({ measure: parameters.measure, scale: parameters.scale ?? null }),
      ...stats,
    },
    { seriesKey: stored.series, seriesCsvKey: stored.seriesCsv },
  );
}

export const poseSeriesJob = poseRunJob('analyses.pose-series', computePoseSeries);
