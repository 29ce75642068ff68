/**
 * Making runs, as `POST …/videos/{v}/analysis/` makes one and a batch makes many (ADR 035): `prepareRun` checks the
 * settings — the run's own, or a protocol version's with overrides (ADR 031) — against the video and plans the run,
 * writing nothing; `storeRuns` inserts prepared runs in the caller's transaction; `queueRuns` queues their jobs once
 * it has committed.
 */
import { randomUUID } from 'node:crypto';
import { inArray, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { analyses } from '../../db/schema.js';
import { badRequest } from '../../lib/errors.js';
import { protocolForRun } from '../protocols/protocol.service.js';
import { subjectOfVideoNow, type VideoRow } from '../videos/video.lookup.js';
import type { StoredPacketIndex } from '../videos/video.packet-index.js';
import { withMediaInput } from './analysis.media-input.js';
import { findRunOfVideo } from './analysis.read.js';
import { type AnalysisRow, analysisDetectJob, type RunSource, segmentPieces } from './analysis.runs.js';
import type { createAnalysisBody } from './analysis.schemas.js';
import { parseEventParameters, parseMovementParameters, softwareVersion } from './analysis.service.js';
import { basicSource, probeSource, requireAnalysable, requireDecodable } from './analysis.source.js';
import { piecesWithStarts, plannedSegments } from './clean-starts.js';
import { withCleanStarts } from './engine/plan.js';
import { asksPoseSource, checkPoseLocationParameters, poseLocationJob } from './location.pose.js';
import { checkLocationParameters } from './location.reference.js';
import { locationPieces, locationReferenceJob } from './location.runs.js';
import { checkPoseSeriesParameters, poseSeriesJob } from './pose-series.js';

type RunProtocol = Awaited<ReturnType<typeof protocolForRun>>;

/**
 * The kind and raw parameters a run is asked for: its own, or a protocol's version with the body's parameters
 * overriding its keys one by one (ADR 031). The run's parser then checks the result against the video.
 */
async function settingsOf(
  context: AppContext,
  video: VideoRow,
  body: z.output<typeof createAnalysisBody>,
  resolved?: RunProtocol,
) {
  if (body.protocol_uuid === undefined) {
    if (body.protocol_version !== undefined) {
      throw badRequest({ protocol_version: ['Give protocol_uuid too: the version of which protocol?'] });
    }
    if (body.kind === undefined) throw badRequest({ kind: ['Give the kind of run, or a protocol_uuid.'] });
    return { kind: body.kind, parameters: body.parameters, protocol: null };
  }
  const protocol =
    resolved &&
    resolved.protocolUuid === body.protocol_uuid &&
    (body.protocol_version === undefined || resolved.version === body.protocol_version)
      ? resolved
      : await protocolForRun(context, video.projectUuid, body.protocol_uuid, body.protocol_version);
  if (body.kind !== undefined && body.kind !== protocol.kind) {
    throw badRequest({ kind: [`The protocol is for ${protocol.kind}, not ${body.kind}.`] });
  }
  return { kind: protocol.kind, parameters: { ...protocol.parameters, ...body.parameters }, protocol };
}

/**
 * A run checked and planned but not stored yet: what `storeRuns` inserts (in the caller's transaction) and what
 * `queueRuns` sends once that transaction has committed. A batch prepares every video's run first, so that one bad
 * video refuses the whole request before anything is created (ADR 035).
 */
export interface PreparedRun {
  kind: AnalysisRow['kind'];
  /** The run's row; its subject is read as the INSERT executes (subjectOfVideoNow). */
  values: Omit<typeof analyses.$inferInsert, 'subjectUuid'> & { subjectUuid: SQL<string> };
  pieces: { index: number; startFrame: number; endFrame: number }[] | null;
  /** The job the run starts with, or `pieces` when its planned pieces are queued straight away (movement). */
  firstJob: FirstJob | 'pieces';
  notices: string[];
}

/** The one job that does a run, or that queues its pieces (a location run's reference, ADR 027). */
type FirstJob = typeof analysisDetectJob | typeof poseSeriesJob | typeof poseLocationJob | typeof locationReferenceJob;

/**
 * Checks a run asked for as `POST …/videos/{v}/analysis/` asks for it — its own parameters, or a protocol's with
 * overrides — against the video, and plans it. Nothing is written (a clean-start proof made on the way is kept in
 * the video's cache, as any run or preview keeps it).
 */
export async function prepareRun(
  context: AppContext,
  video: VideoRow,
  userId: number,
  body: z.output<typeof createAnalysisBody>,
  /**
   * What a batch reads once for all its videos (the protocol the body names, the video's packet index), and how many
   * pieces to cut the run into at most (a batch of many videos keeps the workers busy with whole videos).
   */
  preloaded: { protocol?: RunProtocol; packetIndex?: StoredPacketIndex; parallelism?: number } = {},
): Promise<PreparedRun> {
  requireAnalysable(video);
  const { kind, parameters: requested, protocol } = await settingsOf(context, video, body, preloaded.protocol);
  const base = {
    projectUuid: video.projectUuid,
    subjectUuid: subjectOfVideoNow(video.videoUuid),
    videoUuid: video.videoUuid,
    createdById: userId,
    softwareVersion: await softwareVersion(context),
    protocolUuid: protocol?.protocolUuid ?? null,
    protocolVersion: protocol?.version ?? null,
  };
  if (kind === 'timeseries_import') {
    throw badRequest({ kind: ['A time series import needs its file: upload it with import_timeseries/.'] });
  }
  if (kind === 'event_detection') {
    if (!body.source_analysis_uuid) {
      throw badRequest({ source_analysis_uuid: ['Name the run whose time series the detection reads.'] });
    }
    const source = await findRunOfVideo(context, video, body.source_analysis_uuid).catch(() => undefined);
    if (!source) throw badRequest({ source_analysis_uuid: ['No run of this video has that id.'] });
    if (source.kind === 'location_tracking') {
      throw badRequest({
        source_analysis_uuid: [
          'That run tracks location; event detection reads a movement, imported or pose-derived series.',
        ],
      });
    }
    if (source.status !== 'succeeded' || !source.seriesKey) {
      throw badRequest({ source_analysis_uuid: ['That run has no time series yet: pick a run that has succeeded.'] });
    }
    const parameters = parseEventParameters(requested);
    return {
      kind,
      values: {
        ...base,
        kind: 'event_detection',
        parameters,
        sourceAnalysisUuid: source.analysisUuid,
        source: basicSource(video),
      },
      pieces: null,
      firstJob: analysisDetectJob,
      notices: [],
    };
  }
  if (kind === 'pose_series' || (kind === 'location_tracking' && asksPoseSource(requested))) {
    // Read from a pose set of this video (ADR 032, ADR 037): no decoding, one job in a worker thread.
    const { parameters, notices, firstJob } =
      kind === 'pose_series'
        ? {
            parameters: await checkPoseSeriesParameters(context, video, requested),
            notices: [],
            firstJob: poseSeriesJob,
          }
        : { ...(await checkPoseLocationParameters(context, video, requested)), firstJob: poseLocationJob };
    return { kind, values: { ...base, kind, parameters, source: basicSource(video) }, pieces: null, firstJob, notices };
  }
  requireDecodable(video);
  const { parameters, notices } =
    kind === 'location_tracking'
      ? await checkLocationParameters(context, video, requested)
      : parseMovementParameters(requested, video);
  const pieces = kind === 'location_tracking' ? locationPieces : segmentPieces;
  const probed = await probeSource(context, video);
  const planned = plannedSegments(context, probed.frameCount, probed.fps, preloaded.parallelism);
  // Each cut moves onto a keyframe near it and decodes from a proven clean start (read once per video, cached); a
  // cut without one is dropped. The start must give the frame before the cut, which a chained piece never reads.
  const { handOff } = pieces.kind;
  const lookBack = handOff.mode === 'look-back' ? Math.max(1, handOff.frames) : 1;
  const segments =
    planned.length > 1
      ? await withMediaInput(context, { originalKey: probed.originalKey, container: video.container }, (input) =>
          piecesWithStarts(context, video, input, planned, probed.fps, lookBack, preloaded.packetIndex),
        )
      : withCleanStarts(planned, [], 0);
  const source: RunSource = { ...probed, segmentStarts: segments.map((segment) => segment.start) };
  return {
    kind,
    values: { ...base, kind, parameters, source },
    pieces: segments.map((segment) => ({
      index: segment.index,
      startFrame: segment.startFrame,
      endFrame: segment.endFrame,
    })),
    // A location run computes its reference first; that job queues the pieces (ADR 027).
    firstJob: kind === 'location_tracking' ? locationReferenceJob : 'pieces',
    notices,
  };
}

/**
 * Inserts prepared runs (and plans their pieces) in the caller's transaction, in one statement per table however
 * many there are (a batch's runs); answers their uuids in order.
 */
export async function storeRuns(tx: Database, prepared: PreparedRun[]): Promise<string[]> {
  if (prepared.length === 0) return [];
  const uuids = prepared.map(() => randomUUID());
  await tx.insert(analyses).values(prepared.map((run, i) => ({ ...run.values, analysisUuid: uuids[i]! })));
  for (const pieces of [segmentPieces, locationPieces]) {
    const plans = prepared.flatMap((run, i) =>
      run.pieces && (run.kind === 'location_tracking') === (pieces === locationPieces)
        ? [{ key: uuids[i]!, pieces: run.pieces.map((piece) => ({ analysisUuid: uuids[i]!, ...piece })) }]
        : [],
    );
    await pieces.planMany(tx, plans);
  }
  return uuids;
}

/**
 * Queues stored runs' jobs (after their transaction has committed), one insert per job however many runs there are.
 * Runs that cannot be queued fail visibly (with the error thrown after).
 */
export async function queueRuns(context: AppContext, runs: { prepared: PreparedRun; analysisUuid: string }[]) {
  // (Map.groupBy is not in Node 20.)
  const byJob = new Map<PreparedRun['firstJob'], string[]>();
  for (const run of runs)
    byJob.set(run.prepared.firstJob, [...(byJob.get(run.prepared.firstJob) ?? []), run.analysisUuid]);
  let failure: unknown;
  for (const [job, uuids] of byJob) {
    try {
      if (job === 'pieces') await segmentPieces.queueMany(context, uuids);
      else {
        await context.jobs.sendMany(
          job,
          uuids.map((analysisUuid) => ({ payload: { analysisUuid } })),
        );
      }
    } catch (error) {
      await failUnqueued(context, uuids);
      failure ??= error;
    }
  }
  if (failure) throw failure;
}

export async function createAnalysis(
  context: AppContext,
  video: VideoRow,
  userId: number,
  body: z.output<typeof createAnalysisBody>,
): Promise<{ analysisUuid: string; notices: string[] }> {
  const prepared = await prepareRun(context, video, userId, body);
  const [analysisUuid] = await context.db.transaction((tx) => storeRuns(tx as unknown as Database, [prepared]));
  await queueRuns(context, [{ prepared, analysisUuid: analysisUuid! }]);
  return { analysisUuid: analysisUuid!, notices: prepared.notices };
}

/** Runs whose jobs cannot be queued fail visibly instead of waiting forever. */
async function failUnqueued(context: AppContext, analysisUuids: string[]) {
  await context.db
    .update(analyses)
    .set({ status: 'failed', error: 'The run could not be queued. Try again.', finishedAt: new Date() })
    .where(inArray(analyses.analysisUuid, analysisUuids));
}
