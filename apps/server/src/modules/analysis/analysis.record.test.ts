import { randomUUID } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, type TestUser } from '../../../test/factories.js';
import { createProjectWithSubject, createSubjectRow, type ProjectWithSubject } from '../../../test/factories-videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { analyses, analysisEvents, videos } from '../../db/schema.js';
import { analysisKeys } from '../../lib/storage-keys.js';
import { writeSeriesCsv } from './engine/series-csv.js';

/**
 * The record a paper cites (issue 20): one set of event counts everywhere (detected and after review), export numbers
 * without floating-point noise, and export files named after what they hold. Bypass ranges: analysis.bypass.test.ts.
 */
describe('the record: counts, export numbers, file names', () => {
  let t: TestApp;
  let owner: TestUser;
  let viewer: TestUser;
  let project: ProjectWithSubject;
  let projectName: string;
  let videoBase: string;
  let analysisUrl: string;
  let runUuid: string;

  const call = (user: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });

  /** A video of 1629.47 s (48,884 frames at 30 fps), as its probe gives it: float noise in its duration. */
  const DURATION = 1629.4666666666667;
  const EVENTS = 104;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.ctx);
    viewer = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
    await addMember(t.ctx, project.projectUuid, viewer.id, 'viewer');
    projectName = (await call(owner, 'GET', `/api/projects/${project.projectUuid}/`)).json().name;
    // Subject "M3" with the video "open field.mp4" and a succeeded run of 104 events at noisy times.
    const subjectUuid = await createSubjectRow(t.ctx, project.projectUuid, 'M3');
    const videoUuid = randomUUID();
    await t.ctx.db.insert(videos).values({
      videoUuid,
      projectUuid: project.projectUuid,
      subjectUuid,
      name: 'open field.mp4',
      originalFilename: 'open field.mp4',
      status: 'ready',
      fps: 30,
      frameCount: 48_884,
      durationS: DURATION,
      width: 320,
      height: 240,
    });
    const [run] = await t.ctx.db
      .insert(analyses)
      .values({
        projectUuid: project.projectUuid,
        subjectUuid,
        videoUuid,
        kind: 'movement_detection',
        parameters: {},
        status: 'succeeded',
        softwareVersion: 'test',
        source: { fps: 30 },
        createdById: owner.id,
        createdAt: new Date('2026-11-27T10:00:00Z'),
        nextEventId: EVENTS + 1,
        summary: {
          samples: 48_884,
          valid_samples: 48_884,
          duration_s: DURATION,
          events: EVENTS,
          event_rate_per_min: (EVENTS / DURATION) * 60,
          threshold: 20.199797999999998,
          noise_top: 6.733265999999999,
          freezing: { percent: 9.999999999999995, freezing_frames: 4888, valid_frames: 48_884, bins: [] },
          frames_per_second: null,
        },
      })
      .returning();
    runUuid = run!.analysisUuid;
    await t.ctx.db.insert(analysisEvents).values(
      Array.from({ length: EVENTS }, (_, i) => ({
        analysisUuid: runUuid,
        id: i + 1,
        time: i * 15.1 + 0.1 + 0.2,
        originalTime: i * 15.1 + 0.1 + 0.2,
      })),
    );
    // Its series, stored as a run stores it (values, and the CSV users download).
    const keys = analysisKeys({ projectUuid: project.projectUuid, videoUuid, analysisUuid: runUuid });
    const values = Float64Array.from({ length: 90 }, (_, i) => (i % 3 === 0 ? Number.NaN : i * 0.1 + 0.2));
    await t.ctx.storage.write(keys.series, Buffer.from(values.buffer));
    const csvPath = path.join(os.tmpdir(), `series-${randomUUID()}.csv`);
    await writeSeriesCsv(csvPath, { values, times: null, fps: 30 });
    await t.ctx.storage.write(keys.seriesCsv, await readFile(csvPath));
    await rm(csvPath);
    await t.ctx.db
      .update(analyses)
      .set({ seriesKey: keys.series, seriesCsvKey: keys.seriesCsv, sampleCount: 90 })
      .where(eq(analyses.analysisUuid, runUuid));
    videoBase = `/api/projects/${project.projectUuid}/subjects/${subjectUuid}/videos/${videoUuid}/`;
    analysisUrl = `${videoBase}analysis/`;

    // One discard, and a flag on the discarded event.
    const update = await call(owner, 'POST', `${analysisUrl}update-events/`, {
      analysis_uuid: runUuid,
      version: 0,
      changes: [
        { action: 'discard', id: 5 },
        { action: 'flag', id: 5 },
      ],
    });
    expect(update.statusCode, update.body).toBe(200);

    // An annotation track whose bout has noisy ends.
    const track = await call(owner, 'POST', `${videoBase}annotations/config/`, { name: 'grooming' });
    expect(track.statusCode, track.body).toBe(201);
    const put = await call(owner, 'PUT', `${videoBase}annotations/${track.json().annotation_config_uuid}/`, {
      ranges: [[0.1 + 0.2, 20.199797999999998]],
      version: 0,
    });
    expect(put.statusCode, put.body).toBe(200);
  }, 60_000);

  afterAll(() => t?.close());

  // The counts after that review, with the definitions of analysis.counts.ts.
  const DETECTED_RATE = 3.829; // 104 / 1629.4667 s × 60
  const KEPT_RATE = 3.793; // 103 / 1629.4667 s × 60
  const expectedCounts = {
    detected: 104,
    detected_rate_per_min: DETECTED_RATE,
    kept: 103,
    kept_rate_per_min: KEPT_RATE,
    discarded: 1,
    flagged: 1,
    added: 0,
    reviewed: 1,
    unlabelled: 103,
    by_label: {},
  };

  async function readXlsx(body: Buffer) {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(body as unknown as ArrayBuffer);
    return workbook;
  }

  /** The sheet's rows as objects by header. */
  function sheetRows(sheet: ExcelJS.Worksheet): Record<string, unknown>[] {
    const [, header, ...rows] = sheet.getSheetValues() as unknown[][];
    return rows.map((row) => Object.fromEntries(header!.slice(1).map((name, i) => [String(name), row[i + 1]])));
  }

  const csvRows = (body: string) => {
    const [header, ...lines] = body.trim().split('\r\n');
    const names = header!.split(',');
    return lines.map((line) => Object.fromEntries(line.split(',').map((value, i) => [names[i], value])));
  };

  it('gives the same counts, detected and after review, in every answer and export', async () => {
    const list = await call(viewer, 'GET', `/api/projects/${project.projectUuid}/analysis/`);
    const listed = list.json().results.find((r: { analysis_uuid: string }) => r.analysis_uuid === runUuid);
    expect(listed.event_counts).toEqual(expectedCounts);
    // Every event row, the discarded one included, is what Quick Score steps through.
    expect(listed.event_count).toBe(104);

    const single = (await call(viewer, 'GET', `${analysisUrl}${runUuid}/`)).json();
    expect(single.event_counts).toEqual(expectedCounts);
    // The stored summary is what was detected, at the same precision.
    expect(single.summary.events).toBe(104);
    expect(single.summary.event_rate_per_min).toBe(DETECTED_RATE);
    expect(single.summary.freezing.percent).toBe(10);

    const csv = await call(viewer, 'GET', `/api/projects/${project.projectUuid}/analysis/export/?format=csv`);
    expect(csv.statusCode).toBe(200);
    const header = csv.body.split('\r\n')[0]!.split(',');
    // The spec'd and earlier columns stay; the detected and kept counts are named as such.
    expect(header).toEqual(
      expect.arrayContaining([
        'events',
        'events_unlabelled',
        'flagged',
        'discarded',
        'reviewed',
        'event_rate_per_min',
        'detected_events',
        'detected_rate_per_min',
        'kept_events',
        'kept_rate_per_min',
        'added_events',
      ]),
    );
    const [row] = csvRows(csv.body).filter((r) => r.analysis_uuid === runUuid);
    expect(row).toMatchObject({
      detected_events: '104',
      detected_rate_per_min: String(DETECTED_RATE),
      kept_events: '103',
      kept_rate_per_min: String(KEPT_RATE),
      events: '103',
      events_unlabelled: '103',
      flagged: '1',
      discarded: '1',
      added_events: '0',
      reviewed: '1',
      event_rate_per_min: String(KEPT_RATE),
      freezing_percent: '10',
    });

    const xlsx = await call(viewer, 'GET', `/api/projects/${project.projectUuid}/analysis/export/?format=xlsx`);
    const workbook = await readXlsx(xlsx.rawPayload);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['summary', 'definitions']);
    const [sheetRow] = sheetRows(workbook.getWorksheet('summary')!).filter((r) => r.analysis_uuid === runUuid);
    expect(sheetRow).toMatchObject({
      detected_events: 104,
      detected_rate_per_min: DETECTED_RATE,
      kept_events: 103,
      events: 103,
      flagged: 1,
      discarded: 1,
      event_rate_per_min: KEPT_RATE,
    });
    const definitions = sheetRows(workbook.getWorksheet('definitions')!);
    expect(definitions.find((d) => d.column === 'detected_events')?.meaning).toMatch(/review never changes it/);
    expect(definitions.find((d) => d.column === 'kept_events')?.meaning).toMatch(/^After review/);

    const events = await call(viewer, 'GET', `${analysisUrl}${runUuid}/export/?table=events&format=xlsx`);
    const eventsBook = await readXlsx(events.rawPayload);
    expect(eventsBook.worksheets.map((sheet) => sheet.name)).toEqual(['events', 'counts', 'definitions']);
    const counts = Object.fromEntries(
      sheetRows(eventsBook.getWorksheet('counts')!).map((r) => [r.figure as string, r.value]),
    );
    expect(counts).toMatchObject({
      detected_events: 104,
      detected_rate_per_min: DETECTED_RATE,
      kept_events: 103,
      kept_rate_per_min: KEPT_RATE,
      flagged: 1,
      discarded: 1,
    });
    const eventRows = sheetRows(eventsBook.getWorksheet('events')!);
    expect(eventRows).toHaveLength(104);
    expect(eventRows.filter((e) => e.discarded === true && e.flagged === true)).toHaveLength(1);
  });

  /** A number with float noise: a run of six 0s or 9s before a last digit, or a leftover like 1.7e-15. */
  const NOISY = /\.\d*(?:0{6,}|9{6,})\d|e-1\d$/;
  const NUMBER = /^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i;

  function numericCellsOfText(body: string, separator: string): string[] {
    return body
      .split(/\r\n|\n/)
      .slice(1)
      .flatMap((line) => line.split(separator))
      .filter((cell) => NUMBER.test(cell));
  }

  async function numericCellsOfXlsx(body: Buffer): Promise<number[]> {
    const workbook = await readXlsx(body);
    const numbers: number[] = [];
    for (const sheet of workbook.worksheets) {
      sheet.eachRow((row) => {
        row.eachCell((cell) => {
          if (typeof cell.value === 'number') numbers.push(cell.value);
        });
      });
    }
    return numbers;
  }

  it('writes every export without floating-point noise, named after subject, video and run', async () => {
    const trackUuid = (await call(viewer, 'GET', `${videoBase}annotations/config/`)).json()[0].annotation_config_uuid;
    const agreementBody = {
      reference: { kind: 'upload', events: [0.1 + 0.2, 15.4, 30.500000000000004] },
      candidate: { kind: 'run_reviewed', analysis_uuid: runUuid },
      tolerance_s: 0.2,
      bin_s: 60,
    };
    const calibrateBody = {
      reference: { kind: 'upload', events: [0.1 + 0.2, 1.0000000000000002] },
      target: 'events',
      k: { from: 1, to: 2, step: 0.1 },
    };
    const date = '2026-11-27';
    const today = new Date().toISOString().slice(0, 10);
    const project = projectName.replace(/\s+/g, '-');
    const downloads: { url: string; method?: 'POST'; body?: object; name: string }[] = [
      {
        url: `${analysisUrl}${runUuid}/export/?table=events&format=csv`,
        name: `M3_open-field_movement-${date}_events.csv`,
      },
      {
        url: `${analysisUrl}${runUuid}/export/?table=events&format=xlsx`,
        name: `M3_open-field_movement-${date}_events.xlsx`,
      },
      {
        url: `${analysisUrl}${runUuid}/export/?table=series&format=csv`,
        name: `M3_open-field_movement-${date}_series.csv`,
      },
      {
        url: `${analysisUrl}${runUuid}/export/?table=series&format=xlsx`,
        name: `M3_open-field_movement-${date}_series.xlsx`,
      },
      { url: `/api/projects/${projectUuid()}/analysis/export/?format=csv`, name: `${project}_summary-${today}.csv` },
      { url: `/api/projects/${projectUuid()}/analysis/export/?format=xlsx`, name: `${project}_summary-${today}.xlsx` },
      { url: `${videoBase}annotations/${trackUuid}/export/?format=csv`, name: 'M3_open-field_grooming.csv' },
      { url: `${videoBase}annotations/export/?format=boris`, name: 'M3_open-field_boris.tsv' },
      {
        url: `${videoBase}agreement/export/?format=csv`,
        method: 'POST',
        body: agreementBody,
        name: `M3_open-field_agreement-${today}.csv`,
      },
      {
        url: `${videoBase}agreement/export/?format=xlsx`,
        method: 'POST',
        body: agreementBody,
        name: `M3_open-field_agreement-${today}.xlsx`,
      },
      {
        url: `${analysisUrl}${runUuid}/calibrate/export/?format=csv`,
        method: 'POST',
        body: calibrateBody,
        name: `M3_open-field_calibration-${today}.csv`,
      },
      {
        url: `${analysisUrl}${runUuid}/calibrate/export/?format=xlsx`,
        method: 'POST',
        body: calibrateBody,
        name: `M3_open-field_calibration-${today}.xlsx`,
      },
    ];
    // The series CSV stored with the run, through its download URL.
    const link = (await call(viewer, 'GET', `${analysisUrl}retrieve-timeseries-url/?analysis_uuid=${runUuid}`)).json();
    downloads.push({ url: new URL(link.url).pathname, name: `M3_open-field_movement-${date}_series.csv` });

    for (const download of downloads) {
      const response = download.method
        ? await call(viewer, 'POST', download.url, download.body)
        : await call(viewer, 'GET', download.url);
      expect(response.statusCode, `${download.url}: ${response.body.slice(0, 200)}`).toBe(200);
      expect(response.headers['content-disposition']).toBe(
        `attachment; filename="${download.name}"; filename*=UTF-8''${encodeURIComponent(download.name)}`,
      );
      const xlsx = download.name.endsWith('.xlsx');
      const numbers = xlsx
        ? (await numericCellsOfXlsx(response.rawPayload)).map(String)
        : numericCellsOfText(response.body, download.name.endsWith('.tsv') ? '\t' : ',');
      expect(numbers.length, download.url).toBeGreaterThan(0);
      expect(
        numbers.filter((n) => NOISY.test(n)),
        download.url,
      ).toEqual([]);
    }

    // The noisy values above come out as the numbers they are.
    const eventsCsv = (await call(viewer, 'GET', `${analysisUrl}${runUuid}/export/?table=events&format=csv`)).body;
    expect(eventsCsv.split('\r\n')[1]).toMatch(/^1,0\.3,0\.3,/);
    const track = (await call(viewer, 'GET', `${videoBase}annotations/${trackUuid}/export/?format=csv`)).body;
    expect(track).toBe('start,end\r\n0.3,20.199798\r\n');
    const summary = csvRows(
      (await call(viewer, 'GET', `/api/projects/${projectUuid()}/analysis/export/?format=csv`)).body,
    ).find((r) => r.analysis_uuid === runUuid)!;
    expect(summary).toMatchObject({
      duration_s: '1629.466667',
      grooming_total_s: '19.899798',
      grooming_mean_s: '19.899798',
      // 19.9 s of 1629.47 s is 1.2213 %: to 0.001 % (one frame of 48,884 is 0.002 %).
      grooming_percent: '1.221',
    });
  });

  const projectUuid = () => project.projectUuid;

  it('names a download safely: forbidden characters replaced, UTF-8 kept in filename*', async () => {
    const subjectUuid = await createSubjectRow(t.ctx, project.projectUuid, 'Maus/Ä "7"');
    const videoUuid = randomUUID();
    await t.ctx.db.insert(videos).values({
      videoUuid,
      projectUuid: project.projectUuid,
      subjectUuid,
      name: 'Tag 1: Käfig?.avi',
      originalFilename: 'x.avi',
      status: 'ready',
      fps: 25,
      frameCount: 250,
      durationS: 10,
      width: 320,
      height: 240,
    });
    const response = await call(
      viewer,
      'GET',
      `/api/projects/${project.projectUuid}/subjects/${subjectUuid}/videos/${videoUuid}/annotations/export/?format=boris`,
    );
    expect(response.statusCode).toBe(200);
    const name = 'Maus-Ä-7_Tag-1-Käfig_boris.tsv';
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="Maus-A-7_Tag-1-Kafig_boris.tsv"; filename*=UTF-8''${encodeURIComponent(name)}`,
    );
  });
});
