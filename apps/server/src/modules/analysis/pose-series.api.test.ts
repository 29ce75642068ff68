/**
 * Pose-derived series (ADR 032) over real HTTP: a DeepLabCut CSV with planted low-likelihood frames, absent points and
 * gaps of both lengths is imported; speed, distance and angle runs are checked frame by frame against a reference
 * written here from the definitions (plain loops over the generated points, as Float32 the way the set stores them);
 * event detection on the speed finds the planted bursts, and its events are reviewed like any run's.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, queueCopyOfRun, type TestUser } from '../../../test/factories.js';
import { createProjectWithSubject, type ProjectWithSubject } from '../../../test/factories-videos.js';
import { httpRequests } from '../../../test/http-requests.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { analyses, videos } from '../../db/schema.js';
import { dlcCsv, makeTruth, type PoseTruth } from '../pose/pose-files.test-support.js';
import { runningAnalysisWorkers } from './engine/worker-client.js';
import { poseSeriesJob } from './pose-series.js';

/** More than one 1,024-frame block of the stored pose file. */
const FRAMES = 1500;
const FPS = 30;
const PARTS = ['nose', 'neck', 'tail_base', 'ear'];
/** Frames where the nose starts a burst: 10 px a frame for 4 frames (300 px/s against a baseline below 18 px/s). */
const BURSTS = [150, 450, 650, 900, 1100, 1350];

const inRange = (f: number, start: number, end: number) => f >= start && f < end;

/** How far the nose has been carried by the bursts up to frame f. */
function burstOffset(f: number): number {
  return BURSTS.reduce((sum, b) => sum + 10 * Math.min(4, Math.max(0, f - b)), 0);
}

/**
 * Known points. Nose: low likelihood at frames 0–1 (a gap at the start) and 1498–1499 (at the end), every 97th frame
 * from 50 (one-frame gaps), a 10-frame run 800–809 (too long to fill), absent points 400–402 (3 frames), a 5-frame run
 * 1022–1026 across the block boundary (exactly max_gap_frames), a 6-frame run 1200–1205 (one more), and a likelihood
 * exactly at the cutoff at frame 600. Neck: absent every 89th frame from 30, low 700–706 (7 frames). Tail base: low
 * every 71st frame from 20. Ear: always present.
 */
const truth: PoseTruth = {
  frames: FRAMES,
  individuals: ['single'],
  parts: { single: PARTS },
  point(f, _individual, part) {
    const detail = ((f * 37) % 100) / 1000;
    if (part === 'nose') {
      if (inRange(f, 400, 403)) return null;
      const low =
        f < 2 || f >= 1498 || f % 97 === 50 || inRange(f, 800, 810) || inRange(f, 1022, 1027) || inRange(f, 1200, 1206);
      const likelihood = f === 600 ? 0.6 : low ? 0.2 + detail : 0.85 + detail;
      return [320.125 + 3 * Math.sin(f / 7) + burstOffset(f), 240.5 + 2 * Math.cos(f / 5), likelihood];
    }
    if (part === 'neck') {
      if (f % 89 === 30) return null;
      return [300 + 40 * Math.cos(f / 50), 260 + 30 * Math.sin(f / 40), inRange(f, 700, 707) ? 0.1 : 0.9 + detail];
    }
    if (part === 'tail_base') {
      return [250 + 20 * Math.sin(f / 30), 300 + 10 * Math.cos(f / 45), f % 71 === 20 ? 0.59 : 0.8 + detail];
    }
    return [330 + 25 * Math.sin(f / 60), 250 + 25 * Math.cos(f / 60), 0.99];
  },
};

type Point = [number, number] | null;

/** A body part of the reference: a part of the single-animal truth, or [individual, part] of another truth. */
type RefPart = string | [string, string];

/** The reference: a point counts when present with likelihood (as Float32) not below the cutoff. */
function referenceTrack(part: RefPart, cutoff: number, maxGap: number, source: PoseTruth) {
  const [individual, name] = typeof part === 'string' ? ['single', part] : part;
  const raw: Point[] = [];
  let missing = 0;
  for (let f = 0; f < FRAMES; f++) {
    const p = source.point(f, individual, name);
    if (p && Math.fround(p[2]) >= cutoff) raw.push([Math.fround(p[0]), Math.fround(p[1])]);
    else {
      raw.push(null);
      missing++;
    }
  }
  const track: Point[] = [];
  let interpolated = 0;
  for (let f = 0; f < FRAMES; f++) {
    if (raw[f]) {
      track.push(raw[f]!);
      continue;
    }
    let before = f - 1;
    while (before >= 0 && !raw[before]) before--;
    let after = f + 1;
    while (after < FRAMES && !raw[after]) after++;
    if (before < 0 || after >= FRAMES || after - before - 1 > maxGap) {
      track.push(null);
      continue;
    }
    const a = raw[before]!;
    const b = raw[after]!;
    const share = (f - before) / (after - before);
    track.push([a[0] + (b[0] - a[0]) * share, a[1] + (b[1] - a[1]) * share]);
    interpolated++;
  }
  return { track, missing, interpolated };
}

const length = (dx: number, dy: number) => Math.sqrt(dx * dx + dy * dy);

function referenceSeries(measure: string, parts: RefPart[], cutoff = 0.6, maxGap = 5, source = truth) {
  const tracks = parts.map((part) => referenceTrack(part, cutoff, maxGap, source));
  const [a, b, c] = tracks.map((t) => t.track);
  const values: (number | null)[] = [];
  for (let f = 0; f < FRAMES; f++) {
    if (measure === 'speed') {
      const before = f > 0 ? a![f - 1] : null;
      const now = a![f];
      values.push(before && now ? length(now[0] - before[0], now[1] - before[1]) * FPS : null);
    } else if (measure === 'distance') {
      const p = a![f];
      const q = b![f];
      values.push(p && q ? length(p[0] - q[0], p[1] - q[1]) : null);
    } else {
      const p = a![f];
      const q = b![f];
      const r = c![f];
      if (!p || !q || !r) {
        values.push(null);
        continue;
      }
      const u = [p[0] - q[0], p[1] - q[1]] as const;
      const w = [r[0] - q[0], r[1] - q[1]] as const;
      const cos = (u[0] * w[0] + u[1] * w[1]) / (length(...u) * length(...w));
      values.push((Math.acos(Math.min(1, Math.max(-1, cos))) * 180) / Math.PI);
    }
  }
  return {
    values,
    missing: tracks.reduce((sum, t) => sum + t.missing, 0),
    interpolated: tracks.reduce((sum, t) => sum + t.interpolated, 0),
  };
}

/**
 * A multi-animal DeepLabCut file with a unique body part: two mice and an object under DeepLabCut's `single`. The
 * object stands at (500, 120) and is sometimes not seen (every 13th frame absent, likelihood cycling), as the mice's
 * points are (pose-files.test-support.ts).
 */
const trioBase = makeTruth(FRAMES, {
  mouse1: ['nose', 'tail_base'],
  mouse2: ['nose', 'tail_base'],
  single: ['object'],
});
const trio: PoseTruth = {
  ...trioBase,
  point(f, individual, part) {
    const point = trioBase.point(f, individual, part);
    return individual === 'single' && point ? [500, 120, point[2]] : point;
  },
};

type Run = {
  analysis_uuid: string;
  kind: string;
  status: string;
  error: string | null;
  parameters: Record<string, unknown>;
  summary: {
    samples: number;
    valid_samples: number;
    events: number;
    pose_series?: { pose_name: string; unit: string; missing_points: number; interpolated_points: number };
  } | null;
};

describe('pose-derived series', () => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let viewer: TestUser;
  let outsider: TestUser;
  let project: ProjectWithSubject;
  let other: ProjectWithSubject;
  let videoUrl: string;
  let analysisUrl: string;
  let poseUuid: string;
  let pairUuid: string;
  let trioUuid: string;
  let otherVideoSet: string;
  let otherProjectSet: string;
  let speedRun: Run;

  const http = httpRequests(() => t.url);
  const request = http.request;
  const importPose = (url: string, file: Buffer, name: string) => http.importPose(owner, url, file, name);
  const waitForRun = (uuid: string) => http.waitForRun<Run>(viewer, `${analysisUrl}${uuid}/`);

  async function createVideo(target: ProjectWithSubject) {
    const uuid = randomUUID();
    await t.ctx.db.insert(videos).values({
      videoUuid: uuid,
      projectUuid: target.projectUuid,
      subjectUuid: target.subjectUuid,
      name: 'Open field M3',
      originalFilename: 'openfield.mp4',
      // Never decoded: a pose series reads the pose set only.
      originalKey: `projects/${target.projectUuid}/videos/${uuid}/original.mp4`,
      status: 'ready',
      fps: FPS,
      frameCount: FRAMES,
      durationS: FRAMES / FPS,
      width: 640,
      height: 480,
    });
    return `${target.videosUrl}${uuid}/`;
  }

  async function derive(parameters: Record<string, unknown>, user = member): Promise<Run> {
    const response = await request(user, 'POST', analysisUrl, { kind: 'pose_series', parameters });
    expect(response.status, response.text).toBe(201);
    const run = await waitForRun(response.json().analysis_uuid);
    expect(run.status, run.error ?? '').toBe('succeeded');
    return run;
  }

  async function seriesOf(run: Run): Promise<Float64Array> {
    const response = await request(viewer, 'GET', `${analysisUrl}${run.analysis_uuid}/series/`);
    expect(response.status).toBe(200);
    const values = new Float64Array(response.bytes.length / 8);
    new Uint8Array(values.buffer).set(response.bytes);
    return values;
  }

  /** Every frame against the reference: no value where it has none, else equal to rounding. */
  function expectSeries(values: Float64Array, expected: (number | null)[], digits: number) {
    expect(values.length).toBe(FRAMES);
    for (let f = 0; f < FRAMES; f++) {
      const want = expected[f];
      if (want === null) expect(Number.isNaN(values[f]), `frame ${f} has no value`).toBe(true);
      else expect(values[f], `frame ${f}`).toBeCloseTo(want!, digits);
    }
  }

  async function runCount() {
    const response = await request(owner, 'GET', `/api/projects/${project.projectUuid}/analysis/`);
    return response.json().count as number;
  }

  beforeAll(async () => {
    t = await createTestApp({ workers: true, listen: true });
    owner = await createUser(t.ctx);
    member = await createUser(t.ctx);
    viewer = await createUser(t.ctx);
    outsider = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
    other = await createProjectWithSubject(t.ctx, owner);
    await addMember(t.ctx, project.projectUuid, member.id, 'member');
    await addMember(t.ctx, project.projectUuid, viewer.id, 'viewer');
    videoUrl = await createVideo(project);
    analysisUrl = `${videoUrl}analysis/`;
    poseUuid = await importPose(videoUrl, dlcCsv(truth), 'openfield DLC');
    const pair = makeTruth(FRAMES, { mouse1: ['nose', 'tail_base'], mouse2: ['nose', 'tail_base'] });
    pairUuid = await importPose(videoUrl, dlcCsv(pair, { multi: true }), 'pair');
    trioUuid = await importPose(videoUrl, dlcCsv(trio, { multi: true }), 'pair and object');
    const lone = makeTruth(FRAMES, { single: ['nose'] });
    otherVideoSet = await importPose(await createVideo(project), dlcCsv(lone), 'other video');
    otherProjectSet = await importPose(await createVideo(other), dlcCsv(lone), 'other project');
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('speed of a body part: px/s from the frame before, none at frame 0, short gaps filled, long ones left', async () => {
    speedRun = await derive({ pose_uuid: poseUuid, measure: 'speed', parts: ['nose'] });
    expect(speedRun.kind).toBe('pose_series');
    // Every default filled in and kept, the only individual named.
    expect(speedRun.parameters).toEqual({
      pose_uuid: poseUuid,
      measure: 'speed',
      individual: 'single',
      parts: ['nose'],
      likelihood_cutoff: 0.6,
      max_gap_frames: 5,
      scale: null,
    });
    const reference = referenceSeries('speed', ['nose']);
    const values = await seriesOf(speedRun);
    expectSeries(values, reference.values, 9);
    // The planted cases, named: frame 0 and the gap at the start have no value; a 3-frame absence and a 5-frame
    // run across the block boundary are filled; 10 and 6 frames are not, nor the first frame after them (its frame
    // before has no point); the likelihood at the cutoff counts.
    for (const f of [0, 1, 2, 805, 810, 1203, 1206, 1499]) expect(Number.isNaN(values[f]), `frame ${f}`).toBe(true);
    for (const f of [3, 147, 401, 403, 600, 601, 811, 1024, 1027, 1207])
      expect(Number.isNaN(values[f]), `frame ${f}`).toBe(false);
    // Inside a filled gap the point moves evenly: the same speed each frame.
    expect(values[401]).toBeCloseTo(values[402]!, 9);
    expect(speedRun.summary).toMatchObject({
      samples: FRAMES,
      valid_samples: reference.values.filter((v) => v !== null).length,
      events: 0,
      pose_series: {
        pose_name: 'openfield DLC',
        unit: 'px/s',
        missing_points: reference.missing,
        interpolated_points: reference.interpolated,
      },
    });
    // The run's thread ended once it had answered (a thread left alive would hold the set's bytes).
    const deadline = Date.now() + 5_000;
    while (runningAnalysisWorkers() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(runningAnalysisWorkers()).toBe(0);
    // The series CSV is there too (event detection and the exports read it).
    const csv = await request(viewer, 'GET', `${analysisUrl}${speedRun.analysis_uuid}/export/?table=series`);
    expect(csv.status).toBe(200);
    expect(csv.text.split('\r\n')[0]).toBe('frame,time_s,value');
    expect(csv.text.trim().split('\r\n')).toHaveLength(FRAMES + 1);
  });

  it('distance between two parts and the angle at a joint match the reference on every frame', async () => {
    const distance = await derive({ pose_uuid: poseUuid, measure: 'distance', parts: ['nose', 'neck'] });
    const expectedDistance = referenceSeries('distance', ['nose', 'neck']);
    expectSeries(await seriesOf(distance), expectedDistance.values, 9);
    expect(distance.summary?.pose_series).toMatchObject({
      unit: 'px',
      missing_points: expectedDistance.missing,
      interpolated_points: expectedDistance.interpolated,
    });

    const angle = await derive({ pose_uuid: poseUuid, measure: 'angle', parts: ['nose', 'neck', 'tail_base'] });
    const expectedAngle = referenceSeries('angle', ['nose', 'neck', 'tail_base']);
    const angles = await seriesOf(angle);
    expectSeries(angles, expectedAngle.values, 6);
    expect(angle.summary?.pose_series?.unit).toBe('degrees');
    for (const value of angles) if (!Number.isNaN(value)) expect(value >= 0 && value <= 180).toBe(true);
    // The neck's 7 low frames are past the 5-frame gap: no angle there.
    expect(Number.isNaN(angles[703])).toBe(true);
  });

  it('the cutoff and the gap length are the run’s own: cutoff 0 counts every point, max_gap_frames 0 fills nothing', async () => {
    const run = await derive({
      pose_uuid: poseUuid,
      measure: 'distance',
      parts: ['tail_base', 'ear'],
      likelihood_cutoff: 0,
      max_gap_frames: 0,
    });
    expectSeries(await seriesOf(run), referenceSeries('distance', ['tail_base', 'ear'], 0, 0).values, 9);
    expect(run.summary?.pose_series).toMatchObject({ missing_points: 0, interpolated_points: 0 });
    const strict = await derive({ pose_uuid: poseUuid, measure: 'speed', parts: ['nose'], max_gap_frames: 0 });
    const values = await seriesOf(strict);
    expectSeries(values, referenceSeries('speed', ['nose'], 0.6, 0).values, 9);
    expect(Number.isNaN(values[147])).toBe(true);
  });

  it('with a scale, speed and distance are in its unit (the location tracker’s scale line); an angle takes none', async () => {
    // 50 px is 2 cm: every value is the pixel reference × 0.04, in cm/s and cm.
    const scale = {
      true_distance: 2,
      unit: 'cm',
      line: [
        [100, 100],
        [130, 140],
      ],
    };
    const speed = await derive({ pose_uuid: poseUuid, measure: 'speed', parts: ['nose'], scale });
    expect(speed.parameters.scale).toEqual({ px_distance: 50, true_distance: 2, unit: 'cm', line: scale.line });
    expect(speed.summary?.pose_series?.unit).toBe('cm/s');
    const pixels = referenceSeries('speed', ['nose']).values;
    expectSeries(
      await seriesOf(speed),
      pixels.map((v) => (v === null ? null : v * 0.04)),
      9,
    );
    const distance = await derive({
      pose_uuid: poseUuid,
      measure: 'distance',
      parts: ['nose', 'neck'],
      scale: { px_distance: 100, true_distance: 25, unit: 'mm' },
    });
    expect(distance.summary?.pose_series?.unit).toBe('mm');
    const distancePixels = referenceSeries('distance', ['nose', 'neck']).values;
    expectSeries(
      await seriesOf(distance),
      distancePixels.map((v) => (v === null ? null : v * 0.25)),
      9,
    );
  });

  it('a multi-animal set takes the individual by name', async () => {
    const run = await derive({
      pose_uuid: pairUuid,
      measure: 'distance',
      individual: 'mouse2',
      parts: ['nose', 'tail_base'],
      likelihood_cutoff: 0.3,
    });
    const pair = makeTruth(FRAMES, { mouse1: ['nose', 'tail_base'], mouse2: ['nose', 'tail_base'] });
    const values = await seriesOf(run);
    // Frames where both points are present and likely enough: the plain distance of mouse2's own points.
    let checked = 0;
    for (let f = 0; f < FRAMES; f++) {
      const [nose, tail] = ['nose', 'tail_base'].map((p) => pair.point(f, 'mouse2', p)?.map(Math.fround));
      if (!nose || !tail || nose[2]! < 0.3 || tail[2]! < 0.3) continue;
      expect(values[f], `frame ${f}`).toBeCloseTo(length(nose[0]! - tail[0]!, nose[1]! - tail[1]!), 9);
      checked++;
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('one measure takes parts of different individuals: a mouse’s nose to the unique object, two mice’s noses', async () => {
    const object = { individual: 'single', part: 'object' };
    const toObject = await derive({
      pose_uuid: trioUuid,
      measure: 'distance',
      parts: [{ individual: 'mouse1', part: 'nose' }, object],
    });
    // Every part names its own individual: no run-wide individual is kept.
    expect(toObject.parameters).toEqual({
      pose_uuid: trioUuid,
      measure: 'distance',
      parts: [{ individual: 'mouse1', part: 'nose' }, object],
      likelihood_cutoff: 0.6,
      max_gap_frames: 5,
      scale: null,
    });
    const expected = referenceSeries(
      'distance',
      [
        ['mouse1', 'nose'],
        ['single', 'object'],
      ],
      0.6,
      5,
      trio,
    );
    const values = await seriesOf(toObject);
    expectSeries(values, expected.values, 9);
    expect(values.filter((v) => !Number.isNaN(v)).length).toBeGreaterThan(300);
    expect(toObject.summary?.pose_series).toMatchObject({
      unit: 'px',
      missing_points: expected.missing,
      interpolated_points: expected.interpolated,
    });

    // A bare name is a part of `individual`, beside a part of another individual: the social distance.
    const social = await derive({
      pose_uuid: trioUuid,
      measure: 'distance',
      individual: 'mouse1',
      parts: ['nose', { individual: 'mouse2', part: 'nose' }],
      likelihood_cutoff: 0.3,
    });
    expect(social.parameters).toMatchObject({
      individual: 'mouse1',
      parts: ['nose', { individual: 'mouse2', part: 'nose' }],
    });
    const noses = referenceSeries(
      'distance',
      [
        ['mouse1', 'nose'],
        ['mouse2', 'nose'],
      ],
      0.3,
      5,
      trio,
    );
    expectSeries(await seriesOf(social), noses.values, 9);

    // An angle across individuals: mouse1's nose, the object (the joint), mouse2's nose.
    const angle = await derive({
      pose_uuid: trioUuid,
      measure: 'angle',
      parts: [{ individual: 'mouse1', part: 'nose' }, object, { individual: 'mouse2', part: 'nose' }],
    });
    const angles = referenceSeries(
      'angle',
      [
        ['mouse1', 'nose'],
        ['single', 'object'],
        ['mouse2', 'nose'],
      ],
      0.6,
      5,
      trio,
    );
    expectSeries(await seriesOf(angle), angles.values, 6);

    // The old form on the same set keeps its meaning: mouse2's own two parts, as named.
    const own = await derive({
      pose_uuid: trioUuid,
      measure: 'distance',
      individual: 'mouse2',
      parts: ['nose', 'tail_base'],
    });
    expect(own.parameters).toMatchObject({ individual: 'mouse2', parts: ['nose', 'tail_base'] });
    expectSeries(
      await seriesOf(own),
      referenceSeries(
        'distance',
        [
          ['mouse2', 'nose'],
          ['mouse2', 'tail_base'],
        ],
        0.6,
        5,
        trio,
      ).values,
      9,
    );
  });

  it('event detection on the speed finds the planted bursts, and they are reviewed like any run’s events', async () => {
    const response = await request(member, 'POST', analysisUrl, {
      kind: 'event_detection',
      source_analysis_uuid: speedRun.analysis_uuid,
      parameters: {},
    });
    expect(response.status, response.text).toBe(201);
    const detection = await waitForRun(response.json().analysis_uuid);
    expect(detection.status, detection.error ?? '').toBe('succeeded');
    expect(detection.summary?.samples).toBe(FRAMES);
    expect(detection.summary?.events).toBe(BURSTS.length);
    const listed = await request(
      viewer,
      'GET',
      `${analysisUrl}retrieve-events/?analysis_uuid=${detection.analysis_uuid}`,
    );
    expect(listed.status).toBe(200);
    const { events, version } = listed.json() as { events: { id: number; time: number }[]; version: number };
    // A burst from frame b moves the nose first between frames b and b + 1: the onset is frame b + 1.
    expect(events.map((event) => Math.round(event.time * FPS))).toEqual(BURSTS.map((b) => b + 1));

    const review = await request(member, 'POST', `${analysisUrl}update-events/`, {
      analysis_uuid: detection.analysis_uuid,
      version,
      changes: [
        { action: 'discard', id: events[0]!.id },
        { action: 'label', id: events[1]!.id, label: 'dart' },
      ],
    });
    expect(review.status, review.text).toBe(200);
    const after = await waitForRun(detection.analysis_uuid);
    expect(after.status).toBe('succeeded');
    const counts = (await request(viewer, 'GET', `${analysisUrl}${detection.analysis_uuid}/`)).json().event_counts;
    expect(counts).toMatchObject({
      detected: BURSTS.length,
      kept: BURSTS.length - 1,
      discarded: 1,
      by_label: { dart: 1 },
    });
  });

  it('a detection’s answer says what its series is: the pose series’ measure, parts and unit, or the kind', async () => {
    const scaled = await derive({
      pose_uuid: trioUuid,
      measure: 'distance',
      individual: 'mouse1',
      parts: ['nose', { individual: 'single', part: 'object' }],
      scale: { px_distance: 50, true_distance: 2, unit: 'cm' },
    });
    expect(scaled).toMatchObject({ source_series: null });
    const detect = async (source: string) => {
      const response = await request(member, 'POST', analysisUrl, {
        kind: 'event_detection',
        source_analysis_uuid: source,
        parameters: {},
      });
      expect(response.status, response.text).toBe(201);
      return response.json() as Run & { source_series: unknown };
    };
    const described = {
      analysis_uuid: scaled.analysis_uuid,
      kind: 'pose_series',
      pose: {
        measure: 'distance',
        parts: [
          { individual: 'mouse1', part: 'nose' },
          { individual: 'single', part: 'object' },
        ],
        unit: 'cm',
      },
    };
    const first = await detect(scaled.analysis_uuid);
    expect(first.source_series).toEqual(described);
    const done = await waitForRun(first.analysis_uuid);
    // A detection on that detection reads the same series: the chain is followed to the run that made it.
    const second = await detect(done.analysis_uuid);
    expect(second.source_series).toEqual(described);
    // Runs of the old form name their one individual on every part.
    const onSpeed = await detect(speedRun.analysis_uuid);
    expect(onSpeed.source_series).toEqual({
      analysis_uuid: speedRun.analysis_uuid,
      kind: 'pose_series',
      pose: { measure: 'speed', parts: [{ individual: 'single', part: 'nose' }], unit: 'px/s' },
    });
    // Any other series says its kind only: a movement run (its row made here, as one that succeeded).
    const [speedRow] = await t.ctx.db.select().from(analyses).where(eq(analyses.analysisUuid, speedRun.analysis_uuid));
    const [movement] = await t.ctx.db
      .insert(analyses)
      .values({ ...speedRow!, analysisUuid: randomUUID(), kind: 'movement_detection', parameters: {}, summary: null })
      .returning();
    const onMovement = await detect(movement!.analysisUuid);
    expect(onMovement.source_series).toEqual({
      analysis_uuid: movement!.analysisUuid,
      kind: 'movement_detection',
      pose: null,
    });
    // The project's list answers the same, without a request per row.
    const listed = await request(viewer, 'GET', `/api/projects/${project.projectUuid}/analysis/?page_size=500`);
    const rows = listed.json().results as { analysis_uuid: string; source_series: unknown }[];
    const row = (uuid: string) => rows.find((item) => item.analysis_uuid === uuid)?.source_series;
    expect(row(first.analysis_uuid)).toEqual(described);
    expect(row(second.analysis_uuid)).toEqual(described);
    expect(row(onMovement.analysis_uuid)).toEqual(onMovement.source_series);
    expect(row(scaled.analysis_uuid)).toBeNull();
    for (const uuid of [first.analysis_uuid, second.analysis_uuid, onSpeed.analysis_uuid, onMovement.analysis_uuid]) {
      await waitForRun(uuid);
    }
  });

  it('refuses bad parameters field by field and keeps nothing', async () => {
    const before = await runCount();
    const refused = async (parameters: unknown, field: string, contains?: string) => {
      const response = await request(member, 'POST', analysisUrl, { kind: 'pose_series', parameters });
      expect(response.status, response.text).toBe(400);
      const errors = response.json().errors as Record<string, string[]>;
      expect(Object.keys(errors), response.text).toContain(field);
      if (contains) expect(errors[field]!.join(' ')).toContain(contains);
    };
    const base = { pose_uuid: poseUuid, measure: 'speed', parts: ['nose'] };
    const absent = 'No pose set of this video has that id.';
    await refused({ ...base, pose_uuid: randomUUID() }, 'parameters.pose_uuid', absent);
    await refused({ ...base, pose_uuid: 'not-a-uuid' }, 'parameters.pose_uuid', absent);
    await refused({ ...base, pose_uuid: otherVideoSet }, 'parameters.pose_uuid', absent);
    await refused({ ...base, pose_uuid: otherProjectSet }, 'parameters.pose_uuid', absent);
    await refused({ measure: 'speed', parts: ['nose'] }, 'parameters.pose_uuid');
    await refused({ ...base, measure: 'velocity' }, 'parameters.measure', 'speed, distance, angle');
    await refused({ ...base, pose_uuid: pairUuid }, 'parameters.individual', 'mouse1, mouse2');
    await refused({ ...base, pose_uuid: pairUuid, individual: 'mouse9' }, 'parameters.individual', 'mouse1, mouse2');
    await refused({ ...base, parts: ['nose', 'paw'] }, 'parameters.parts', '2 given');
    await refused({ ...base, parts: ['paw'] }, 'parameters.parts', 'nose, neck, tail_base, ear');
    await refused({ ...base, measure: 'distance', parts: ['nose'] }, 'parameters.parts', 'two body parts');
    await refused({ ...base, measure: 'angle', parts: ['nose', 'neck'] }, 'parameters.parts', 'three body parts');
    await refused({ ...base, measure: 'distance', parts: ['nose', 'nose'] }, 'parameters.parts', 'different');
    const cm = { px_distance: 50, true_distance: 2, unit: 'cm' };
    await refused(
      { ...base, measure: 'angle', parts: ['nose', 'neck', 'ear'], scale: cm },
      'parameters.scale',
      'degrees',
    );
    await refused({ ...base, scale: { ...cm, unit: 'furlong' } }, 'parameters.scale.unit', 'mm, cm, m, in');
    await refused({ ...base, scale: { true_distance: 2, unit: 'cm' } }, 'parameters.scale.px_distance');
    await refused(
      {
        ...base,
        scale: {
          true_distance: 2,
          unit: 'cm',
          line: [
            [0, 0],
            [700, 0],
          ],
        },
      },
      'parameters.scale.line',
      'outside the 640×480 picture',
    );
    await refused({ ...base, parts: 'nose' }, 'parameters.parts');
    await refused({ ...base, likelihood_cutoff: 1.5 }, 'parameters.likelihood_cutoff', 'between 0 and 1');
    await refused({ ...base, likelihood_cutoff: -0.1 }, 'parameters.likelihood_cutoff', 'between 0 and 1');
    await refused({ ...base, likelihood_cutoff: 'high' }, 'parameters.likelihood_cutoff');
    await refused({ ...base, max_gap_frames: -1 }, 'parameters.max_gap_frames', '0 or more');
    await refused({ ...base, max_gap_frames: 2.5 }, 'parameters.max_gap_frames', 'whole number');
    await refused({ ...base, smoothing: 3 }, 'parameters', 'Unknown parameter');
    // Parts of different individuals: each entry checked against the set, naming what it has.
    const mouseNose = { individual: 'mouse1', part: 'nose' };
    const across = { ...base, pose_uuid: trioUuid, measure: 'distance' };
    await refused(
      { ...across, parts: [{ individual: 'mouse9', part: 'nose' }, mouseNose] },
      'parameters.parts',
      'Part 1: the set has no individual "mouse9"; it has mouse1, mouse2, single.',
    );
    await refused(
      { ...across, parts: [mouseNose, { individual: 'single', part: 'paw' }] },
      'parameters.parts',
      'Part 2: single has no body part "paw"; its body parts: object.',
    );
    await refused(
      { ...across, parts: ['nose', { individual: 'single', part: 'object' }] },
      'parameters.individual',
      "name one of mouse1, mouse2, single, or each part's own ({individual, part})",
    );
    await refused({ ...across, parts: [mouseNose, mouseNose] }, 'parameters.parts', 'Name different body parts.');
    await refused(
      { ...across, individual: 'mouse1', parts: ['nose', mouseNose] },
      'parameters.parts',
      'Name different body parts.',
    );
    await refused(
      { ...across, parts: [mouseNose, { individual: 'single' }] },
      'parameters.parts',
      'Part 2: Each part is a body part name, or {individual, part}.',
    );
    await refused({ ...across, parts: [mouseNose] }, 'parameters.parts', 'two body parts; 1 given');
    expect(await runCount()).toBe(before);
  });

  it('roles: a viewer cannot derive a series, a non-member sees 404', async () => {
    const body = { kind: 'pose_series', parameters: { pose_uuid: poseUuid, measure: 'speed', parts: ['nose'] } };
    expect((await request(viewer, 'POST', analysisUrl, body)).status).toBe(403);
    expect((await request(outsider, 'POST', analysisUrl, body)).status).toBe(404);
    expect((await request(outsider, 'GET', `${analysisUrl}${speedRun.analysis_uuid}/series/`)).status).toBe(404);
  });

  it('a revoked run stays revoked: its thread is stopped and no series is stored', async () => {
    const response = await request(member, 'POST', analysisUrl, {
      kind: 'pose_series',
      parameters: { pose_uuid: poseUuid, measure: 'angle', parts: ['ear', 'neck', 'tail_base'] },
    });
    expect(response.status).toBe(201);
    const uuid = response.json().analysis_uuid as string;
    const revoke = await request(member, 'POST', `${analysisUrl}${uuid}/revoke/`);
    // 409 only when the job finished first (a busy machine can be that slow to revoke).
    expect([200, 409], revoke.text).toContain(revoke.status);
    if (revoke.status !== 200) return;
    const deadline = Date.now() + 30_000;
    while (runningAnalysisWorkers() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(runningAnalysisWorkers()).toBe(0);
    const run = await waitForRun(uuid);
    expect(run.status).toBe('revoked');
    expect((await request(viewer, 'GET', `${analysisUrl}${uuid}/series/`)).status).toBe(400);
  });

  it('a derived series outlives its pose set; a run whose set is gone before its job fails, saying why', async () => {
    const doomed = await importPose(videoUrl, dlcCsv(truth), 'doomed');
    const kept = await derive({ pose_uuid: doomed, measure: 'speed', parts: ['ear'] });
    expect((await request(owner, 'DELETE', `${videoUrl}pose/${doomed}/`)).status).toBe(204);
    expectSeries(await seriesOf(kept), referenceSeries('speed', ['ear']).values, 9);
    // The same run queued again now that the set is gone (as if the deletion came between creation and its job).
    const failed = await waitForRun(await queueCopyOfRun(t.ctx, kept.analysis_uuid, poseSeriesJob));
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe('The pose set this series is derived from was deleted.');
  });
});
