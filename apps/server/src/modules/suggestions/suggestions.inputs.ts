/**
 * What a suggestions worker needs of a run (ADR 038): its series and threshold, its detected events (their original
 * times: a model judges what the detector found), and its video's pose set when the model uses pose features.
 */
import { and, asc, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { analysisEvents, poseSets } from '../../db/schema.js';
import { readSeries } from '../analysis/analysis.results.js';
import type { AnalysisRow, RunSource } from '../analysis/analysis.runs.js';
import type { PoseSetInput, RunInput } from './engine/suggestions-tasks.js';

/** The run's threshold, or null for a run without events to suggest for (location tracking, no summary). */
export function runThreshold(run: AnalysisRow): number | null {
  if (run.kind === 'location_tracking' || run.status !== 'succeeded' || !run.seriesKey) return null;
  const threshold = (run.summary as { threshold?: number | null } | null)?.threshold;
  return typeof threshold === 'number' && threshold > 0 ? threshold : null;
}

/** The videos among `videoUuids` that have a pose set. */
export async function videosWithPose(context: AppContext, videoUuids: string[]): Promise<Set<string>> {
  if (videoUuids.length === 0) return new Set();
  const rows = await context.db
    .selectDistinct({ videoUuid: poseSets.videoUuid })
    .from(poseSets)
    .where(inArray(poseSets.videoUuid, videoUuids));
  return new Set(rows.map((row) => row.videoUuid));
}

/** The video's newest pose set, read whole, with the first individual's keypoints; null without one. */
async function poseInput(context: AppContext, videoUuid: string): Promise<PoseSetInput | null> {
  const [set] = await context.db
    .select()
    .from(poseSets)
    .where(eq(poseSets.videoUuid, videoUuid))
    .orderBy(desc(poseSets.createdAt))
    .limit(1);
  if (!set) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of await context.storage.read(set.storageKey)) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  return {
    bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    frameCount: set.frameCount,
    keypointCount: set.keypoints.length,
    keypoints: set.keypoints.flatMap(([individual], k) => (individual === 0 ? [k] : [])),
    hasLikelihood: set.hasLikelihood,
  };
}

/** A run's detected events by original time: the rows features are computed for. */
export async function detectedEvents(context: AppContext, analysisUuid: string) {
  return context.db
    .select({
      id: analysisEvents.id,
      originalTime: analysisEvents.originalTime,
      reviewedAt: analysisEvents.reviewedAt,
      discarded: analysisEvents.discarded,
      label: analysisEvents.label,
    })
    .from(analysisEvents)
    .where(and(eq(analysisEvents.analysisUuid, analysisUuid), isNotNull(analysisEvents.originalTime)))
    .orderBy(asc(analysisEvents.originalTime), asc(analysisEvents.id));
}

/** The worker's input for a run whose events are `times` (original times, increasing). */
export async function runInput(
  context: AppContext,
  run: AnalysisRow,
  threshold: number,
  times: number[],
  withPose: boolean,
): Promise<RunInput> {
  const fps = (run.source as RunSource | null)?.fps ?? 30;
  return {
    series: await readSeries(context, run, fps),
    threshold,
    times: Float64Array.from(times),
    pose: withPose ? await poseInput(context, run.videoUuid) : null,
  };
}
