import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { DecodeErrorReport, FILE_START } from '../../adapters/media/clean-start.js';
import type { AppContext } from '../../context.js';
import { analyses } from '../../db/schema.js';
import { badRequest, conflict, payloadTooLarge, unsupportedMediaType } from '../../lib/errors.js';
import { analysisKeys, jobWorkDir } from '../../lib/storage-keys.js';
import { clipTimeRanges } from '../../lib/time-ranges.js';
import { APP_VERSION } from '../../version.js';
import { subjectOfVideoNow, type VideoRow } from '../videos/video.lookup.js';
import { abortLocalRun, openMediaInput } from './analysis.media-input.js';
import { parameterErrors } from './analysis.parameter-errors.js';
import { findRunOfVideo, getAnalysis } from './analysis.read.js';
import { completeRun } from './analysis.results.js';
import { segmentPieces } from './analysis.runs.js';
import { eventDetectionParameters, freezingOf, movementParameters, type previewBody } from './analysis.schemas.js';
import { basicSource, probeSource, requireAnalysable, requireDecodable } from './analysis.source.js';
import { cleanStartsFor } from './clean-starts.js';
import { runTask } from './engine/worker-client.js';
import { locationPreview } from './location.preview.js';
import { locationPieces } from './location.runs.js';

/**
 * Bumped whenever a change to the algorithms could change a result; stored with every run. intensity-change 2
 * (2026-11-23) counts exactly as OpenCV does: the 3×3 mean rounded to 8 bits with reflected borders (ADR 006);
 * version 1 compared unrounded sums with replicated borders and counted a few percent more. pose-series 1
 * (2026-11-27): the speed, distance and angle of ADR 032.
 */
export const ALGORITHM_VERSION = 'intensity-change 2, event-detection 1, pose-series 1';

export async function softwareVersion(context: AppContext): Promise<string> {
  return `app ${APP_VERSION}; ${ALGORITHM_VERSION}; ffmpeg ${await context.media.version()}`;
}

export function parseMovementParameters(raw: unknown, video: VideoRow) {
  const parsed = movementParameters.safeParse(raw);
  if (!parsed.success) throw parameterErrors(parsed.error);
  const width = video.width ?? 0;
  const height = video.height ?? 0;
  const outside = parsed.data.rois.findIndex((r) => r.x + r.width > width || r.y + r.height > height);
  if (outside !== -1) {
    throw badRequest({ 'parameters.rois': [`ROI ${outside + 1} lies outside the ${width}×${height} picture.`] });
  }
  const late = parsed.data.rois.findIndex((r) => r.start_s >= (video.durationS ?? Number.POSITIVE_INFINITY));
  if (late > 0) throw badRequest({ 'parameters.rois': [`ROI ${late + 1} starts after the end of the video.`] });
  // Bypass ranges past the end are cut to the video (the run keeps what it used), and the answer says so.
  const bypass = clipTimeRanges(parsed.data.bypass_ranges, video.durationS);
  return { parameters: { ...parsed.data, bypass_ranges: bypass.ranges }, notices: bypass.notices };
}

export function parseEventParameters(raw: unknown) {
  const parsed = eventDetectionParameters.safeParse(raw);
  if (!parsed.success) throw parameterErrors(parsed.error);
  return parsed.data;
}

export async function revokeAnalysis(context: AppContext, video: VideoRow, analysisUuid: string) {
  const run = await findRunOfVideo(context, video, analysisUuid);
  const revoked = await stopRuns(context, [run.analysisUuid]);
  if (revoked.length === 0) {
    throw conflict(`This run has already ${run.status === 'revoked' ? 'been revoked' : 'finished'}.`);
  }
  return getAnalysis(context, video, run.analysisUuid);
}

/**
 * Revokes the runs still queued or running among these (a revoke, or a deletion taking them to the trash): their
 * waiting jobs never start, running ones stop at their next status check. Answers the runs it revoked.
 */
export async function stopRuns(context: AppContext, analysisUuids: string[]): Promise<string[]> {
  if (analysisUuids.length === 0) return [];
  const revoked = await context.db
    .update(analyses)
    .set({ status: 'revoked', finishedAt: new Date() })
    .where(and(inArray(analyses.analysisUuid, analysisUuids), inArray(analyses.status, ['queued', 'running'])))
    .returning({ analysisUuid: analyses.analysisUuid });
  const uuids = revoked.map((row) => row.analysisUuid);
  if (uuids.length === 0) return [];
  for (const uuid of uuids) abortLocalRun(uuid);
  // Both kinds of pieces live in analysis_segments: one read names every job, each queue cancels its own.
  const jobIds = await segmentPieces.jobIds(context, uuids);
  for (const name of [segmentPieces.job.name, locationPieces.job.name]) {
    await context.jobs.cancel(name, jobIds).catch((error: unknown) => {
      context.logger.warn({ err: error, analysisUuids: uuids }, 'cancelling queued piece jobs failed');
    });
  }
  return uuids;
}

// ---- Preview ----

export async function preview(context: AppContext, video: VideoRow, body: z.output<typeof previewBody>) {
  requireAnalysable(video);
  requireDecodable(video);
  if (body.kind === 'location_tracking') return locationPreview(context, video, body);
  const { parameters, notices } = parseMovementParameters(body.parameters, video);
  const source = await probeSource(context, video);
  const startFrame = Math.min(Math.round(body.start_s * source.fps), Math.max(0, source.frameCount - 1));
  const endFrame = Math.min(source.frameCount, startFrame + Math.max(1, Math.round(body.length_s * source.fps)));
  const started = performance.now();
  const local = await openMediaInput(context, { originalKey: source.originalKey, container: video.container });
  try {
    // The window decodes from a proven clean start before it; without one near, from the file's start.
    const [start] =
      startFrame > 0 ? await cleanStartsFor(context, video, local.input, source.fps, [startFrame - 1]) : [];
    const result = await runTask({
      kind: 'preview',
      ffmpeg: context.media.binaries.ffmpeg,
      source: { ...source, ...local.input },
      parameters,
      startFrame,
      endFrame,
      start: start ?? FILE_START,
    }).catch((error: unknown) => {
      if (error instanceof DecodeErrorReport) {
        throw badRequest(`The video cannot be decoded cleanly here (${error.lines[0]}): its counts would be wrong.`);
      }
      throw error;
    });
    return {
      kind: 'movement_detection' as const,
      start_s: startFrame / source.fps,
      fps: source.fps,
      frames: Array.from(result.values, (_, i) => startFrame + i),
      values: Array.from(result.values, (v) => (Number.isNaN(v) ? null : v)),
      events: Array.from(result.eventTimes),
      threshold: result.threshold,
      image: `data:image/png;base64,${Buffer.from(result.png).toString('base64')}`,
      elapsed_ms: Math.round(performance.now() - started),
      notices,
    };
  } finally {
    await local.release();
  }
}

// ---- Time series import ----

const MAX_TIMESERIES_BYTES = 512 * 1024 * 1024;

/**
 * Imports an uploaded CSV as a run of the video: the file streams to disk, a worker thread parses and checks
 * it (a broken row is named, nothing is stored), then event detection runs on it.
 */
export async function importTimeseries(context: AppContext, video: VideoRow, userId: number, request: FastifyRequest) {
  requireAnalysable(video);
  if (!request.isMultipart()) {
    throw unsupportedMediaType('Send the time series as multipart/form-data in the field "timeseries".');
  }
  const dir = jobWorkDir(context.config.dataDir, 'import', randomUUID());
  await mkdir(dir, { recursive: true });
  try {
    const file = path.join(dir, 'timeseries.csv');
    let fileName: string | undefined;
    let rawParameters: unknown = {};
    for await (const part of request.parts({ limits: { fileSize: MAX_TIMESERIES_BYTES, files: 1 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'timeseries') {
          part.file.resume();
          continue;
        }
        fileName = part.filename;
        await pipeline(part.file, createWriteStream(file));
        if (part.file.truncated) {
          throw payloadTooLarge(`The time series file is larger than ${MAX_TIMESERIES_BYTES / 1024 / 1024} MB.`);
        }
      } else if (part.fieldname === 'parameters') {
        try {
          rawParameters = JSON.parse(String(part.value));
        } catch {
          throw badRequest({ parameters: ['Must be a JSON object.'] });
        }
      }
    }
    if (fileName === undefined) throw badRequest({ timeseries: ['CSV is empty'] });
    if (!fileName.toLowerCase().endsWith('.csv')) throw badRequest({ timeseries: ['File is not a CSV'] });
    const parameters = parseEventParameters(rawParameters);
    const parsed = await runTask({ kind: 'import', path: file });
    if (!parsed.ok) throw badRequest({ timeseries: [parsed.error] });
    const fps = video.fps ?? 30;
    const series = { values: parsed.values, times: parsed.times, fps };
    const [run] = await context.db
      .insert(analyses)
      .values({
        projectUuid: video.projectUuid,
        subjectUuid: subjectOfVideoNow(video.videoUuid),
        videoUuid: video.videoUuid,
        kind: 'timeseries_import',
        parameters,
        status: 'running',
        startedAt: new Date(),
        source: { ...basicSource(video), fileName },
        createdById: userId,
        softwareVersion: await softwareVersion(context),
      })
      .returning();
    const stored = analysisKeys(run!);
    try {
      const keys = {
        seriesKey: stored.series,
        timesKey: series.times ? stored.times : null,
        seriesCsvKey: stored.seriesCsv,
      };
      await context.storage.write(keys.seriesKey, Buffer.from(series.values.buffer, 0, series.values.byteLength));
      if (series.times && keys.timesKey) {
        await context.storage.write(keys.timesKey, Buffer.from(series.times.buffer, 0, series.times.byteLength));
      }
      const csvPath = path.join(dir, 'series.csv');
      const detected = await runTask({
        kind: 'detect',
        series,
        events: parameters,
        freezing: freezingOf(parameters),
        csvPath,
      });
      await context.storage.importFile(keys.seriesCsvKey, csvPath, 'text/csv');
      await completeRun(context, run!, series, detected, keys);
    } catch (error) {
      // Nothing half-imported stays behind.
      await context.db.delete(analyses).where(eq(analyses.analysisUuid, run!.analysisUuid));
      await context.storage.deletePrefix(stored.prefix);
      throw error;
    }
    return run!.analysisUuid;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
