import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, type TestUser } from '../../../test/factories.js';
import {
  createProjectWithSubject,
  type ProjectWithSubject,
  uploadVideo,
  waitForVideo,
} from '../../../test/factories-videos.js';
import { analysisFixtures, JUMPS_FIXTURE } from '../../../test/fixtures/videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { analyses } from '../../db/schema.js';
import type { AgreementResponse, CalibrationResponse } from './agreement.schemas.js';
import { cohensKappa } from './engine/interval-agreement.js';

const J = JUMPS_FIXTURE;

type Run = { analysis_uuid: string; status: string; summary: Record<string, unknown> | null };
type Events = { version: number; events: { id: number; time: number; original_time: number | null }[] };

describe('agreement and calibration API', () => {
  let t: TestApp;
  let owner: TestUser;
  let viewer: TestUser;
  let outsider: TestUser;
  let project: ProjectWithSubject;
  let videoUrl: string;
  let analysisUrl: string;
  let agreementUrl: string;
  let run: Run;
  /** Detected times of the run (the three jumps: about 1.0, 2.0 and 3.5 s). */
  let detected: number[];
  let handTrack: string;
  let stillTrack: string;

  const post = (user: TestUser, url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers: user.headers, payload: payload as object });
  const compare = async (body: object, user = owner) => {
    const response = await post(user, agreementUrl, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as AgreementResponse;
  };
  const calibrateUrl = () => `${analysisUrl}${run.analysis_uuid}/calibrate/`;

  async function waitForRun(uuid: string): Promise<Run> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const answer = (
        await t.app.inject({ method: 'GET', url: `${analysisUrl}${uuid}/`, headers: owner.headers })
      ).json();
      if (!['queued', 'running'].includes(answer.status) || Date.now() > deadline) return answer;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }

  async function createTrack(name: string, ranges: [number, number][]) {
    const created = await post(owner, `${videoUrl}annotations/config/`, { name });
    expect(created.statusCode, created.body).toBe(201);
    const uuid = created.json().annotation_config_uuid as string;
    const put = await t.app.inject({
      method: 'PUT',
      url: `${videoUrl}annotations/${uuid}/`,
      headers: owner.headers,
      payload: { ranges, version: 0 },
    });
    expect(put.statusCode, put.body).toBe(200);
    return uuid;
  }

  beforeAll(async () => {
    t = await createTestApp({ workers: true, config: { analysisWorkers: 2, analysisSegmentSeconds: 2 } });
    owner = await createUser(t.ctx);
    viewer = await createUser(t.ctx);
    outsider = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
    await addMember(t.ctx, project.projectUuid, viewer.id, 'viewer');
    const uploaded = await uploadVideo(t.app, owner, project.videosUrl, analysisFixtures().jumpsMp4);
    expect(uploaded.statusCode).toBe(201);
    videoUrl = `${project.videosUrl}${uploaded.json().video_uuid}/`;
    expect((await waitForVideo(t.app, owner, videoUrl)).status).toBe('ready');
    analysisUrl = `${videoUrl}analysis/`;
    agreementUrl = `${videoUrl}agreement/`;
    const created = await post(owner, analysisUrl, {
      kind: 'movement_detection',
      parameters: { rois: [{ start_s: 0, ...J.leftRoi }], freeze_threshold: 0, min_freeze_s: 0.5, bin_s: 1 },
    });
    expect(created.statusCode, created.body).toBe(201);
    run = await waitForRun(created.json().analysis_uuid);
    expect(run.status).toBe('succeeded');
    const events = (
      await t.app.inject({
        method: 'GET',
        url: `${analysisUrl}retrieve-events/?analysis_uuid=${run.analysis_uuid}`,
        headers: owner.headers,
      })
    ).json() as Events;
    detected = events.events.map((e) => e.time);
    expect(detected).toHaveLength(3);
    // A hand scorer marked the first two jumps and one more bout (4.2 s) the detector never saw.
    handTrack = await createTrack('Jumps by hand', [
      [1, 1.5],
      [2, 2.4],
      [4.2, 4.6],
    ]);
    // The square is still except around its jumps.
    stillTrack = await createTrack('Still', [
      [0, 0.9],
      [1.1, 1.9],
      [2.1, 3.4],
      [3.6, 5],
    ]);
  }, 90_000);

  afterAll(async () => {
    await t?.close();
  });

  it('compares a run’s detected events with a hand track: optimal pairs, missed and extra events', async () => {
    const report = await compare({
      reference: { kind: 'track', annotation_config_uuid: handTrack },
      candidate: { kind: 'run_detected', analysis_uuid: run.analysis_uuid },
    });
    expect(report.reference).toMatchObject({
      kind: 'track',
      description: 'Annotation track "Jumps by hand"',
      events: 3,
      ranges: 3,
    });
    expect(report.candidate).toMatchObject({
      kind: 'run_detected',
      analysis_uuid: run.analysis_uuid,
      events: 3,
      ranges: null,
    });
    expect(report.candidate.description).toMatch(
      /^Movement detection of \d{4}-\d\d-\d\d \d\d:\d\d UTC, events as detected$/,
    );
    expect(report.tolerance_s).toBe(0.2);
    expect([report.events.tp, report.events.fp, report.events.fn]).toEqual([2, 1, 1]);
    expect(report.events.pairs.map((p) => p.reference_s)).toEqual([1, 2]);
    expect(report.events.pairs.map((p) => p.candidate_s)).toEqual(detected.slice(0, 2));
    expect(report.events.missed).toEqual([4.2]);
    expect(report.events.extra).toEqual([detected[2]]);
    expect(report.events.f1).toBeCloseTo(2 / 3, 12);
    // A run has no ranges: no interval agreement.
    expect(report.intervals).toBeNull();
    expect(report.elapsed_ms).toBeGreaterThanOrEqual(0);
  });

  it('reads a reviewed run: current times, discarded events left out, one label when asked; detected keeps all', async () => {
    const events = (
      await t.app.inject({
        method: 'GET',
        url: `${analysisUrl}retrieve-events/?analysis_uuid=${run.analysis_uuid}`,
        headers: owner.headers,
      })
    ).json() as Events;
    const [first, second, third] = events.events;
    const reviewed = await post(owner, `${analysisUrl}update-events/`, {
      analysis_uuid: run.analysis_uuid,
      version: events.version,
      changes: [
        { action: 'discard', id: third!.id },
        { action: 'label', id: first!.id, label: 'jump' },
        { action: 'move', id: second!.id, time: 2.1 },
        { action: 'add', time: 4.2, label: 'jump' },
      ],
    });
    expect(reviewed.statusCode, reviewed.body).toBe(200);
    const reference = { kind: 'track', annotation_config_uuid: handTrack };

    const asReviewed = await compare({
      reference,
      candidate: { kind: 'run_reviewed', analysis_uuid: run.analysis_uuid },
    });
    expect(asReviewed.candidate.events).toBe(3);
    expect(asReviewed.candidate.description).toMatch(/events as reviewed$/);
    // 1.0, 2.1 (moved) and 4.2 (added): all three hand bouts found, nothing extra.
    expect([asReviewed.events.tp, asReviewed.events.fp, asReviewed.events.fn]).toEqual([3, 0, 0]);
    expect(asReviewed.events.pairs.map((p) => p.candidate_s)).toEqual([first!.time, 2.1, 4.2]);

    const oneLabel = await compare({
      reference,
      candidate: { kind: 'run_reviewed', analysis_uuid: run.analysis_uuid, label: 'jump' },
    });
    expect(oneLabel.candidate).toMatchObject({ label: 'jump', events: 2 });
    expect(oneLabel.candidate.description).toContain('(label "jump")');

    // As detected: original times, the discarded event included, the added one (no original time) not.
    const asDetected = await compare({
      reference,
      candidate: { kind: 'run_detected', analysis_uuid: run.analysis_uuid },
    });
    expect(asDetected.events.pairs.map((p) => p.candidate_s).concat(asDetected.events.extra)).toEqual(detected);
  });

  it('computes interval agreement frame by frame for two sets of ranges, binned % and the disagreements', async () => {
    const upload: [number, number][] = [
      [1.1, 1.5],
      [2, 2.4],
    ];
    const report = await compare({
      reference: { kind: 'track', annotation_config_uuid: handTrack },
      candidate: { kind: 'upload', ranges: upload },
      bin_s: 1,
    });
    const intervals = report.intervals!;
    // 150 frames. Track: frames 30–44, 60–71, 126–137 (39); upload: 33–44, 60–71 (24), all inside the track's.
    expect(intervals.slices).toBe(J.frames);
    expect(intervals.slice_s).toBeCloseTo(1 / 30, 15);
    const table = { both: 24, reference_only: 15, candidate_only: 0, neither: 111 };
    expect(intervals.table).toEqual(table);
    expect(intervals.percent_agreement).toBeCloseTo((135 / 150) * 100, 12);
    expect(intervals.kappa).toBeCloseTo(cohensKappa(table)!, 12);
    expect(intervals.reference_prevalence).toBeCloseTo(39 / 150, 12);
    expect(intervals.candidate_prevalence).toBeCloseTo(24 / 150, 12);
    const expectedBins = [
      [0, 0],
      [50, 40],
      [40, 40],
      [0, 0],
      [40, 0],
    ];
    intervals.bins.forEach((bin, k) => {
      expect(bin.reference_percent).toBeCloseTo(expectedBins[k]![0]!, 9);
      expect(bin.candidate_percent).toBeCloseTo(expectedBins[k]![1]!, 9);
    });
    expect(intervals.pearson_r).not.toBeNull();
    // Five bins with data: enough for r and the slope to be figures.
    expect([intervals.bins_used, intervals.min_bins, intervals.fit_caveat]).toEqual([5, 5, null]);
    expect(intervals.disagreements).toHaveLength(2);
    expect(intervals.disagreements[0]).toMatchObject({ side: 'reference_only' });
    expect(intervals.disagreements[0]!.start_s).toBeCloseTo(1, 12);
    expect(intervals.disagreements[0]!.end_s).toBeCloseTo(1.1, 12);
    expect(intervals.disagreements[1]!.start_s).toBeCloseTo(4.2, 12);
    expect(intervals.disagreements[1]!.end_s).toBeCloseTo(4.6, 12);
    // Events: the upload's starts are 1.1 and 2.0.
    expect([report.events.tp, report.events.fn, report.events.fp]).toEqual([2, 1, 0]);

    // Half-second slices: 10 slices, each in or out by its midpoint (0.25, 0.75, …).
    const coarse = await compare({
      reference: { kind: 'track', annotation_config_uuid: handTrack },
      candidate: { kind: 'upload', ranges: upload },
      slice_s: 0.5,
    });
    expect(coarse.intervals!.slices).toBe(10);
    expect(coarse.intervals!.table).toEqual({ both: 2, reference_only: 1, candidate_only: 0, neither: 7 });
  });

  it('answers viewers; outsiders get 404', async () => {
    const body = {
      reference: { kind: 'track', annotation_config_uuid: handTrack },
      candidate: { kind: 'upload', events: [1, 2] },
    };
    expect((await post(viewer, agreementUrl, body)).statusCode).toBe(200);
    const outside = await post(outsider, agreementUrl, body);
    expect(outside.statusCode).toBe(404);
    expect(outside.json()).toEqual({ errors: 'Not found.' });
  });

  it('refuses every bad input with a field error', async () => {
    const track = { kind: 'track', annotation_config_uuid: handTrack };
    const cases: [object, string, string | RegExp][] = [
      [{ reference: { kind: 'guess' }, candidate: track }, 'reference.kind', /kind must be one of/],
      [
        { reference: { kind: 'run_detected' }, candidate: track },
        'reference.analysis_uuid',
        'Name the run whose events this side reads.',
      ],
      [
        {
          reference: track,
          candidate: { kind: 'track', annotation_config_uuid: handTrack, analysis_uuid: run.analysis_uuid },
        },
        'candidate.analysis_uuid',
        /belongs to the kinds run_detected, run_reviewed and scorer/,
      ],
      [
        { reference: track, candidate: { kind: 'run_detected', analysis_uuid: run.analysis_uuid, label: 'x' } },
        'candidate.label',
        /belongs to the kind run_reviewed/,
      ],
      [
        { reference: track, candidate: { kind: 'track' } },
        'candidate.annotation_config_uuid',
        /Name the annotation track/,
      ],
      [{ reference: track, candidate: { kind: 'upload' } }, 'candidate.events', /Give the uploaded events/],
      [
        { reference: track, candidate: { kind: 'upload', events: [1], ranges: [[0, 1]] } },
        'candidate.events',
        'Give events or ranges, not both.',
      ],
      [
        { reference: track, candidate: { kind: 'upload', events: [-1] } },
        'candidate.events',
        'Event 1 (-1 s) is before 0 s.',
      ],
      [
        { reference: track, candidate: { kind: 'upload', events: [1, 9] } },
        'candidate.events',
        'Event 2 (9 s) is after the end of the video (5 s).',
      ],
      [
        {
          reference: track,
          candidate: {
            kind: 'upload',
            ranges: [
              [1, 2],
              [1.5, 3],
            ],
          },
        },
        'candidate.ranges',
        'Row 2: value 1.5 is not non-decreasing.',
      ],
      [
        { reference: track, candidate: { kind: 'upload', ranges: [[4, 6]] } },
        'candidate.ranges',
        /Row 1: value 6 is after the end of the video/,
      ],
      [
        { reference: track, candidate: { kind: 'run_detected', analysis_uuid: randomUUID() } },
        'candidate.analysis_uuid',
        'No run of this video has that id.',
      ],
      [
        { reference: track, candidate: { kind: 'run_detected', analysis_uuid: 'nope' } },
        'candidate.analysis_uuid',
        'No run of this video has that id.',
      ],
      [
        { reference: track, candidate: { kind: 'track', annotation_config_uuid: randomUUID() } },
        'candidate.annotation_config_uuid',
        'No annotation track of this video has that id.',
      ],
      [
        { reference: track, candidate: { kind: 'run_reviewed', analysis_uuid: run.analysis_uuid, label: 'groom' } },
        'candidate.label',
        'No event of this run has the label "groom".',
      ],
      [{ reference: track, candidate: track, tolerance_s: -1 }, 'tolerance_s', 'Must be between 0 and 60.'],
      [{ reference: track, candidate: track, tolerance_s: 'wide' }, 'tolerance_s', 'tolerance_s must be a number.'],
      [{ reference: track, candidate: track, slice_s: 0 }, 'slice_s', 'Must be more than 0.'],
      [{ reference: track, candidate: track, bin_s: 0.001 }, 'bin_s', 'A bin must be at least one slice long.'],
      [{ reference: track, candidate: track, slice_s: 0.0001, bin_s: 0.0001 }, 'bin_s', /more than 10,000 bins/],
      [{ reference: track, candidate: track, extra: 1 }, 'non_field_errors', /extra/],
    ];
    for (const [body, field, message] of cases) {
      const response = await post(owner, agreementUrl, body);
      expect(response.statusCode, `${JSON.stringify(body)} → ${response.body}`).toBe(400);
      const errors = response.json().errors as Record<string, string[]>;
      expect(errors[field], `${field} in ${response.body}`).toBeDefined();
      expect(
        errors[field]!.some((m) => (typeof message === 'string' ? m === message : message.test(m))),
        response.body,
      ).toBe(true);
    }
    // Both sides' problems in one answer.
    const both = await post(owner, agreementUrl, {
      reference: { kind: 'track', annotation_config_uuid: randomUUID() },
      candidate: { kind: 'run_reviewed', analysis_uuid: randomUUID() },
    });
    expect(Object.keys(both.json().errors).sort()).toEqual([
      'candidate.analysis_uuid',
      'reference.annotation_config_uuid',
    ]);
    // A run that has not finished has no events to compare.
    const [queued] = await t.ctx.db
      .insert(analyses)
      .values({
        projectUuid: project.projectUuid,
        subjectUuid: project.subjectUuid,
        videoUuid: videoUrl.split('/').at(-2)!,
        kind: 'movement_detection',
        parameters: {},
        softwareVersion: 'test',
        status: 'queued',
      })
      .returning();
    const unfinished = await post(owner, agreementUrl, {
      reference: track,
      candidate: { kind: 'run_detected', analysis_uuid: queued!.analysisUuid },
    });
    expect(unfinished.json().errors).toEqual({
      'candidate.analysis_uuid': ['That run has not succeeded, so it has no events.'],
    });
  });

  it('exports the report as CSV (one long table) and XLSX (a sheet per part)', async () => {
    const body = {
      reference: { kind: 'track', annotation_config_uuid: handTrack },
      candidate: {
        kind: 'upload',
        ranges: [
          [1.1, 1.5],
          [2, 2.4],
        ],
      },
      bin_s: 1,
    };
    const csv = await post(viewer, `${agreementUrl}export/?format=csv`, body);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="[^"]+_agreement-\d{4}-\d\d-\d\d\.csv"/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'section,item,value,reference_s,candidate_s,delta_s,start_s,end_s,reference_percent,candidate_percent',
    );
    expect(lines).toContain('figure,tp,2,,,,,,,');
    expect(lines).toContain('figure,reference,"Annotation track ""Jumps by hand""",,,,,,,');
    expect(lines).toContain('missed,,,4.2,,,,,,');
    expect(lines.filter((line) => line.startsWith('bin,'))).toHaveLength(5);
    expect(lines.filter((line) => line.startsWith('disagreement,reference_only,'))).toHaveLength(2);

    const xlsx = await post(viewer, `${agreementUrl}export/?format=xlsx`, body);
    expect(xlsx.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['summary', 'events', 'bins', 'disagreements']);
    const summary = workbook.getWorksheet('summary')!;
    const kappaRow = summary.getSheetValues().find((row) => Array.isArray(row) && row[1] === 'kappa') as unknown[];
    expect(kappaRow[2]).toBeCloseTo(cohensKappa({ both: 24, reference_only: 15, candidate_only: 0, neither: 111 })!, 9);
    expect(workbook.getWorksheet('events')!.rowCount).toBe(1 + 3);
    const bad = await post(viewer, `${agreementUrl}export/?format=pdf`, body);
    expect(bad.statusCode).toBe(400);
  });

  it('calibrates event detection against a reference: the F1 curve over k, the best setting, warnings; Apply reproduces it', async () => {
    const reference = { kind: 'upload', events: [1, 2, 3.5] };
    const response = await post(viewer, calibrateUrl(), { reference, target: 'events' });
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json() as Extract<CalibrationResponse, { target: 'events' }>;
    expect(result.target).toBe('events');
    expect(result.sweep).toBe('k');
    expect(result.points).toHaveLength(91);
    expect(result.points[0]).toMatchObject({ event_threshold_k: 1, refractory_s: 0.5 });
    const best = result.points[result.best!.index]!;
    expect(best.f1).toBe(1);
    expect(result.best!.parameters).toEqual({
      event_threshold_k: best.event_threshold_k,
      event_threshold: null,
      refractory_s: 0.5,
    });
    expect(result.warnings).toEqual([
      'The reference has only 3 events (fewer than 10): too few to trust the best setting.',
    ]);
    expect(result.points.every((p) => p.threshold === (p.event_threshold_k ?? 0) * result.noise_top)).toBe(true);

    // Apply: an event-detection run on the same series with the best parameters finds exactly what the sweep scored.
    const applied = await post(owner, analysisUrl, {
      kind: 'event_detection',
      source_analysis_uuid: run.analysis_uuid,
      parameters: result.best!.parameters,
    });
    expect(applied.statusCode, applied.body).toBe(201);
    const appliedRun = await waitForRun(applied.json().analysis_uuid);
    expect(appliedRun.summary).toMatchObject({ events: best.events, threshold: best.threshold });
    const check = await compare({
      reference,
      candidate: { kind: 'run_detected', analysis_uuid: appliedRun.analysis_uuid },
    });
    expect(check.events.f1).toBe(best.f1);

    // Absolute thresholds and several refractory periods.
    const absolute = (
      await post(viewer, calibrateUrl(), {
        reference,
        target: 'events',
        threshold: { from: 0, to: 100, step: 25 },
        refractory_s: [0.2, 2],
        tolerance_s: 0.1,
      })
    ).json() as Extract<CalibrationResponse, { target: 'events' }>;
    expect(absolute.sweep).toBe('threshold');
    expect(absolute.points.map((p) => [p.threshold, p.refractory_s])).toEqual(
      [0, 25, 50, 75, 100].flatMap((threshold) => [
        [threshold, 0.2],
        [threshold, 2],
      ]),
    );
    expect(absolute.points.every((p) => p.event_threshold_k === null)).toBe(true);
    expect(absolute.best!.parameters.event_threshold).toBe(absolute.points[absolute.best!.index]!.threshold);
  });

  it('calibrates freezing against a reference track: r, slope and mean absolute difference per setting; Apply gives its summary', async () => {
    const body = {
      reference: { kind: 'track', annotation_config_uuid: stillTrack },
      target: 'freezing',
      freeze_threshold: { from: 0, to: 50, step: 10 },
      min_freeze_s: [0.1, 0.5, 1],
    };
    const response = await post(viewer, calibrateUrl(), body);
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json() as Extract<CalibrationResponse, { target: 'freezing' }>;
    expect(result.bin_s).toBe(1);
    expect(result.points).toHaveLength(18);
    expect(result.bins).toHaveLength(5);
    const best = result.points[result.best!.index]!;
    const smallest = Math.min(...result.points.map((p) => p.mean_abs_diff ?? Number.POSITIVE_INFINITY));
    expect(best.mean_abs_diff).toBe(smallest);
    expect(result.best!.parameters).toMatchObject({
      freeze_threshold: best.freeze_threshold,
      min_freeze_s: best.min_freeze_s,
      bin_s: 1,
      event_threshold_k: 3,
      refractory_s: 0.5,
    });
    // 4.4 s (132 frames) of hand-scored stillness in 5 s: too little to trust (< 10 s), though not over 90%.
    expect(result.reference_percent).toBeCloseTo(88, 9);
    expect(result.warnings).toEqual([
      'The reference holds only 4.4 s of the behaviour (less than 10 s): too little to trust the best setting.',
    ]);

    const applied = await post(owner, analysisUrl, {
      kind: 'event_detection',
      source_analysis_uuid: run.analysis_uuid,
      parameters: result.best!.parameters,
    });
    expect(applied.statusCode, applied.body).toBe(201);
    const appliedRun = await waitForRun(applied.json().analysis_uuid);
    expect(appliedRun.status).toBe('succeeded');
    const freezing = appliedRun.summary!.freezing as { percent: number; bins: { percent: number | null }[] };
    expect(freezing.percent).toBe(best.percent);
    expect(freezing.bins.map((b) => b.percent)).toEqual(result.bins.map((b) => b.candidate_percent));

    // The default sweep: 0 to twice the noise top, the run's minimum among the durations.
    const defaults = (await post(viewer, calibrateUrl(), { reference: body.reference, target: 'freezing' })).json();
    expect(defaults.points.map((p: { min_freeze_s: number }) => p.min_freeze_s).slice(0, 3)).toEqual([0.5, 1, 2]);
  });

  it('exports the calibration curve as CSV and XLSX', async () => {
    const body = {
      reference: { kind: 'upload', events: [1, 2, 3.5] },
      target: 'events',
      k: { from: 2, to: 4, step: 1 },
    };
    const csv = await post(viewer, `${calibrateUrl()}export/?format=csv`, body);
    expect(csv.statusCode, csv.body).toBe(200);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'event_threshold_k,threshold,refractory_s,events,tp,fp,fn,precision,recall,f1,onset_error_mean_s,mean_abs_error_s,best',
    );
    expect(lines).toHaveLength(4);
    expect(lines.filter((line) => line.endsWith(',true'))).toHaveLength(1);
    const xlsx = await post(viewer, `${calibrateUrl()}export/?format=xlsx`, {
      reference: { kind: 'track', annotation_config_uuid: stillTrack },
      target: 'freezing',
      freeze_threshold: { from: 0, to: 20, step: 10 },
    });
    expect(xlsx.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['curve', 'summary', 'bins']);
    expect(workbook.getWorksheet('curve')!.getRow(1).values).toEqual([
      undefined,
      'freeze_threshold',
      'min_freeze_s',
      'percent',
      'pearson_r',
      'slope',
      'mean_abs_diff',
      'best',
    ]);
  });

  it('refuses bad calibrations with field errors', async () => {
    const events = { kind: 'upload', events: [1, 2] };
    const cases: [object, string, string | RegExp][] = [
      [{ reference: events }, 'target', 'target must be events or freezing.'],
      [
        { reference: events, target: 'events', k: { from: 0.5, to: 3, step: 0.1 } },
        'k.from',
        'Must be between 1 and 10.',
      ],
      [
        { reference: events, target: 'events', k: { from: 3, to: 2, step: 0.1 } },
        'k.to',
        'from must not be more than to.',
      ],
      [
        { reference: events, target: 'events', k: { from: 1, to: 2, step: 0 } },
        'k.step',
        'The step must be more than 0.',
      ],
      [
        {
          reference: events,
          target: 'events',
          k: { from: 1, to: 10, step: 0.1 },
          threshold: { from: 0, to: 1, step: 1 },
        },
        'threshold',
        'Sweep k or absolute thresholds, not both.',
      ],
      [
        { reference: events, target: 'events', threshold: { from: 0, to: 1000, step: 0.01 } },
        'threshold',
        /This sweep has 100001 settings \(at most 2000\)/,
      ],
      [{ reference: events, target: 'events', bin_s: 10 }, 'bin_s', 'bin_s does not apply to target events.'],
      [
        { reference: events, target: 'freezing', tolerance_s: 0.5 },
        'tolerance_s',
        'tolerance_s does not apply to target freezing.',
      ],
      [{ reference: events, target: 'freezing' }, 'reference.kind', /Freezing is calibrated against ranges/],
      [{ reference: { kind: 'upload', events: [] }, target: 'events' }, 'reference', /The reference has no events/],
      [
        { reference: events, target: 'events', refractory_s: [] },
        'refractory_s',
        'Give at least one refractory period.',
      ],
      [
        { reference: { kind: 'track', annotation_config_uuid: 'x' }, target: 'events' },
        'reference.annotation_config_uuid',
        'No annotation track of this video has that id.',
      ],
    ];
    for (const [body, field, message] of cases) {
      const response = await post(owner, calibrateUrl(), body);
      expect(response.statusCode, `${JSON.stringify(body)} → ${response.body}`).toBe(400);
      const errors = response.json().errors as Record<string, string[]>;
      expect(errors[field], `${field} in ${response.body}`).toBeDefined();
      expect(
        errors[field]!.some((m) => (typeof message === 'string' ? m === message : message.test(m))),
        response.body,
      ).toBe(true);
    }
    const missing = await post(owner, `${analysisUrl}${randomUUID()}/calibrate/`, {
      reference: events,
      target: 'events',
    });
    expect(missing.statusCode).toBe(404);
    expect((await post(outsider, calibrateUrl(), { reference: events, target: 'events' })).statusCode).toBe(404);
  });
});
