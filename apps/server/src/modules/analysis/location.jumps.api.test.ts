/**
 * Location tracking beyond the run itself, through the API (issue 22, ADR 026): the jumps list (threshold from
 * jump_px or the tracker's body length, pages, ordering, access), the scale kept as its drawn line (bad input by
 * field, nothing created), and the project summary export with a movement run and location runs side by side.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, type TestUser } from '../../../test/factories.js';
import {
  createProjectWithSubject,
  type ProjectWithSubject,
  uploadVideo,
  waitForVideo,
} from '../../../test/factories-videos.js';
import { LOCATION_FIXTURE, locationVideo } from '../../../test/fixtures/location-videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';

const F = LOCATION_FIXTURE;

type Jump = { frame: number; from_frame: number; time_s: number; distance_px: number };
type Run = {
  analysis_uuid: string;
  status: string;
  error: string | null;
  parameters: Record<string, unknown>;
  summary: {
    location?: {
      distance_px: number;
      distance: number | null;
      mean_speed: number | null;
      tracked_s: number;
      frames_tracked: number;
      jumps?: { threshold_px: number; basis: string; count: number };
      zones: { name: string; time_s: number; percent: number | null; entries: number; latency_s: number | null }[];
    };
  } | null;
};

const LEFT = [
  [0, 0],
  [160, 0],
  [160, 240],
  [0, 240],
];
const BAND = [
  [100, 90],
  [220, 90],
  [220, 150],
  [100, 150],
];
/** Frames 60–74: the bypass [2, 2.5) s at 30 fps. */
const BYPASS: [number, number] = [2, 2.5];
const bypassed = (frame: number) => frame >= 60 && frame < 75;

/** The columns the project summary had before location runs (a project without annotation tracks). */
const MOVEMENT_COLUMNS = [
  'subject',
  'group',
  'video',
  'analysis_uuid',
  'kind',
  'created_at',
  'duration_s',
  'detected_events',
  'detected_rate_per_min',
  'kept_events',
  'kept_rate_per_min',
  'events',
  'events_unlabelled',
  'flagged',
  'discarded',
  'added_events',
  'reviewed',
  'event_rate_per_min',
  'freezing_percent',
];

describe('location jumps, the scale line and the project summary', () => {
  let t: TestApp;
  let owner: TestUser;
  let viewer: TestUser;
  let outsider: TestUser;
  let project: ProjectWithSubject;
  let analysisUrl: string;
  let ezRun: Run;
  let bodyRun: Run;
  let movementUuid: string;

  const get = (user: TestUser, url: string) => t.app.inject({ method: 'GET', url, headers: user.headers });
  const post = (user: TestUser, url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers: user.headers, payload: payload as object });
  const runCount = async () => (await get(owner, `/api/projects/${project.projectUuid}/analysis/`)).json().count;

  async function waitForRun(uuid: string): Promise<Run> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const answer = (await get(owner, `${analysisUrl}${uuid}/`)).json() as Run;
      if (!['queued', 'running'].includes(answer.status) || Date.now() > deadline) return answer;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async function start(kind: string, parameters: Record<string, unknown>): Promise<Run> {
    const created = await post(owner, analysisUrl, { kind, parameters });
    expect(created.statusCode, created.body).toBe(201);
    const run = await waitForRun(created.json().analysis_uuid);
    expect(run.error).toBeNull();
    expect(run.status).toBe('succeeded');
    return run;
  }

  /** The run's exported positions (NaN: none). */
  async function positions(uuid: string) {
    const response = await get(viewer, `${analysisUrl}${uuid}/export/?table=series&format=csv`);
    const [, ...lines] = response.body.trim().split('\r\n');
    const cells = lines.map((line) => line.split(','));
    const value = (text: string) => (text === '' ? Number.NaN : Number(text));
    return { x: cells.map((row) => value(row[2]!)), y: cells.map((row) => value(row[3]!)) };
  }

  /** The definition, written out plainly: each tracked frame against the last tracked one; a bypass starts over. */
  function referenceJumps(x: number[], y: number[], threshold: number): Jump[] {
    const jumps: Jump[] = [];
    let last: number | null = null;
    for (let f = 0; f < x.length; f++) {
      if (bypassed(f)) {
        last = null;
        continue;
      }
      if (Number.isNaN(x[f]!)) continue;
      if (last !== null) {
        const d = Math.sqrt((x[f]! - x[last]!) ** 2 + (y[f]! - y[last]!) ** 2);
        if (d > threshold) jumps.push({ frame: f, from_frame: last, time_s: f / F.fps, distance_px: d });
      }
      last = f;
    }
    return jumps;
  }

  beforeAll(async () => {
    t = await createTestApp({ workers: true, config: { analysisWorkers: 2, analysisSegmentSeconds: 1 } });
    owner = await createUser(t.ctx);
    viewer = await createUser(t.ctx);
    outsider = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
    await addMember(t.ctx, project.projectUuid, viewer.id, 'viewer');
    const uploaded = await uploadVideo(t.app, owner, project.videosUrl, locationVideo());
    expect(uploaded.statusCode).toBe(201);
    const videoUrl = `${project.videosUrl}${uploaded.json().video_uuid}/`;
    expect((await waitForVideo(t.app, owner, videoUrl)).status).toBe('ready');
    analysisUrl = `${videoUrl}analysis/`;
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('refuses a bad scale line or jump distance by field, creating nothing', async () => {
    const before = await runCount();
    const scale = (extra: Record<string, unknown>) => ({ scale: { true_distance: 5, unit: 'cm', ...extra } });
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [scale({}), 'parameters.scale.px_distance', /Give px_distance, or the line/],
      [
        scale({
          line: [
            [10, 20],
            [330, 20],
          ],
        }),
        'parameters.scale.line',
        /end 2 \(330, 20\) lies outside the 320×240 picture/,
      ],
      [
        scale({
          px_distance: 99,
          line: [
            [10, 20],
            [110, 20],
          ],
        }),
        'parameters.scale.px_distance',
        /line’s length \(100 px\) within 0.5 px/,
      ],
      [
        scale({
          line: [
            [10, 20],
            [10, 20],
          ],
        }),
        'parameters.scale.line',
        /two ends must differ/,
      ],
      [scale({ line: [[10, 20]] }), 'parameters.scale.line', /\[\[x1, y1\], \[x2, y2\]\]/],
      [scale({ line: 'across' }), 'parameters.scale.line', /\[\[x1, y1\], \[x2, y2\]\]/],
      [{ jump_px: 0 }, 'parameters.jump_px', /more than 0/],
      [{ jump_px: 'far' }, 'parameters.jump_px', /must be a number/],
    ];
    for (const [parameters, field, message] of cases) {
      const response = await post(owner, analysisUrl, { kind: 'location_tracking', parameters });
      expect(response.statusCode, JSON.stringify(parameters)).toBe(400);
      const errors = response.json().errors as Record<string, string[]>;
      expect(Object.keys(errors), JSON.stringify(parameters)).toEqual([field]);
      expect(errors[field]!.join(' '), JSON.stringify(parameters)).toMatch(message);
    }
    expect(await runCount()).toBe(before);
  });

  it('keeps the scale as its line, px_distance taken from it', async () => {
    const line = [
      [10, 20],
      [110, 20],
    ];
    ezRun = await start('location_tracking', {
      algorithm: 'eztrack',
      zones: [
        { name: 'Left half', points: LEFT },
        { name: 'Band', points: BAND },
      ],
      scale: { line, true_distance: 5, unit: 'cm' },
      bypass_ranges: [BYPASS],
      jump_px: 3,
    });
    expect(ezRun.parameters.scale).toEqual({ px_distance: 100, true_distance: 5, unit: 'cm', line });
    expect(ezRun.parameters.jump_px).toBe(3);
  }, 180_000);

  it('lists the jumps past jump_px as the definition finds them in the exported positions, a page at a time', async () => {
    const { x, y } = await positions(ezRun.analysis_uuid);
    const expected = referenceJumps(x, y, 3);
    // The box moves 2–4.5 px a frame: some steps pass 3 px, others not.
    expect(expected.length).toBeGreaterThan(5);
    expect(expected.length).toBeLessThan(F.frames / 2);
    // Nothing is compared across the bypass: frame 75 starts over.
    expect(expected.some((jump) => jump.from_frame < 60 && jump.frame >= 75)).toBe(false);
    expect(ezRun.summary!.location!.jumps).toEqual({ threshold_px: 3, basis: 'parameter', count: expected.length });

    const url = `${analysisUrl}${ezRun.analysis_uuid}/jumps/`;
    const all = (await get(viewer, `${url}?page_size=500`)).json();
    expect(all.count).toBe(expected.length);
    expect(all.results.map((jump: Jump) => [jump.frame, jump.from_frame])).toEqual(
      expected.map((jump) => [jump.frame, jump.from_frame]),
    );
    all.results.forEach((jump: Jump, i: number) => {
      // The export writes positions to 12 significant digits.
      expect(jump.distance_px).toBeCloseTo(expected[i]!.distance_px, 6);
      expect(jump.time_s).toBeCloseTo(expected[i]!.time_s, 9);
    });

    const second = (await get(viewer, `${url}?page=2&page_size=2`)).json();
    expect(second.results.map((jump: Jump) => jump.frame)).toEqual([expected[2]!.frame, expected[3]!.frame]);
    expect(new URL(second.next).searchParams.get('page')).toBe('3');
    expect(new URL(second.previous).searchParams.get('page')).toBe('1');

    const longest = (await get(viewer, `${url}?ordering=-distance_px&page_size=3`)).json();
    // Longest first: the three longest of the reference (equal up to the export's 12 digits in either order).
    const distances = longest.results.map((jump: Jump) => jump.distance_px) as number[];
    expect(distances).toEqual([...distances].sort((a, b) => b - a));
    const top = expected.map((jump) => jump.distance_px).sort((a, b) => b - a);
    distances.forEach((distance, i) => {
      expect(distance).toBeCloseTo(top[i]!, 6);
    });

    const badOrder = await get(viewer, `${url}?ordering=speed`);
    expect(badOrder.statusCode).toBe(400);
    expect(Object.keys(badOrder.json().errors)).toEqual(['ordering']);
    expect((await get(outsider, url)).statusCode).toBe(404);
  });

  it('takes body_core’s own body length as the threshold when jump_px is not set', async () => {
    bodyRun = await start('location_tracking', {
      zones: [{ name: 'Centre', points: BAND }],
      scale: {
        px_distance: 50.3,
        line: [
          [10, 20],
          [40, 60],
        ],
        true_distance: 2,
        unit: 'in',
      },
    });
    // Given within 0.5 px of the line's length (50), px_distance is kept as given.
    expect(bodyRun.parameters.scale).toMatchObject({ px_distance: 50.3 });
    const jumps = bodyRun.summary!.location!.jumps!;
    // The box is 20 × 20: a body length of 2 √400 = 40 px, as the tracker measured it from its blocks.
    expect(jumps.basis).toBe('tracker');
    expect(jumps.threshold_px).toBeGreaterThan(30);
    expect(jumps.threshold_px).toBeLessThan(50);
    const { x, y } = await positions(bodyRun.analysis_uuid);
    expect(jumps.count).toBe(referenceJumps(x, y, jumps.threshold_px).length);
    const page = (await get(viewer, `${analysisUrl}${bodyRun.analysis_uuid}/jumps/`)).json();
    expect(page).toEqual({ count: jumps.count, next: null, previous: null, results: expect.any(Array) });
  }, 180_000);

  it('refuses the jumps of a movement run; the project summary keeps its columns and adds the location figures', async () => {
    const movement = await start('movement_detection', {});
    movementUuid = movement.analysis_uuid;
    const refused = await get(viewer, `${analysisUrl}${movementUuid}/jumps/`);
    expect(refused.statusCode).toBe(400);

    const zones = ['Band', 'Centre', 'Left half'];
    const figures = ['time_s', 'percent', 'entries', 'latency_s', 'distance_px'];
    // Units in the API's order (mm, cm, m, in), each used by some run; zone names sorted.
    const locationColumns = [
      'distance_px',
      'distance_cm',
      'distance_in',
      'mean_speed_px_per_s',
      'mean_speed_cm_per_s',
      'mean_speed_in_per_s',
      ...zones.flatMap((zone) => figures.map((figure) => `zone_${zone}_${figure}`)),
    ];

    const csv = await get(viewer, `/api/projects/${project.projectUuid}/analysis/export/?format=csv`);
    expect(csv.statusCode).toBe(200);
    const [headerLine, ...lines] = csv.body.trim().split('\r\n');
    const header = headerLine!.split(',');
    expect(header).toEqual([...MOVEMENT_COLUMNS, ...locationColumns]);
    const rows = lines.map((line) => Object.fromEntries(line.split(',').map((value, i) => [header[i], value])));
    const byUuid = (uuid: string) => rows.find((row) => row.analysis_uuid === uuid)!;

    // The movement run: its own columns filled as before, every location cell empty.
    const movementRow = byUuid(movementUuid);
    expect(movementRow.kind).toBe('movement_detection');
    expect(movementRow.detected_events).toMatch(/^\d+$/);
    for (const column of locationColumns) expect(movementRow[column], column).toBe('');

    const ez = ezRun.summary!.location!;
    const ezRow = byUuid(ezRun.analysis_uuid);
    expect(Number(ezRow.distance_px)).toBeCloseTo(ez.distance_px, 6);
    expect(Number(ezRow.distance_cm)).toBeCloseTo(ez.distance_px * (5 / 100), 6);
    expect(ezRow.distance_in).toBe('');
    expect(Number(ezRow.mean_speed_px_per_s)).toBeCloseTo(ez.distance_px / ez.tracked_s, 6);
    expect(Number(ezRow.mean_speed_cm_per_s)).toBeCloseTo(ez.mean_speed!, 6);
    for (const zone of ez.zones) {
      expect(Number(ezRow[`zone_${zone.name}_time_s`])).toBeCloseTo(zone.time_s, 6);
      expect(Number(ezRow[`zone_${zone.name}_percent`])).toBeCloseTo(zone.percent!, 1);
      expect(Number(ezRow[`zone_${zone.name}_entries`])).toBe(zone.entries);
      const latency = ezRow[`zone_${zone.name}_latency_s`];
      if (zone.latency_s === null) expect(latency).toBe('');
      else expect(Number(latency)).toBeCloseTo(zone.latency_s, 6);
    }
    // A zone of another run only: empty here.
    for (const figure of figures) expect(ezRow[`zone_Centre_${figure}`]).toBe('');

    const body = bodyRun.summary!.location!;
    const bodyRow = byUuid(bodyRun.analysis_uuid);
    expect(Number(bodyRow.distance_in)).toBeCloseTo(body.distance!, 6);
    expect(bodyRow.distance_cm).toBe('');
    expect(Number(bodyRow.zone_Centre_entries)).toBe(body.zones[0]!.entries);
    expect(bodyRow.zone_Band_time_s).toBe('');

    const xlsx = await get(viewer, `/api/projects/${project.projectUuid}/analysis/export/?format=xlsx`);
    expect(xlsx.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const [, sheetHeader, ...sheetRows] = workbook.getWorksheet('summary')!.getSheetValues() as unknown[][];
    expect(sheetHeader!.slice(1)).toEqual(header);
    const sheetRow = sheetRows.find((row) => row[header.indexOf('analysis_uuid') + 1] === ezRun.analysis_uuid)!;
    const cell = (column: string) => sheetRow[header.indexOf(column) + 1];
    expect(cell('distance_cm')).toBeCloseTo(ez.distance!, 6);
    expect(cell('zone_Left half_entries')).toBe(ez.zones.find((zone) => zone.name === 'Left half')!.entries);
    const definitions = workbook.getWorksheet('definitions')!.getSheetValues() as unknown[][];
    expect(definitions.some((row) => row?.[1] === 'zone_<name>_latency_s')).toBe(true);
  }, 180_000);
});
