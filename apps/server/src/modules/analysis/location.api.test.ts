/**
 * Location-tracking runs through the API (issue 22): parameters checked by field with nothing created, a run of
 * pieces side by side in worker threads on a generated video with a known track, the summary and the series export
 * agreeing with the stored positions, a split run equal to a single pass (pieces whose warm-up caught up kept,
 * the others tracked again: ADR 027), and the project's roles.
 */

import { asc, eq } from 'drizzle-orm';
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
import { analysisSegments } from '../../db/schema.js';
import { BODY_DEFAULTS } from './engine/location/body-parameters.js';
import { polygonsMask } from './engine/location/polygon-mask.js';
import { type PieceStates, sameState } from './engine/location/reconcile.js';

const F = LOCATION_FIXTURE;

type Run = {
  analysis_uuid: string;
  kind: string;
  status: string;
  error: string | null;
  parameters: Record<string, unknown>;
  summary: { samples: number; location: LocationFigures } | null;
};
type ZoneFigures = {
  name: string;
  time_s: number;
  percent: number | null;
  entries: number;
  latency_s: number | null;
  distance_px: number;
};
type LocationFigures = {
  frames: number;
  frames_tracked: number;
  distance_px: number;
  distance: number | null;
  unit: string | null;
  mean_speed: number | null;
  zones: ZoneFigures[];
  notes: string[];
  bins: { start_s: number; end_s: number; distance_px: number; zones: ZoneFigures[] }[];
};

/** The left half of the arena, and a band across the middle (overlapping it). */
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

const ZONES = [
  { name: 'Left half', points: LEFT },
  { name: 'Band', points: BAND },
];

describe('location tracking API', () => {
  let t: TestApp;
  let owner: TestUser;
  let viewer: TestUser;
  let outsider: TestUser;
  let project: ProjectWithSubject;
  let analysisUrl: string;
  let run: Run;

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

  async function exportCsv(uuid: string) {
    const response = await get(viewer, `${analysisUrl}${uuid}/export/?table=series&format=csv`);
    expect(response.statusCode).toBe(200);
    const [header, ...lines] = response.body.trim().split('\r\n');
    return { header: header!.split(','), rows: lines.map((line) => line.split(',')), body: response.body };
  }

  beforeAll(async () => {
    // One-second pieces: the 4-second video is tracked in several chained pieces, each from a proven clean start.
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

  it('refuses bad parameters by field, creating nothing', async () => {
    const before = await runCount();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ colour: 'red' }, 'parameters', /Unknown parameter: colour/],
      [{ algorithm: 'magic' }, 'parameters.algorithm', /must be one of: body_core, eztrack/],
      [{ noise_k: 1 }, 'parameters.noise_k', /between 2 and 50/],
      [{ min_area: 10.5 }, 'parameters.min_area', /whole number/],
      [{ polarity: 'grey' }, 'parameters.polarity', /auto, dark, light/],
      [{ reference_frames: 2 }, 'parameters.reference_frames', /body_core needs at least 3/],
      [{ loc_thresh: 101 }, 'parameters.loc_thresh', /between 0 and 100/],
      [{ loc_thresh: 'high' }, 'parameters.loc_thresh', /must be a number/],
      [{ window_weight: 1.5 }, 'parameters.window_weight', /between 0 and 1/],
      [{ window_size: 321 }, 'parameters.window_size', /at most 320/],
      [{ window_size: 2.5 }, 'parameters.window_size', /whole number/],
      [{ method: 'bright' }, 'parameters.method', /abs, light, dark/],
      [{ use_window: 'yes' }, 'parameters.use_window', /true or false/],
      [{ wire_krn: 0 }, 'parameters.wire_krn', /at least 1/],
      [{ wire_krn: 241 }, 'parameters.wire_krn', /at most 240/],
      [{ reference_frames: 0 }, 'parameters.reference_frames', /between 1 and 500/],
      [{ reference_frames: 501 }, 'parameters.reference_frames', /between 1 and 500/],
      [
        {
          zones: [
            {
              name: 'A',
              points: [
                [0, 0],
                [10, 0],
              ],
            },
          ],
        },
        'parameters.zones.points',
        /Zone 1: .*at least 3 points/,
      ],
      [{ zones: [{ name: '  ', points: LEFT }] }, 'parameters.zones.name', /Zone 1: Give the zone a name/],
      [{ zones: [{ name: 'x'.repeat(65), points: LEFT }] }, 'parameters.zones.name', /at most 64/],
      [
        { zones: [ZONES[0], { name: ' left HALF ', points: BAND }] },
        'parameters.zones.name',
        /Zone 2: .*already zone 1's/,
      ],
      [{ zones: [{ name: 'time_s', points: LEFT }] }, 'parameters.zones.name', /names a column/],
      [
        {
          zones: [
            {
              name: 'A',
              points: [
                [0, 0],
                [330, 0],
                [0, 10],
              ],
            },
          ],
        },
        'parameters.zones',
        /point 2 \(330, 0\) lies outside the 320×240 picture/,
      ],
      [
        {
          exclusions: [
            {
              points: [
                [0, 0],
                [10, -1],
                [0, 10],
              ],
            },
          ],
        },
        'parameters.exclusions',
        /Exclusion region 1: point 2/,
      ],
      [{ scale: { px_distance: 0, true_distance: 10, unit: 'cm' } }, 'parameters.scale.px_distance', /more than 0/],
      [{ scale: { px_distance: 100, true_distance: 10, unit: 'ft' } }, 'parameters.scale.unit', /mm, cm, m, in/],
      [{ bin_s: 0 }, 'parameters.bin_s', /more than 0/],
      [{ bypass_ranges: [[2, 1]] }, 'parameters.bypass_ranges', /./],
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

  it('tracks the box in pieces side by side: positions on the known track, every default kept with the run', async () => {
    const created = await post(owner, analysisUrl, {
      kind: 'location_tracking',
      parameters: {
        algorithm: 'eztrack',
        zones: ZONES,
        scale: { px_distance: 100, true_distance: 5, unit: 'cm' },
        bin_s: 1,
        bypass_ranges: [[2, 2.5]],
      },
    });
    expect(created.statusCode).toBe(201);
    const body = created.json() as Run;
    expect(body.kind).toBe('location_tracking');
    expect(body.parameters).toMatchObject({
      algorithm: 'eztrack',
      loc_thresh: 99.5,
      use_window: true,
      window_size: 100,
      window_weight: 0.9,
      method: 'dark',
      rmv_wire: true,
      wire_krn: 5,
      reference_frames: 50,
      exclusions: [],
      zones: ZONES,
    });
    // Several pieces (the plan is stored with the run).
    const pieces = await t.ctx.db
      .select()
      .from(analysisSegments)
      .where(eq(analysisSegments.analysisUuid, body.analysis_uuid));
    expect(pieces.length).toBeGreaterThan(1);
    run = await waitForRun(body.analysis_uuid);
    expect(run.error).toBeNull();
    expect(run.status).toBe('succeeded');
    const done = await t.ctx.db
      .select()
      .from(analysisSegments)
      .where(eq(analysisSegments.analysisUuid, body.analysis_uuid));
    // Each piece but the last handed its tracker state on.
    expect(done.filter((piece) => piece.handoff !== null).length).toBeGreaterThanOrEqual(done.length - 1);
    const { header, rows } = await exportCsv(run.analysis_uuid);
    expect(header).toEqual(['frame', 'time_s', 'x', 'y', 'distance_px', 'distance_cm', 'Left half', 'Band']);
    expect(rows).toHaveLength(F.frames);
    rows.forEach((row, n) => {
      expect(Number(row[0])).toBe(n);
      const bypassed = n >= 60 && n < 75;
      if (bypassed) {
        expect(row.slice(2)).toEqual(['', '', '', '', '', '']);
        return;
      }
      // ezTrack's centre of the darkest change lands on the box's centre (the box is darker everywhere).
      const truth = F.centre(n);
      expect(Math.abs(Number(row[2]) - (truth.x - 0.5)), `frame ${n} x`).toBeLessThanOrEqual(1.5);
      expect(Math.abs(Number(row[3]) - (truth.y - 0.5)), `frame ${n} y`).toBeLessThanOrEqual(1.5);
    });
  }, 180_000);

  it('tracks with body_core by default: every setting kept, positions on the box, no note on the reference', async () => {
    const created = await post(owner, analysisUrl, { kind: 'location_tracking', parameters: { zones: ZONES } });
    expect(created.statusCode).toBe(201);
    expect(created.json().parameters).toMatchObject({ algorithm: 'body_core', ...BODY_DEFAULTS });
    const body = await waitForRun(created.json().analysis_uuid);
    expect(body.error).toBeNull();
    expect(body.status).toBe('succeeded');
    expect(body.summary!.location.notes).toEqual([]);
    const { rows } = await exportCsv(body.analysis_uuid);
    rows.forEach((row, n) => {
      // The body's centre is the box's centre (continuous coordinates: pixel c covers [c, c + 1)).
      const truth = F.centre(n);
      expect(Math.abs(Number(row[2]) - truth.x), `frame ${n} x`).toBeLessThanOrEqual(1.5);
      expect(Math.abs(Number(row[3]) - truth.y), `frame ${n} y`).toBeLessThanOrEqual(1.5);
    });
  }, 180_000);

  it('the summary equals the definitions applied to the exported positions', async () => {
    const { rows } = await exportCsv(run.analysis_uuid);
    const location = run.summary!.location;
    const fps = F.fps;
    const has = rows.map((row) => row[2] !== '');
    const x = rows.map((row) => Number(row[2]));
    const y = rows.map((row) => Number(row[3]));
    let distance = 0;
    for (let f = 1; f < rows.length; f++)
      if (has[f] && has[f - 1]) distance += Math.hypot(x[f]! - x[f - 1]!, y[f]! - y[f - 1]!);
    const tracked = has.filter(Boolean).length;
    expect(location.frames).toBe(F.frames);
    expect(location.frames_tracked).toBe(tracked);
    expect(location.distance_px).toBeCloseTo(distance, 6);
    // The distance column adds up to the same.
    expect(rows.reduce((sum, row) => sum + (row[4] === '' ? 0 : Number(row[4])), 0)).toBeCloseTo(distance, 6);
    expect(location.unit).toBe('cm');
    expect(location.distance).toBeCloseTo((distance * 5) / 100, 6);
    expect(location.mean_speed).toBeCloseTo((distance * 5) / 100 / (tracked / fps), 6);
    ZONES.forEach((zone, z) => {
      const mask = polygonsMask([zone.points as [number, number][]], F.width, F.height);
      const inside = rows.map((_, f) => has[f]! && mask[Math.floor(y[f]!) * F.width + Math.floor(x[f]!)] === 1);
      // The export's 0/1 column says the same.
      rows.forEach((row, f) => {
        expect(row[6 + z]).toBe(has[f] ? (inside[f] ? '1' : '0') : '');
      });
      const trackedFrames = rows.map((_, f) => f).filter((f) => has[f]);
      let entries = 0;
      trackedFrames.forEach((f, i) => {
        if (inside[f] && (i === 0 || !inside[trackedFrames[i - 1]!])) entries++;
      });
      const first = trackedFrames.find((f) => inside[f]);
      const figures = location.zones[z]!;
      expect(figures.name).toBe(zone.name);
      expect(figures.entries).toBe(entries);
      expect(figures.time_s).toBeCloseTo(inside.filter(Boolean).length / fps, 9);
      expect(figures.latency_s).toEqual(first === undefined ? null : expect.closeTo(first / fps, 9));
      let inDistance = 0;
      for (let f = 1; f < rows.length; f++) {
        if (inside[f] && inside[f - 1]) inDistance += Math.hypot(x[f]! - x[f - 1]!, y[f]! - y[f - 1]!);
      }
      expect(figures.distance_px).toBeCloseTo(inDistance, 6);
    });
    // The box crosses out of the left half once and through the band: known shapes of the track.
    expect(location.zones[0]).toMatchObject({ entries: 1, latency_s: 0 });
    expect(location.bins.map((bin) => [bin.start_s, bin.end_s])).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 4],
    ]);
    expect(location.bins.reduce((sum, bin) => sum + bin.distance_px, 0)).toBeCloseTo(location.distance_px, 6);
  });

  it('a run in one piece equals the run in pieces, value for value', async () => {
    const parameters = run.parameters;
    t.ctx.config.analysisSegmentSeconds = 600;
    let single: Run;
    try {
      const created = await post(owner, analysisUrl, { kind: 'location_tracking', parameters });
      expect(created.statusCode).toBe(201);
      const uuid = created.json().analysis_uuid as string;
      const pieces = await t.ctx.db.select().from(analysisSegments).where(eq(analysisSegments.analysisUuid, uuid));
      expect(pieces).toHaveLength(1);
      single = await waitForRun(uuid);
    } finally {
      t.ctx.config.analysisSegmentSeconds = 1;
    }
    expect(single.status).toBe('succeeded');
    expect((await exportCsv(single.analysis_uuid)).body).toBe((await exportCsv(run.analysis_uuid)).body);
    expect(single.summary!.location).toEqual(run.summary!.location);
  }, 180_000);

  /** A run of `parameters` with these settings for its planning (restored after). */
  async function runWith(parameters: Record<string, unknown>, settings: Partial<TestApp['ctx']['config']>) {
    const saved = { ...t.ctx.config };
    Object.assign(t.ctx.config, settings);
    try {
      const created = await post(owner, analysisUrl, { kind: 'location_tracking', parameters });
      expect(created.statusCode).toBe(201);
      const done = await waitForRun(created.json().analysis_uuid as string);
      expect(done.error).toBeNull();
      expect(done.status).toBe('succeeded');
      return done;
    } finally {
      Object.assign(t.ctx.config, saved);
    }
  }

  it('pieces that caught up in their warm-up are kept, the others tracked again: both equal a single pass', async () => {
    for (const algorithm of ['eztrack', 'body_core'] as const) {
      const parameters = { algorithm, zones: ZONES, bypass_ranges: [[2, 2.5]] };
      const single = await runWith(parameters, { analysisSegmentSeconds: 600 });
      const expected = (await exportCsv(single.analysis_uuid)).body;
      for (const warmUp of [0, 20]) {
        const split = await runWith(parameters, { locationWarmUpFrames: warmUp });
        const pieces = await t.ctx.db
          .select()
          .from(analysisSegments)
          .where(eq(analysisSegments.analysisUuid, split.analysis_uuid))
          .orderBy(asc(analysisSegments.index));
        expect(pieces.length).toBeGreaterThan(2);
        const states = pieces.map((piece) => piece.handoff as PieceStates);
        const caughtUp = states.slice(1).map((state, i) => sameState(state.entry, states[i]!.exit));
        // No warm-up: every piece after the first started from nothing, so each was tracked again.
        if (warmUp === 0) expect(caughtUp, algorithm).toEqual(caughtUp.map(() => false));
        // eztrack's state is its last position: 20 frames are plenty to catch up (1–4 measured), so none was.
        if (warmUp === 20 && algorithm === 'eztrack') expect(caughtUp).toEqual(caughtUp.map(() => true));
        expect((await exportCsv(split.analysis_uuid)).body, `${algorithm}, warm-up ${warmUp}`).toBe(expected);
        expect(split.summary!.location).toEqual(single.summary!.location);
      }
    }
  }, 300_000);

  it('exports XLSX; a location run has no events to export or detect on', async () => {
    const xlsx = await get(viewer, `${analysisUrl}${run.analysis_uuid}/export/?table=series&format=xlsx`);
    expect(xlsx.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'frame',
      'time_s',
      'x',
      'y',
      'distance_px',
      'distance_cm',
      'Left half',
      'Band',
    ]);
    expect(sheet.rowCount).toBe(F.frames + 1);
    const events = await get(owner, `${analysisUrl}${run.analysis_uuid}/export/?table=events`);
    expect(events.statusCode).toBe(400);
    expect(events.json().errors.table).toBeDefined();
    const detect = await post(owner, analysisUrl, {
      kind: 'event_detection',
      source_analysis_uuid: run.analysis_uuid,
    });
    expect(detect.statusCode).toBe(400);
    expect(detect.json().errors.source_analysis_uuid[0]).toMatch(/tracks location/);
  });

  it('hides runs from non-members (404) and keeps viewers from starting them (403)', async () => {
    const before = await runCount();
    const body = { kind: 'location_tracking', parameters: {} };
    for (const [method, url] of [
      ['POST', analysisUrl],
      ['GET', `${analysisUrl}${run.analysis_uuid}/`],
      ['GET', `${analysisUrl}${run.analysis_uuid}/export/?table=series`],
    ] as const) {
      const response = await t.app.inject({
        method,
        url,
        headers: outsider.headers,
        payload: method === 'POST' ? body : undefined,
      });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await post(viewer, analysisUrl, body)).statusCode).toBe(403);
    expect((await get(viewer, `${analysisUrl}${run.analysis_uuid}/`)).statusCode).toBe(200);
    expect(await runCount()).toBe(before);
  });
});
