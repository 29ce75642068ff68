/**
 * A batch's results table, group statistics and plot over HTTP (issue 23, ADR 035), on finished runs written
 * straight to the database with hand-checkable figures: event counts 3, 5, 4 (control) and 7, 9, 8, 10 (treated),
 * one run without a group, and a three-group batch 1–3 / 4–6 / 7–9 whose ANOVA and Kruskal–Wallis are worked
 * below from their definitions.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, type TestUser } from '../../../test/factories.js';
import { createProjectWithSubject } from '../../../test/factories-videos.js';
import { readPng } from '../../../test/png-read.js';
import { findAll, readSvg } from '../../../test/svg-read.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { analyses, analysisEvents, batches, batchRuns, subjects, videos } from '../../db/schema.js';
import { hedgesG, mannWhitney, welchT } from './engine/group-statistics.js';

type Cell = string | number | boolean | null;
interface Page {
  kind: string;
  layout: string;
  columns: { name: string; role: string; unit: string | null }[];
  count: number;
  results: Cell[][];
}
interface Statistics {
  groups: string[];
  runs: number;
  runs_without_group: number;
  measures: {
    name: string;
    unit: string;
    groups: Record<string, number | string | null>[];
    tests: {
      test: string;
      statistic_name: string;
      statistic: number;
      df1: number | null;
      df2: number | null;
      p: number | null;
    }[];
  }[];
}

const close = (actual: number, expected: number) =>
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected)));

describe('batch results, statistics and plots', () => {
  let t: TestApp;
  let owner: TestUser;
  let viewer: TestUser;
  let projectUuid: string;
  let protocolUuid: string;
  let twoGroups: string;
  let threeGroups: string;

  const get = async (url: string, user = owner) => {
    const response = await t.app.inject({ method: 'GET', url, headers: user.headers });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response;
  };
  const batchUrl = (uuid: string) => `/api/projects/${projectUuid}/batches/${uuid}/`;

  async function newBatch() {
    const [batch] = await t.ctx.db
      .insert(batches)
      .values({ projectUuid, protocolUuid, protocolVersion: 1, kind: 'movement_detection', selection: {} })
      .returning();
    return batch!.batchUuid;
  }

  /**
   * A subject with one video and a finished one-minute run in the batch: `detected` events, of which `discarded` are
   * discarded; `reviewed` events carry a review decision (all by default). Freezing 20 % (0–30 s: 10 %, 30–60 s: 30 %).
   */
  async function seedRun(
    batchUuid: string,
    name: string,
    group: string,
    detected: number,
    options: {
      discarded?: number;
      reviewed?: number;
      metadata?: Record<string, unknown>;
      status?: 'failed';
      attempt?: number;
      subjectUuid?: string;
      videoUuid?: string;
    } = {},
  ) {
    let subjectUuid = options.subjectUuid;
    let videoUuid = options.videoUuid;
    if (!subjectUuid || !videoUuid) {
      const [subject] = await t.ctx.db
        .insert(subjects)
        .values({ projectUuid, name, group, metadata: options.metadata ?? {} })
        .returning();
      subjectUuid = subject!.subjectUuid;
      videoUuid = randomUUID();
      await t.ctx.db.insert(videos).values({
        videoUuid,
        projectUuid,
        subjectUuid,
        name: `${name} day 1`,
        originalFilename: `${name}.mp4`,
        status: 'ready',
        fps: 30,
        frameCount: 1800,
        durationS: 60,
        recordedAt: new Date('2026-10-01T09:00:00Z'),
      });
    }
    const [run] = await t.ctx.db
      .insert(analyses)
      .values({
        projectUuid,
        subjectUuid,
        videoUuid,
        kind: 'movement_detection',
        parameters: {},
        status: options.status ?? 'succeeded',
        progress: 1,
        softwareVersion: 'test',
        protocolUuid,
        protocolVersion: 1,
        source: { fps: 30, frameCount: 1800 },
        summary: {
          events: detected,
          duration_s: 60,
          freezing: {
            percent: 20,
            freezing_frames: 360,
            valid_frames: 1800,
            bins: [
              { start_s: 0, end_s: 30, percent: 10 },
              { start_s: 30, end_s: 60, percent: 30 },
            ],
          },
        },
      })
      .returning();
    const reviewed = options.reviewed ?? detected;
    if (detected > 0) {
      await t.ctx.db.insert(analysisEvents).values(
        Array.from({ length: detected }, (_, i) => ({
          analysisUuid: run!.analysisUuid,
          id: i + 1,
          time: i + 1,
          originalTime: i + 1,
          discarded: i < (options.discarded ?? 0),
          reviewedAt: i < reviewed ? new Date() : null,
          reviewedById: i < reviewed ? owner.id : null,
        })),
      );
    }
    await t.ctx.db
      .insert(batchRuns)
      .values({ analysisUuid: run!.analysisUuid, batchUuid, videoUuid, attempt: options.attempt ?? 1 });
    return { subjectUuid, videoUuid, analysisUuid: run!.analysisUuid };
  }

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.ctx);
    viewer = await createUser(t.ctx);
    projectUuid = (await createProjectWithSubject(t.ctx, owner)).projectUuid;
    await addMember(t.ctx, projectUuid, viewer.id, 'viewer');
    const protocol = await t.app.inject({
      method: 'POST',
      url: `/api/projects/${projectUuid}/protocols/`,
      headers: owner.headers,
      payload: { name: 'Events', kind: 'movement_detection', parameters: {} },
    });
    protocolUuid = protocol.json().protocol_uuid;

    twoGroups = await newBatch();
    await seedRun(twoGroups, 'C1', 'control', 3, { discarded: 1, metadata: { sex: 'F', age: 10 } });
    // C2's first attempt failed; the retry (attempt 2) is the run the table shows.
    const failed = await seedRun(twoGroups, 'C2', 'control', 0, { status: 'failed', metadata: { sex: 'F' } });
    await seedRun(twoGroups, 'C2', 'control', 5, { attempt: 2, ...failed });
    await seedRun(twoGroups, 'C3', 'control', 4, { metadata: { sex: 'F' } });
    await seedRun(twoGroups, 'N1', '', 6);
    await seedRun(twoGroups, 'T1', 'treated', 7, { reviewed: 3, metadata: { sex: 'M' } });
    await seedRun(twoGroups, 'T2', 'treated', 9, { reviewed: 0 });
    await seedRun(twoGroups, 'T3', 'treated', 8);
    await seedRun(twoGroups, 'T4', 'treated', 10);
    // A video whose run failed has no row.
    await seedRun(twoGroups, 'F1', 'control', 0, { status: 'failed' });

    threeGroups = await newBatch();
    for (const [g, values] of [
      ['g1', [1, 2, 3]],
      ['g2', [4, 5, 6]],
      ['g3', [7, 8, 9]],
    ] as const) {
      for (const [i, value] of values.entries()) await seedRun(threeGroups, `${g}-${i}`, g, value);
    }
  });

  afterAll(async () => {
    await t?.close();
  });

  it('lists one row per finished run with who and what it analysed, then a column per measure (wide)', async () => {
    const page = (await get(`${batchUrl(twoGroups)}results/`, viewer)).json() as Page;
    expect(page.kind).toBe('movement_detection');
    expect(page.columns.map((column) => column.name)).toEqual([
      'batch_uuid',
      'subject',
      'subject_uuid',
      'group',
      'subject_age',
      'subject_sex',
      'video',
      'video_uuid',
      'recorded_at',
      'analysis_uuid',
      'protocol_version',
      'reviewed',
      'detected_events',
      'detected_rate_per_min',
      'kept_events',
      'kept_rate_per_min',
      'freezing_percent',
      'freezing_percent_0_30s',
      'freezing_percent_30_60s',
    ]);
    expect(page.columns.find((column) => column.name === 'detected_rate_per_min')).toEqual({
      name: 'detected_rate_per_min',
      role: 'measure',
      unit: 'events/min',
    });
    expect(page.count).toBe(8);
    const rows = Object.fromEntries(page.results.map((row) => [row[1], row]));
    expect(Object.keys(rows)).toEqual(['C1', 'C2', 'C3', 'N1', 'T1', 'T2', 'T3', 'T4']);
    const column = (name: string) => page.columns.findIndex((c) => c.name === name);
    const pick = (subject: string, ...names: string[]) => names.map((name) => rows[subject]![column(name)]);
    const measures = [
      'group',
      'subject_age',
      'subject_sex',
      'recorded_at',
      'reviewed',
      'detected_events',
      'detected_rate_per_min',
      'kept_events',
      'kept_rate_per_min',
      'freezing_percent',
      'freezing_percent_0_30s',
      'freezing_percent_30_60s',
    ];
    // Reviewed: every event decided → kept counts (one discarded); partly or not reviewed → kept left empty.
    expect(pick('C1', ...measures)).toEqual([
      'control',
      10,
      'F',
      '2026-10-01T09:00:00.000Z',
      true,
      3,
      3,
      2,
      2,
      20,
      10,
      30,
    ]);
    expect(pick('C2', ...measures.slice(4, 9))).toEqual([true, 5, 5, 5, 5]);
    expect(pick('T1', ...measures.slice(4, 9))).toEqual([false, 7, 7, null, null]);
    expect(pick('T2', ...measures.slice(4, 9))).toEqual([false, 9, 9, null, null]);
    expect(pick('N1', 'group', 'subject_sex')).toEqual(['', null]);
    expect(pick('C1', 'batch_uuid', 'protocol_version')).toEqual([twoGroups, 1]);

    const second = (await get(`${batchUrl(twoGroups)}results/?page=2&page_size=3`)).json() as Page;
    expect(second.results.map((row) => row[1])).toEqual(['N1', 'T1', 'T2']);
  });

  it('writes the long layout (run × measure: measure, value, unit), as JSON, CSV and XLSX', async () => {
    const long = (await get(`${batchUrl(twoGroups)}results/?layout=long&page_size=1000`)).json() as Page;
    const names = long.columns.map((column) => column.name);
    expect(names.slice(-3)).toEqual(['measure', 'value', 'unit']);
    expect(long.count).toBe(8 * 7);
    const c1 = long.results.filter((row) => row[1] === 'C1').map((row) => row.slice(-3));
    expect(c1).toEqual([
      ['detected_events', 3, 'events'],
      ['detected_rate_per_min', 3, 'events/min'],
      ['kept_events', 2, 'events'],
      ['kept_rate_per_min', 2, 'events/min'],
      ['freezing_percent', 20, '%'],
      ['freezing_percent_0_30s', 10, '%'],
      ['freezing_percent_30_60s', 30, '%'],
    ]);

    const csv = await get(`${batchUrl(twoGroups)}results/?format=csv&layout=long`);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain('_results_long.csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines).toHaveLength(1 + 8 * 7);
    expect(lines[0]).toBe(names.join(','));
    const t1Kept = lines.find((line) => line.includes(',T1,') && line.includes(',kept_events,'))!;
    expect(t1Kept.endsWith(',kept_events,,events')).toBe(true);

    const wide = await get(`${batchUrl(twoGroups)}results/?format=csv`);
    const [header, first] = wide.body.trim().split('\r\n');
    expect(header!.split(',').slice(-7)).toEqual([
      'detected_events',
      'detected_rate_per_min',
      'kept_events',
      'kept_rate_per_min',
      'freezing_percent',
      'freezing_percent_0_30s',
      'freezing_percent_30_60s',
    ]);
    expect(first!.split(',').slice(-8)).toEqual(['true', '3', '3', '2', '2', '20', '10', '30']);

    const xlsx = await get(`${batchUrl(twoGroups)}results/?format=xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const [, head, ...rows] = sheet.getSheetValues() as unknown[][];
    expect(head!.slice(1)).toEqual(header!.split(','));
    expect(rows).toHaveLength(8);
    expect(rows[0]!.slice(-7)).toEqual([3, 3, 2, 2, 20, 10, 30]);
    const definitions = workbook.getWorksheet('definitions')!.getSheetValues() as unknown[][];
    expect(definitions.some((row) => row?.[1] === 'kept_events' && String(row[3]).includes('reviewed'))).toBe(true);
  });

  it('gives per group n, mean, SD, SEM, median and IQR, and the two-group tests, leaving out runs without a group', async () => {
    const statistics = (await get(`${batchUrl(twoGroups)}statistics/`, viewer)).json() as Statistics;
    expect(statistics).toMatchObject({ groups: ['control', 'treated'], runs: 8, runs_without_group: 1 });
    const detected = statistics.measures.find((measure) => measure.name === 'detected_events')!;
    const [control, treated] = detected.groups;
    expect(control).toMatchObject({ group: 'control', n: 3, mean: 4, sd: 1, median: 4, q1: 3.5, q3: 4.5, iqr: 1 });
    close(control!.sem as number, 1 / Math.sqrt(3));
    // treated 7, 9, 8, 10: variance 5/3; type-7 quartiles 7.75 and 9.25.
    expect(treated).toMatchObject({ group: 'treated', n: 4, mean: 8.5, median: 8.5, q1: 7.75, q3: 9.25, iqr: 1.5 });
    close(treated!.sd as number, Math.sqrt(5 / 3));
    close(treated!.sem as number, Math.sqrt(5 / 3) / 2);

    const [t, u, g] = detected.tests;
    // Welch: SE² = 1/3 + (5/3)/4 = 3/4, t = −4.5 / √0.75; df = 0.75² / ((1/3)²/2 + (5/12)²/3) = 3888/784.
    expect(t).toMatchObject({ test: "Welch's t-test", statistic_name: 't', df2: null });
    close(t!.statistic, -4.5 / Math.sqrt(0.75));
    close(t!.df1!, 3888 / 784);
    expect(t!.p).toBe(welchT([3, 5, 4], [7, 9, 8, 10]).p);
    // Every control value below every treated one: U = 0, exact p = 2 / C(7, 3) = 2/35.
    expect(u).toMatchObject({ test: 'Mann–Whitney U test (exact)', statistic_name: 'U', statistic: 0 });
    close(u!.p!, 2 / 35);
    expect(u!.p).toBe(mannWhitney([3, 5, 4], [7, 9, 8, 10]).p);
    // Hedges' g: pooled variance (2·1 + 3·5/3) / 5 = 1.4; J = Γ(5/2) / (√(5/2)·Γ(2)) = (3/4)√π / √2.5.
    const j = ((3 / 4) * Math.sqrt(Math.PI)) / Math.sqrt(2.5);
    expect(g).toMatchObject({ statistic_name: 'g', df1: 5, p: null });
    close(g!.statistic, (j * -4.5) / Math.sqrt(1.4));
    expect(g!.statistic).toBe(hedgesG([3, 5, 4], [7, 9, 8, 10]).g);

    // Kept events: only reviewed runs (C1 2, C2 5, C3 4; T3 8, T4 10).
    const kept = statistics.measures.find((measure) => measure.name === 'kept_events')!;
    expect(kept.groups.map((group) => [group.n, group.mean])).toEqual([
      [3, 11 / 3],
      [2, 9],
    ]);
  });

  it('compares three groups with Welch’s ANOVA and Kruskal–Wallis', async () => {
    const statistics = (await get(`${batchUrl(threeGroups)}statistics/`)).json() as Statistics;
    expect(statistics.groups).toEqual(['g1', 'g2', 'g3']);
    const [f, h] = statistics.measures.find((measure) => measure.name === 'detected_events')!.tests;
    // Equal sizes and variances (1): weights 3, grand mean 5, between 54, Σ(1 − w/W)²/(n − 1)/(k² − 1) = 1/12;
    // F = 54 / (2·(1 + 2·1·(1/12))) = 162/7, df2 = 1/(3/12) = 4; P(F(2, 4) > x) = (1 + x/2)^−2 = (7/88)².
    expect(f).toMatchObject({ test: "Welch's one-way ANOVA", statistic_name: 'F', df1: 2 });
    close(f!.statistic, 162 / 7);
    close(f!.df2!, 4);
    close(f!.p!, 49 / 7744);
    // Ranks = values: rank sums 6, 15, 24; H = 12/(9·10)·(36 + 225 + 576)/3 − 30 = 7.2; χ²(2) tail = e^(−3.6).
    expect(h).toMatchObject({ test: 'Kruskal–Wallis rank-sum test (tie-corrected)', statistic_name: 'H', df1: 2 });
    close(h!.statistic, 7.2);
    close(h!.p!, Math.exp(-3.6));
  });

  it('exports the statistics as CSV and XLSX with the same figures', async () => {
    const statistics = (await get(`${batchUrl(twoGroups)}statistics/`)).json() as Statistics;
    const csv = await get(`${batchUrl(twoGroups)}statistics/?format=csv&table=tests`);
    const [header, ...lines] = csv.body.trim().split('\r\n');
    expect(header).toBe('measure,unit,test,statistic_name,statistic,df1,df2,p,note');
    const welch = lines.find((line) => line.startsWith("detected_events,events,Welch's t-test"))!.split(',');
    const json = statistics.measures[0]!.tests[0]!;
    close(Number(welch[4]), json.statistic);
    close(Number(welch[5]), json.df1!);
    expect(Math.abs(Number(welch[7]) - json.p!)).toBeLessThan(1e-12);
    const xlsx = await get(`${batchUrl(twoGroups)}statistics/?format=xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const [, head, ...rows] = workbook.getWorksheet('descriptives')!.getSheetValues() as unknown[][];
    expect(head!.slice(1)).toEqual(['measure', 'unit', 'group', 'n', 'mean', 'sd', 'sem', 'median', 'q1', 'q3', 'iqr']);
    expect(rows[0]!.slice(1, 6)).toEqual(['detected_events', 'events', 'control', 3, 4]);
    expect(workbook.getWorksheet('tests')).toBeDefined();
  });

  it('draws a measure by group: a point per run and the group names in the SVG; a PNG that decodes', async () => {
    const svg = await get(`${batchUrl(twoGroups)}statistics/figure/?measure=detected_events&format=svg`);
    expect(svg.headers['content-type']).toContain('image/svg+xml');
    const root = readSvg(svg.body);
    const points = findAll(root, (node) => node.attributes.class === 'point');
    expect(points.map((point) => Number(point.attributes['data-value'])).sort((a, b) => a - b)).toEqual([
      3, 4, 5, 7, 8, 9, 10,
    ]);
    expect(findAll(root, (node) => node.attributes.class === 'group-label').map((node) => node.text)).toEqual([
      'control',
      'treated',
    ]);
    const means = findAll(root, (node) => node.attributes.class === 'mean-sem').map((node) =>
      Number(node.attributes['data-mean']),
    );
    expect(means).toEqual([4, 8.5]);
    // Whiskers reach the most extreme value within 1.5 IQR: every value here.
    expect(findAll(root, (node) => node.attributes.class === 'box')).toHaveLength(2);

    const png = await get(`${batchUrl(twoGroups)}statistics/figure/?measure=detected_events`);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-disposition']).toContain('detected_events.png');
    const decoded = readPng(new Uint8Array(png.rawPayload));
    expect(decoded.width).toBe(Number(root.attributes.width));
    expect(decoded.height).toBe(Number(root.attributes.height));
    // Something other than white was drawn.
    expect(decoded.pixels.some((value) => value < 200)).toBe(true);

    const unknown = await t.app.inject({
      method: 'GET',
      url: `${batchUrl(twoGroups)}statistics/figure/?measure=nope`,
      headers: owner.headers,
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors.measure[0]).toContain('detected_events');
  });

  it('gives location runs their distance, speed and zone columns (overall and per bin), with units', async () => {
    const protocol = await t.app.inject({
      method: 'POST',
      url: `/api/projects/${projectUuid}/protocols/`,
      headers: owner.headers,
      payload: { name: 'Arena', kind: 'location_tracking', parameters: {} },
    });
    const [batch] = await t.ctx.db
      .insert(batches)
      .values({
        projectUuid,
        protocolUuid: protocol.json().protocol_uuid,
        protocolVersion: 1,
        kind: 'location_tracking',
        selection: {},
      })
      .returning();
    const zone = (time: number, entries: number) => ({
      name: 'centre',
      time_s: time,
      percent: (time / 60) * 100,
      entries,
      latency_s: 1.5,
      distance_px: 400,
    });
    const { videoUuid } = await seedRun(batch!.batchUuid, 'L1', 'control', 0);
    const [subject] = await t.ctx.db.select().from(videos).where(eq(videos.videoUuid, videoUuid));
    const [run] = await t.ctx.db
      .insert(analyses)
      .values({
        projectUuid,
        subjectUuid: subject!.subjectUuid,
        videoUuid,
        kind: 'location_tracking',
        parameters: {},
        status: 'succeeded',
        softwareVersion: 'test',
        source: { fps: 30, frameCount: 1800 },
        summary: {
          events: 0,
          duration_s: 60,
          location: {
            frames: 1800,
            frames_tracked: 1800,
            tracked_s: 60,
            distance_px: 1200,
            distance: 60,
            unit: 'cm',
            mean_speed: 1,
            zones: [zone(20, 3)],
            notes: [],
            bins: [
              { start_s: 0, end_s: 30, frames_tracked: 900, distance_px: 500, distance: 25, zones: [zone(5, 1)] },
              { start_s: 30, end_s: 60, frames_tracked: 900, distance_px: 700, distance: 35, zones: [zone(15, 2)] },
            ],
          },
        },
      })
      .returning();
    // The newest attempt of the video is the location run.
    await t.ctx.db
      .insert(batchRuns)
      .values({ analysisUuid: run!.analysisUuid, batchUuid: batch!.batchUuid, videoUuid, attempt: 2 });
    const page = (await get(`${batchUrl(batch!.batchUuid)}results/?layout=long`)).json() as Page;
    expect(page.kind).toBe('location_tracking');
    expect(page.columns.map((column) => column.name)).not.toContain('reviewed');
    const figures = page.results.map((row) => row.slice(-3));
    expect(figures).toEqual([
      ['distance_px', 1200, 'px'],
      ['distance_cm', 60, 'cm'],
      ['mean_speed_px_per_s', 20, 'px/s'],
      ['mean_speed_cm_per_s', 1, 'cm/s'],
      ['zone_centre_time_s', 20, 's'],
      ['zone_centre_percent', 33.33, '%'],
      ['zone_centre_entries', 3, 'entries'],
      ['zone_centre_latency_s', 1.5, 's'],
      ['zone_centre_distance_px', 400, 'px'],
      ['bin_0_30s_distance_px', 500, 'px'],
      ['bin_0_30s_distance_cm', 25, 'cm'],
      ['bin_0_30s_zone_centre_time_s', 5, 's'],
      ['bin_0_30s_zone_centre_percent', 8.3, '%'],
      ['bin_0_30s_zone_centre_entries', 1, 'entries'],
      ['bin_0_30s_zone_centre_latency_s', 1.5, 's'],
      ['bin_0_30s_zone_centre_distance_px', 400, 'px'],
      ['bin_30_60s_distance_px', 700, 'px'],
      ['bin_30_60s_distance_cm', 35, 'cm'],
      ['bin_30_60s_zone_centre_time_s', 15, 's'],
      ['bin_30_60s_zone_centre_percent', 25, '%'],
      ['bin_30_60s_zone_centre_entries', 2, 'entries'],
      ['bin_30_60s_zone_centre_latency_s', 1.5, 's'],
      ['bin_30_60s_zone_centre_distance_px', 400, 'px'],
    ]);
    const wide = (await get(`${batchUrl(batch!.batchUuid)}results/`)).json() as {
      measures: { name: string; meaning: string }[];
    };
    expect(wide.measures.find((measure) => measure.name === 'zone_centre_entries')!.meaning).toContain('out→in');
    expect(wide.measures.find((measure) => measure.name === 'bin_0_30s_distance_cm')!.meaning).toMatch(
      /^From 0 s to 30 s: /,
    );
  });

  it("gives a protocol's results across its batches", async () => {
    const page = (await get(`/api/projects/${projectUuid}/protocols/${protocolUuid}/results/`)).json() as Page;
    expect(page.count).toBe(8 + 9);
    expect(new Set(page.results.map((row) => row[0]))).toEqual(new Set([twoGroups, threeGroups]));
    const missing = await t.app.inject({
      method: 'GET',
      url: `/api/projects/${projectUuid}/protocols/${randomUUID()}/results/`,
      headers: owner.headers,
    });
    expect(missing.statusCode).toBe(404);
  });
});
