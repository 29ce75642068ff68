/**
 * Agreement between two scorings of a video, and calibration of a run's detection settings against a reference
 * (ADR 010). The scorings are read here; every computation runs in the agreement worker thread.
 */
import type { AppContext } from '../../context.js';
import { badRequest, fieldError } from '../../lib/errors.js';
import { findRunOfVideo } from '../analysis/analysis.read.js';
import { readSeries } from '../analysis/analysis.results.js';
import type { AnalysisRow, RunSource } from '../analysis/analysis.runs.js';
import { videoEnd } from '../annotations/annotation.ranges.js';
import type { VideoRow } from '../videos/video.lookup.js';
import { decisionAgreement } from './agreement.decisions.js';
import type { AgreementBody, AgreementResponse, CalibrateBody, CalibrationResponse } from './agreement.schemas.js';
import { loadScorings } from './agreement.scorings.js';
import { runAgreementTask } from './engine/agreement-worker-client.js';
import {
  DEFAULT_FREEZE_STEPS,
  eventNoRecommendation,
  eventWarnings,
  freezingNoRecommendation,
  freezingWarnings,
  sweepValues,
} from './engine/calibration.js';
import { binCount, type SliceGrid } from './engine/slices.js';

/** Slices one interval agreement may cut the video into (one byte each, twice). */
export const MAX_SLICES = 20_000_000;
/** Bins one answer may hold. */
export const MAX_BINS = 10_000;
/** Settings one calibration may sweep. */
export const MAX_SETTINGS = 2_000;

const elapsedSince = (started: number) => Math.round((performance.now() - started) * 10) / 10;

function videoFrames(video: VideoRow) {
  if (!video.fps || !(video.fps > 0)) {
    throw badRequest('The video’s frame rate is not known yet: compare its scorings once it has been processed.');
  }
  const end = videoEnd(video) ?? 0;
  const frames = video.frameCount && video.frameCount > 0 ? video.frameCount : Math.round(end * video.fps);
  return { fps: video.fps, frames, end };
}

/** The slices of the video: its frames by default, else slices of `sliceS` up to the video's end. */
function sliceGrid(video: VideoRow, sliceS: number | undefined, binS: number): SliceGrid {
  const { fps, frames, end } = videoFrames(video);
  const grid: SliceGrid =
    sliceS === undefined
      ? { count: frames, sliceS: 1 / fps, fps }
      : { count: Math.ceil(end / sliceS - 1e-9), sliceS, fps: null };
  if (grid.count > MAX_SLICES) {
    throw fieldError(
      'slice_s',
      `That cuts the video into more than ${MAX_SLICES.toLocaleString('en-US')} slices: choose a longer slice.`,
    );
  }
  if (binS < grid.sliceS) throw fieldError('bin_s', 'A bin must be at least one slice long.');
  if (binCount(grid, binS) > MAX_BINS) {
    throw fieldError('bin_s', `That makes more than ${MAX_BINS.toLocaleString('en-US')} bins: choose a longer bin.`);
  }
  return grid;
}

/** The matching's memory guard, as the field error it is (a tolerance that pairs nearly everything with everything). */
function tooManyPairs(error: unknown): never {
  if (error instanceof Error && error.name === 'TooManyPairsError') {
    throw fieldError('tolerance_s', `${error.message} Choose a smaller tolerance.`);
  }
  throw error;
}

export async function compareScorings(
  context: AppContext,
  video: VideoRow,
  body: AgreementBody,
): Promise<AgreementResponse> {
  const started = performance.now();
  const grid = sliceGrid(video, body.slice_s, body.bin_s);
  const { reference, candidate } = await loadScorings(context, video, {
    reference: body.reference,
    candidate: body.candidate,
  });
  const result = await runAgreementTask({
    kind: 'agreement',
    reference: reference.data,
    candidate: candidate.data,
    toleranceS: body.tolerance_s,
    grid,
    binS: body.bin_s,
  }).catch(tooManyPairs);
  return {
    reference: reference.summary,
    candidate: candidate.summary,
    tolerance_s: body.tolerance_s,
    events: result.events,
    intervals: result.intervals,
    decisions: await decisionAgreement(context, body),
    elapsed_ms: elapsedSince(started),
  };
}

/** A run's event-detection settings, with the server's defaults for what it lacks (ADR 006). */
function eventSettingsOf(run: AnalysisRow) {
  const parameters = run.parameters as Record<string, unknown>;
  const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
  return {
    event_threshold_k: number(parameters.event_threshold_k) ?? 3,
    event_threshold: number(parameters.event_threshold),
    refractory_s: number(parameters.refractory_s) ?? 0.5,
    min_freeze_s: number(parameters.min_freeze_s),
    bin_s: number(parameters.bin_s),
  };
}

function checkSettingCount(field: string, count: number) {
  if (count > MAX_SETTINGS) {
    throw fieldError(
      field,
      `This sweep has ${count} settings (at most ${MAX_SETTINGS}): widen the step or narrow the range.`,
    );
  }
}

export async function calibrate(
  context: AppContext,
  video: VideoRow,
  analysisUuid: string,
  body: CalibrateBody,
): Promise<CalibrationResponse> {
  const started = performance.now();
  const run = await findRunOfVideo(context, video, analysisUuid);
  if (run.status !== 'succeeded' || !run.seriesKey) {
    throw badRequest('This run has no time series yet: calibrate a run that has succeeded.');
  }
  const settings = eventSettingsOf(run);
  const fps = (run.source as RunSource | null)?.fps ?? video.fps ?? 30;
  return body.target === 'events'
    ? calibrateEvents(context, video, run, body, settings, fps, started)
    : calibrateFreezing(context, video, run, body, settings, fps, started);
}

async function calibrateEvents(
  context: AppContext,
  video: VideoRow,
  run: AnalysisRow,
  body: CalibrateBody,
  settings: ReturnType<typeof eventSettingsOf>,
  fps: number,
  started: number,
): Promise<CalibrationResponse> {
  const mode = body.threshold ? 'threshold' : 'k';
  const values = sweepValues(body.threshold ?? body.k ?? { from: 1, to: 10, step: 0.1 });
  const refractories = body.refractory_s ?? [settings.refractory_s];
  checkSettingCount(mode, values.length * refractories.length);
  const { reference } = await loadScorings(context, video, { reference: body.reference });
  if (reference.data.events.length === 0) {
    throw fieldError('reference', 'The reference has no events: there is nothing to calibrate against.');
  }
  const series = await readSeries(context, run, fps);
  const toleranceS = body.tolerance_s ?? 0.2;
  const sweep = await runAgreementTask({
    kind: 'calibrate-events',
    input: { series, reference: reference.data.events, toleranceS, mode, values, refractories },
  }).catch(tooManyPairs);
  const best = sweep.points[sweep.best]!;
  const noRecommendation = eventNoRecommendation(sweep, reference.data.events.length, toleranceS);
  return {
    target: 'events',
    analysis_uuid: run.analysisUuid,
    reference: reference.summary,
    tolerance_s: toleranceS,
    sweep: mode,
    noise_top: sweep.noiseTop,
    points: sweep.points,
    best: noRecommendation
      ? null
      : {
          index: sweep.best,
          parameters: {
            event_threshold_k: best.event_threshold_k ?? settings.event_threshold_k,
            event_threshold: mode === 'threshold' ? best.threshold : null,
            refractory_s: best.refractory_s,
          },
        },
    no_recommendation: noRecommendation,
    warnings: eventWarnings(reference.data.events.length),
    elapsed_ms: elapsedSince(started),
  };
}

async function calibrateFreezing(
  context: AppContext,
  video: VideoRow,
  run: AnalysisRow,
  body: CalibrateBody,
  settings: ReturnType<typeof eventSettingsOf>,
  fps: number,
  started: number,
): Promise<CalibrationResponse> {
  if (run.timesKey) {
    throw fieldError('target', 'Freezing needs one value per frame; this run’s series has its own sample times.');
  }
  const thresholds = body.freeze_threshold ? sweepValues(body.freeze_threshold) : null;
  const minDurations = body.min_freeze_s ?? [...new Set([0.5, 1, 2, settings.min_freeze_s ?? 1])].sort((a, b) => a - b);
  checkSettingCount('freeze_threshold', (thresholds?.length ?? DEFAULT_FREEZE_STEPS + 1) * minDurations.length);
  const binS = body.bin_s ?? settings.bin_s ?? 60;
  if (binS * fps < 1) throw fieldError('bin_s', 'A bin must be at least one frame long.');
  const { reference } = await loadScorings(context, video, { reference: body.reference });
  if (!reference.data.ranges) {
    throw fieldError(
      'reference.kind',
      'Freezing is calibrated against ranges: choose an annotation track or uploaded ranges.',
    );
  }
  const series = await readSeries(context, run, fps);
  if (Math.ceil(series.values.length / fps / binS) > MAX_BINS) {
    throw fieldError('bin_s', `That makes more than ${MAX_BINS.toLocaleString('en-US')} bins: choose a longer bin.`);
  }
  const sweep = await runAgreementTask({
    kind: 'calibrate-freezing',
    input: {
      values: series.values,
      fps,
      reference: reference.data.ranges,
      thresholds: thresholds ?? 'auto',
      minDurations,
      binS,
    },
  });
  const best = sweep.points[sweep.best]!;
  const noRecommendation = freezingNoRecommendation(sweep);
  return {
    target: 'freezing',
    analysis_uuid: run.analysisUuid,
    reference: reference.summary,
    bin_s: binS,
    reference_percent: sweep.referencePercent,
    points: sweep.points,
    best: noRecommendation
      ? null
      : {
          index: sweep.best,
          parameters: {
            event_threshold_k: settings.event_threshold_k,
            event_threshold: settings.event_threshold,
            refractory_s: settings.refractory_s,
            freeze_threshold: best.freeze_threshold,
            min_freeze_s: best.min_freeze_s,
            bin_s: binS,
          },
        },
    no_recommendation: noRecommendation,
    bins: sweep.bins,
    warnings: freezingWarnings(sweep),
    elapsed_ms: elapsedSince(started),
  };
}
