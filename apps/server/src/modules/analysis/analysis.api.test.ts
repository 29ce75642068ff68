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
import { analyseFrameRange } from './engine/movement.js';

const J = JUMPS_FIXTURE;
const fixtures = analysisFixtures();
const FRAME = 1 / J.fps;

type Run = {
  analysis_uuid: string;
  status: string;
  progress: number;
  summary: { events: number } | null;
  error: string | null;
};

describe('analysis API', () => {
  let t: TestApp;
  let owner: TestUser;
  let viewer: TestUser;
  let outsider: TestUser;
  let project: ProjectWithSubject;
  let videoUrl: string;
  let analysisUrl: string;
  let movementRun: Run & Record<string, unknown>;

  const get = (user: TestUser, url: string) => t.app.inject({ method: 'GET', url, headers: user.headers });
  const post = (user: TestUser, url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers: user.headers, payload: payload as object });

  async function waitForRun(uuid: string, done = (run: Run) => !['queued', 'running'].includes(run.status)) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const response = await get(owner, `${analysisUrl}${uuid}/`);
      expect(response.statusCode).toBe(200);
      const run = response.json() as Run;
      if (done(run) || Date.now() > deadline) return run;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }

  function csvUpload(content: string, filename = 'series.csv', parameters?: object) {
    const boundary = `----ts${randomUUID().replace(/-/g, '')}`;
    const parts = [
      parameters
        ? `--${boundary}\r\nContent-Disposition: form-data; name="parameters"\r\n\r\n${JSON.stringify(parameters)}\r\n`
        : '',
      `--${boundary}\r\nContent-Disposition: form-data; name="timeseries"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n${content}\r\n`,
      `--${boundary}--\r\n`,
    ];
    return t.app.inject({
      method: 'POST',
      url: `${analysisUrl}import_timeseries/`,
      headers: { ...owner.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: parts.join(''),
    });
  }

  async function runCount() {
    return (await get(owner, `/api/projects/${project.projectUuid}/analysis/`)).json().count as number;
  }

  beforeAll(async () => {
    // One-second segments: the 5-second video is cut into several segment jobs run two at a time.
    t = await createTestApp({ workers: true, config: { analysisWorkers: 2, analysisSegmentSeconds: 1 } });
    owner = await createUser(t.ctx);
    viewer = await createUser(t.ctx);
    outsider = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
    await addMember(t.ctx, project.projectUuid, viewer.id, 'viewer');
    const uploaded = await uploadVideo(t.app, owner, project.videosUrl, fixtures.jumpsMp4);
    expect(uploaded.statusCode).toBe(201);
    videoUrl = `${project.videosUrl}${uploaded.json().video_uuid}/`;
    expect((await waitForVideo(t.app, owner, videoUrl)).status).toBe('ready');
    analysisUrl = `${videoUrl}analysis/`;
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  it('runs movement detection through the job system: segments merged, events at the jumps, summary, versions', async () => {
    const created = await post(owner, analysisUrl, {
      kind: 'movement_detection',
      parameters: { rois: [{ start_s: 0, ...J.leftRoi }], freeze_threshold: 0, min_freeze_s: 0.5, bin_s: 1 },
    });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    // The server's own workers are woken as the run is created, so it may already be running.
    expect(body).toMatchObject({ kind: 'movement_detection', progress: 0 });
    expect(['queued', 'running']).toContain(body.status);
    // Every default is filled in and kept with the run.
    expect(body.parameters).toMatchObject({ threshold: 20, opening: 0, event_threshold_k: 3, refractory_s: 0.5 });
    expect(body.software_version).toMatch(/ffmpeg \S+/);
    // The counting definition in force (OpenCV's rounded blur, ADR 006), so older runs can be told apart.
    expect(body.software_version).toContain('intensity-change 2');
    const done = await waitForRun(body.analysis_uuid);
    expect(done.status).toBe('succeeded');
    expect(done.progress).toBe(1);
    movementRun = done as typeof movementRun;
    expect(movementRun.summary).toMatchObject({ samples: J.frames, events: 3 });
    expect(movementRun.started_at).not.toBeNull();
    expect(movementRun.duration_s).toBeGreaterThan(0);
    const freezing = (movementRun.summary as unknown as { freezing: { percent: number; bins: unknown[] } }).freezing;
    expect(freezing.percent).toBeGreaterThan(80);
    expect(freezing.bins).toHaveLength(5);

    const events = (await get(owner, `${analysisUrl}retrieve-events/`)).json();
    expect(events.analysis_uuid).toBe(body.analysis_uuid);
    expect(events.version).toBe(0);
    expect(events.events).toHaveLength(3);
    events.events.forEach((event: { time: number; original_time: number }, i: number) => {
      expect(Math.abs(event.time - J.jumpFrames[i]! / J.fps)).toBeLessThanOrEqual(FRAME + 1e-9);
      expect(event.original_time).toBe(event.time);
    });
  });

  it('stores a series identical to a single pass over the video, downloadable as frame,time_s,value', async () => {
    const answer = await get(
      owner,
      `${analysisUrl}retrieve-timeseries-url/?analysis_uuid=${movementRun.analysis_uuid}`,
    );
    expect(answer.statusCode).toBe(200);
    const { url, expires_at } = answer.json();
    expect(new Date(expires_at).getTime()).toBeGreaterThan(Date.now() + 4 * 60 * 1000);
    expect(new Date(expires_at).getTime()).toBeLessThanOrEqual(Date.now() + 5 * 60 * 1000);
    const file = await t.app.inject({ method: 'GET', url: new URL(url).pathname });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain('attachment');
    const lines = file.body.trim().split('\n');
    expect(lines[0]).toBe('frame,time_s,value');
    expect(lines).toHaveLength(J.frames + 1);
    const single = await analyseFrameRange({
      ffmpeg: t.ctx.media.binaries.ffmpeg,
      source: {
        path: fixtures.jumpsMp4,
        demuxer: 'mov',
        fps: 30,
        width: J.width,
        height: J.height,
        pixelFormat: 'yuv420p',
        fullRange: false,
        startTime: 0,
      },
      parameters: {
        threshold: 20,
        opening: 0,
        closing: 0,
        small_object_removal: 0,
        rois: [{ start_s: 0, ...J.leftRoi }],
        bypass_ranges: [],
      },
      startFrame: 0,
      endFrame: null,
    });
    expect(lines.slice(1).map((line) => Number(line.split(',')[2]))).toEqual(Array.from(single.values));
    expect(lines[31]).toBe(`30,1,${single.values[30]}`);
    // The same values as raw Float64 for charts.
    const raw = await get(owner, `${analysisUrl}${movementRun.analysis_uuid}/series/`);
    expect(raw.headers['x-sample-count']).toBe(String(J.frames));
    expect(raw.headers['x-has-times']).toBe('0');
    expect(Array.from(new Float64Array(new Uint8Array(raw.rawPayload).buffer))).toEqual(Array.from(single.values));
    expect((await get(owner, `${analysisUrl}${movementRun.analysis_uuid}/series/?part=times`)).statusCode).toBe(404);
  });

  it('update-events applies changes atomically, keeps original_time, records who, and refuses an outdated version', async () => {
    const url = `${analysisUrl}update-events/`;
    const run = movementRun.analysis_uuid;
    const first = await post(owner, url, {
      analysis_uuid: run,
      version: 0,
      changes: [
        { action: 'flag', id: 1 },
        { action: 'move', id: 2, time: 2.1 },
        { action: 'label', id: 3, label: 'twitch' },
        { action: 'add', time: 0.5, label: 'twitch' },
      ],
    });
    expect(first.statusCode).toBe(200);
    const updated = first.json();
    expect(updated.version).toBe(1);
    const byId = new Map(updated.events.map((e: { id: number }) => [e.id, e]));
    expect(byId.get(1)).toMatchObject({ flagged: true, updated_by: { id: owner.id } });
    expect(byId.get(2)).toMatchObject({ time: 2.1 });
    expect((byId.get(2) as { original_time: number }).original_time).toBeCloseTo(2, 1);
    expect(byId.get(4)).toMatchObject({ time: 0.5, original_time: null, label: 'twitch' });
    // Sorted by time: the added event comes first.
    expect(updated.events[0].id).toBe(4);

    const stale = await post(owner, url, { analysis_uuid: run, version: 0, changes: [{ action: 'discard', id: 1 }] });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ version: 1 });
    expect(typeof stale.json().errors).toBe('string');

    // One bad change → nothing applied, version unchanged.
    const mixed = await post(owner, url, {
      analysis_uuid: run,
      version: 1,
      changes: [
        { action: 'discard', id: 1 },
        { action: 'add', time: -1 },
        { action: 'add', time: 2.1 },
        { action: 'delete', id: 99 },
      ],
    });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().errors.changes).toEqual([
      'Change 2: an event cannot be before 0 s.',
      'Change 3: there is already an event at 2.1 s.',
      'Change 4: event 99 does not exist.',
    ]);
    const after = (await get(owner, `${analysisUrl}retrieve-events/?analysis_uuid=${run}`)).json();
    expect(after.version).toBe(1);
    expect(after.events.find((e: { id: number }) => e.id === 1).discarded).toBe(false);

    const second = await post(owner, url, {
      analysis_uuid: run,
      version: 1,
      changes: [
        { action: 'discard', id: 1 },
        { action: 'delete', id: 4 },
        { action: 'add', time: 4.2 },
      ],
    });
    expect(second.statusCode).toBe(200);
    expect(second.json().version).toBe(2);
    // Ids are never reused after a delete.
    expect(second.json().events.map((e: { id: number }) => e.id)).toEqual([1, 2, 3, 5]);
    expect(second.json().events[0].discarded).toBe(true);

    const viewerTry = await post(viewer, url, { analysis_uuid: run, version: 2, changes: [{ action: 'flag', id: 2 }] });
    expect(viewerTry.statusCode).toBe(403);
    expect((await get(viewer, `${analysisUrl}retrieve-events/?analysis_uuid=${run}`)).statusCode).toBe(200);
  });

  it('previews a window synchronously with a highlighted PNG, the trace and its events', async () => {
    const response = await post(owner, `${analysisUrl}create-preview/`, {
      parameters: { rois: [{ start_s: 0, ...J.leftRoi }], event_threshold: 10 },
      start_s: 0.8,
      length_s: 1,
    });
    expect(response.statusCode).toBe(200);
    const preview = response.json();
    expect(preview.frames[0]).toBe(24);
    expect(preview.frames).toHaveLength(30);
    expect(preview.values[30 - 24]).toBeGreaterThan(100);
    expect(preview.events).toHaveLength(1);
    expect(Math.abs(preview.events[0] - 1)).toBeLessThanOrEqual(FRAME + 1e-9);
    const png = Buffer.from(preview.image.replace('data:image/png;base64,', ''), 'base64');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(J.width);
    const tooLong = await post(owner, `${analysisUrl}create-preview/`, { parameters: {}, length_s: 11 });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().errors.length_s).toEqual(['A preview covers at most 10 s.']);
  });

  it('rejects bad parameters field by field and creates nothing', async () => {
    const before = await runCount();
    const cases: [object, string, string][] = [
      [{ threshold: 300 }, 'parameters.threshold', 'Must be between 0 and 255.'],
      [{ colour: 'red' }, 'parameters', 'Unknown parameter: colour.'],
      [
        { rois: [{ start_s: 1, x: 0, y: 0, width: 10, height: 10 }] },
        'parameters.rois',
        'The first ROI must start at 0 s.',
      ],
      [
        { rois: [{ start_s: 0, x: 300, y: 0, width: 40, height: 10 }] },
        'parameters.rois',
        'ROI 1 lies outside the 320×240 picture.',
      ],
      [
        {
          bypass_ranges: [
            [0, 1],
            [3, 2],
          ],
        },
        'parameters.bypass_ranges',
        'Row 2 must have start time less than the end time.',
      ],
      [
        {
          bypass_ranges: [
            [0, 2],
            [1, 3],
          ],
        },
        'parameters.bypass_ranges',
        'Row 2: value 1 is not non-decreasing.',
      ],
      [{ event_threshold_k: 0.5 }, 'parameters.event_threshold_k', 'Must be between 1 and 10.'],
    ];
    for (const [parameters, field, message] of cases) {
      const response = await post(owner, analysisUrl, { kind: 'movement_detection', parameters });
      expect(response.statusCode, JSON.stringify(parameters)).toBe(400);
      expect(response.json().errors[field]).toContain(message);
    }
    const noSource = await post(owner, analysisUrl, { kind: 'event_detection', parameters: {} });
    expect(noSource.json().errors.source_analysis_uuid).toBeDefined();
    const wrongKind = await post(owner, analysisUrl, { kind: 'tracking', parameters: {} });
    expect(wrongKind.statusCode).toBe(400);
    expect(await runCount()).toBe(before);
  });

  it('re-runs event detection on an earlier run with other parameters; the old run stays as it was', async () => {
    const response = await post(owner, analysisUrl, {
      kind: 'event_detection',
      source_analysis_uuid: movementRun.analysis_uuid,
      parameters: { event_threshold: 1e9 },
    });
    expect(response.statusCode).toBe(201);
    const run = await waitForRun(response.json().analysis_uuid);
    expect(run).toMatchObject({ status: 'succeeded', summary: { events: 0, threshold: 1e9 } });
    const again = await post(owner, analysisUrl, {
      kind: 'event_detection',
      source_analysis_uuid: movementRun.analysis_uuid,
      parameters: { refractory_s: 2 },
    });
    const rerun = await waitForRun(again.json().analysis_uuid);
    // Jumps at 1.0, 2.0 and 3.5 s with 2 s refractory: 1.0 and 3.5 remain.
    expect(rerun.summary?.events).toBe(2);
    const old = (await get(owner, `${analysisUrl}${movementRun.analysis_uuid}/`)).json();
    expect(old.summary.events).toBe(3);
    // Its series is the source's.
    const url = (await get(owner, `${analysisUrl}retrieve-timeseries-url/?analysis_uuid=${rerun.analysis_uuid}`)).json()
      .url;
    expect((await t.app.inject({ method: 'GET', url: new URL(url).pathname })).body.split('\n')).toHaveLength(
      J.frames + 2,
    );
  });

  it('imports a time series (one column or time,value), detects events on it, and names the broken row of a bad file', async () => {
    const values = Array.from({ length: J.frames }, (_, frame) => (frame === 30 || frame === 90 ? 50 : 1));
    const good = await csvUpload(`value\n${values.join('\n')}\n`);
    expect(good.statusCode).toBe(201);
    expect(good.json()).toMatchObject({
      kind: 'timeseries_import',
      status: 'succeeded',
      summary: { events: 2, samples: J.frames },
    });
    const events = (
      await get(owner, `${analysisUrl}retrieve-events/?analysis_uuid=${good.json().analysis_uuid}`)
    ).json();
    expect(events.events.map((e: { time: number }) => e.time)).toEqual([1, 3]);

    const timed = await csvUpload('time,value\n0,1\n0.25,1\n0.5,40\n0.75,1\n1,1\n', 'emg.csv', { event_threshold: 10 });
    expect(timed.statusCode).toBe(201);
    const timedEvents = (
      await get(owner, `${analysisUrl}retrieve-events/?analysis_uuid=${timed.json().analysis_uuid}`)
    ).json();
    expect(timedEvents.events.map((e: { time: number }) => e.time)).toEqual([0.5]);
    // A time,value series keeps its own times, and says so on its values.
    const timedValues = await get(owner, `${analysisUrl}${timed.json().analysis_uuid}/series/`);
    expect(timedValues.headers['x-has-times']).toBe('1');
    const times = await get(owner, `${analysisUrl}${timed.json().analysis_uuid}/series/?part=times`);
    expect(Array.from(new Float64Array(new Uint8Array(times.rawPayload).buffer))).toEqual([0, 0.25, 0.5, 0.75, 1]);

    const before = await runCount();
    const bad = await csvUpload('value\n1\n2\nthree\n4\n');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.timeseries).toEqual(['Row 4 contains non-numeric values.']);
    const notCsv = await csvUpload('1\n2\n', 'series.txt');
    expect(notCsv.json().errors.timeseries).toEqual(['File is not a CSV']);
    const empty = await csvUpload('', 'series.csv');
    expect(empty.json().errors.timeseries).toEqual(['CSV has no data rows.']);
    expect(await runCount()).toBe(before);
  });

  it('lists the project’s runs newest first with filters and pagination', async () => {
    const base = `/api/projects/${project.projectUuid}/analysis/`;
    const all = (await get(owner, base)).json();
    expect(all.count).toBeGreaterThanOrEqual(5);
    const times = all.results.map((r: { created_at: string }) => r.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(all.results[0]).toMatchObject({
      subject_name: expect.any(String),
      video_name: expect.any(String),
      created_by: { id: owner.id },
    });
    const movement = (await get(owner, `${base}?kind=movement_detection&status=succeeded`)).json();
    expect(movement.results.map((r: { analysis_uuid: string }) => r.analysis_uuid)).toEqual([
      movementRun.analysis_uuid,
    ]);
    const bySubject = (await get(owner, `${base}?subject=${project.subjectUuid}&page_size=1`)).json();
    expect(bySubject.results).toHaveLength(1);
    expect(bySubject.next).toContain('page=2');
    expect((await get(owner, `${base}?video=not-a-uuid`)).statusCode).toBe(400);
    expect((await get(owner, `${base}?subject=${randomUUID()}`)).json().count).toBe(0);
    expect((await get(viewer, base)).statusCode).toBe(200);
    // The project counts its runs.
    const projectAnswer = (await get(owner, `/api/projects/${project.projectUuid}/`)).json();
    expect(projectAnswer.counts.analyses).toBe(all.count);
  });

  it('exports events and series as CSV and XLSX, and the project summary', async () => {
    const run = movementRun.analysis_uuid;
    const csv = await get(owner, `${analysisUrl}${run}/export/?table=events&format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const rows = csv.body.trim().split('\r\n');
    expect(rows[0]).toBe(
      'id,time,original_time,label,flagged,discarded,reviewed_by,reviewed_at,last_viewed_by,last_viewed_at,' +
        'suggestion_discard,suggestion_label,suggestion_confidence,suggestion_model_version,' +
        'suggestion_accepted_by,suggestion_accepted_at,suggestion_accepted_in_bulk',
    );
    expect(rows).toHaveLength(5);
    const xlsx = await get(viewer, `${analysisUrl}${run}/export/?table=series&format=xlsx`);
    expect(xlsx.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'frame', 'time_s', 'value']);
    expect(sheet.rowCount).toBe(J.frames + 1);
    expect(sheet.getRow(32).getCell(1).value).toBe(30);

    const summary = await get(owner, `/api/projects/${project.projectUuid}/analysis/export/?format=csv`);
    expect(summary.statusCode).toBe(200);
    const lines = summary.body.trim().split('\r\n');
    expect(lines[0]).toContain('events_twitch');
    const movementLine = lines.find((line) => line.includes(run))!;
    const header = lines[0]!.split(',');
    const cells = movementLine.split(',');
    // Events 1 (discarded), 2, 3 (twitch), 5: three kept, one labelled twitch.
    expect(cells[header.indexOf('events')]).toBe('3');
    expect(cells[header.indexOf('events_twitch')]).toBe('1');
    expect(cells[header.indexOf('discarded')]).toBe('1');
    expect(Number(cells[header.indexOf('freezing_percent')])).toBeGreaterThan(80);
  });

  it('hides everything from non-members (404) and keeps viewers to reading (403)', async () => {
    const run = movementRun.analysis_uuid;
    for (const [method, url] of [
      ['GET', `${analysisUrl}${run}/`],
      ['GET', `${analysisUrl}retrieve-events/`],
      ['GET', `/api/projects/${project.projectUuid}/analysis/`],
      ['POST', analysisUrl],
      ['POST', `${analysisUrl}${run}/revoke/`],
    ] as const) {
      const response = await t.app.inject({
        method,
        url,
        headers: outsider.headers,
        payload: method === 'POST' ? { kind: 'movement_detection' } : undefined,
      });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await post(viewer, analysisUrl, { kind: 'movement_detection' })).statusCode).toBe(403);
    expect((await get(owner, `${analysisUrl}${randomUUID()}/`)).statusCode).toBe(404);
    const finished = await post(owner, `${analysisUrl}${run}/revoke/`, {});
    expect(finished.statusCode).toBe(409);
  });
});
