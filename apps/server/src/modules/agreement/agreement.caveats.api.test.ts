import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, type TestUser } from '../../../test/factories.js';
import { createProjectWithSubject, uploadVideo, waitForVideo } from '../../../test/factories-videos.js';
import { analysisFixtures, JUMPS_FIXTURE } from '../../../test/fixtures/videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import type { AgreementResponse, CalibrationResponse } from './agreement.schemas.js';

const J = JUMPS_FIXTURE;

/**
 * Issue 20, point 6 (ADR 016): figures that say when they mean little. r and the slope below MIN_FIT_BINS bins come
 * with the reason; a calibration recommends no setting that finds nothing, and says why.
 */
describe('agreement figures and calibration: caveats and no recommendation', () => {
  let t: TestApp;
  let owner: TestUser;
  let viewer: TestUser;
  let analysisUrl: string;
  let agreementUrl: string;
  let runUuid: string;
  let handTrack: string;
  let stillTrack: string;

  const post = (user: TestUser, url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers: user.headers, payload: payload as object });
  const compare = async (body: object) => {
    const response = await post(owner, agreementUrl, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as AgreementResponse;
  };
  const calibrateUrl = () => `${analysisUrl}${runUuid}/calibrate/`;

  async function createTrack(videoUrl: string, name: string, ranges: [number, number][]) {
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
    const project = await createProjectWithSubject(t.ctx, owner);
    await addMember(t.ctx, project.projectUuid, viewer.id, 'viewer');
    const uploaded = await uploadVideo(t.app, owner, project.videosUrl, analysisFixtures().jumpsMp4);
    expect(uploaded.statusCode).toBe(201);
    const videoUrl = `${project.videosUrl}${uploaded.json().video_uuid}/`;
    expect((await waitForVideo(t.app, owner, videoUrl)).status).toBe('ready');
    analysisUrl = `${videoUrl}analysis/`;
    agreementUrl = `${videoUrl}agreement/`;
    const created = await post(owner, analysisUrl, {
      kind: 'movement_detection',
      parameters: { rois: [{ start_s: 0, ...J.leftRoi }], freeze_threshold: 0, min_freeze_s: 0.5, bin_s: 1 },
    });
    expect(created.statusCode, created.body).toBe(201);
    runUuid = created.json().analysis_uuid;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const run = (
        await t.app.inject({ method: 'GET', url: `${analysisUrl}${runUuid}/`, headers: owner.headers })
      ).json();
      if (!['queued', 'running'].includes(run.status)) {
        expect(run.status).toBe('succeeded');
        break;
      }
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    handTrack = await createTrack(videoUrl, 'Jumps by hand', [
      [1, 1.5],
      [2, 2.4],
      [4.2, 4.6],
    ]);
    stillTrack = await createTrack(videoUrl, 'Still', [
      [0, 0.9],
      [1.1, 1.9],
      [2.1, 3.4],
      [3.6, 5],
    ]);
  }, 90_000);

  afterAll(async () => {
    await t?.close();
  });

  it('says r and the slope mean little below five bins, and still gives them', async () => {
    // 2.5 s bins: two points, so r is ±1 whatever the scorings; the answer says so.
    const report = await compare({
      reference: { kind: 'track', annotation_config_uuid: handTrack },
      candidate: { kind: 'upload', ranges: [[1.1, 1.5]] },
      bin_s: 2.5,
    });
    const intervals = report.intervals!;
    expect(intervals.bins).toHaveLength(2);
    expect(Math.abs(intervals.pearson_r!)).toBeCloseTo(1, 12);
    expect(intervals.bins_used).toBe(2);
    expect(intervals.min_bins).toBe(5);
    expect(intervals.fit_caveat).toBe(
      'Only 2 bins of data: r and the slope need at least 5 to mean anything (two points always make r = ±1). Choose a shorter bin.',
    );
    // The CSV carries the caveat beside the figures.
    const csv = await post(owner, `${agreementUrl}export/?format=csv`, {
      reference: { kind: 'track', annotation_config_uuid: handTrack },
      candidate: { kind: 'upload', ranges: [[1.1, 1.5]] },
      bin_s: 2.5,
    });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body).toContain('figure,bins_used,2,');
    expect(csv.body).toContain('figure,fit_caveat,Only 2 bins of data');
  });

  it('recommends no setting that finds nothing, and says why', async () => {
    // Nothing happens at 0.4 s or 4.7 s: every setting's events miss both (TP 0, F1 0).
    const missing = (
      await post(viewer, calibrateUrl(), {
        reference: { kind: 'upload', events: [0.4, 4.7] },
        target: 'events',
        tolerance_s: 0.1,
      })
    ).json() as Extract<CalibrationResponse, { target: 'events' }>;
    expect(missing.points.every((p) => p.tp === 0)).toBe(true);
    expect(missing.points.some((p) => p.events > 0)).toBe(true);
    expect(missing.best).toBeNull();
    expect(missing.no_recommendation).toBe(
      'No setting finds any of the reference’s 2 events within ±0.1 s (F1 0 everywhere), so none is recommended: check that the reference scores this video, or widen the sweep or the tolerance.',
    );
    // Thresholds above every value: no setting detects anything at all.
    const silent = (
      await post(viewer, calibrateUrl(), {
        reference: { kind: 'upload', events: [1, 2, 3.5] },
        target: 'events',
        threshold: { from: 1e9, to: 2e9, step: 1e9 },
      })
    ).json() as Extract<CalibrationResponse, { target: 'events' }>;
    expect(silent.points.map((p) => p.events)).toEqual([0, 0]);
    expect(silent.best).toBeNull();
    expect(silent.no_recommendation).toBe(
      'No setting of the sweep detects any event, so none is recommended: sweep lower thresholds.',
    );
    // A setting that does find the events is recommended, with no reason against it.
    const found = (
      await post(viewer, calibrateUrl(), { reference: { kind: 'upload', events: [1, 2, 3.5] }, target: 'events' })
    ).json() as Extract<CalibrationResponse, { target: 'events' }>;
    expect(found.best).not.toBeNull();
    expect(found.no_recommendation).toBeNull();
    // The XLSX summary says why instead of listing best_ parameters.
    const xlsx = await post(viewer, `${calibrateUrl()}export/?format=xlsx`, {
      reference: { kind: 'upload', events: [0.4, 4.7] },
      target: 'events',
      tolerance_s: 0.1,
    });
    expect(xlsx.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const summary: unknown[][] = [];
    book.getWorksheet('summary')!.eachRow((row) => summary.push((row.values as unknown[]).slice(1)));
    expect(summary.find((row) => row[0] === 'no_recommendation')?.[1]).toBe(missing.no_recommendation);
    expect(summary.some((row) => String(row[0]).startsWith('best_'))).toBe(false);
  });

  it('recommends no freezing setting that detects no freezing', async () => {
    // A minimum of a minute in a 5 s video: no still stretch is long enough, so nothing freezes.
    const result = (
      await post(viewer, calibrateUrl(), {
        reference: { kind: 'track', annotation_config_uuid: stillTrack },
        target: 'freezing',
        freeze_threshold: { from: 0, to: 10, step: 10 },
        min_freeze_s: [60],
      })
    ).json() as Extract<CalibrationResponse, { target: 'freezing' }>;
    expect(result.points.every((p) => p.percent === 0)).toBe(true);
    expect(result.best).toBeNull();
    expect(result.no_recommendation).toMatch(/^No setting of the sweep detects any freezing/);
  });
});
