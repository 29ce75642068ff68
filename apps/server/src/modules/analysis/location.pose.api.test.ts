/**
 * Location tracking from a pose set's body part (ADR 037) over real HTTP, on data checked by hand: a DeepLabCut file
 * whose nose sits at one point outside the object zone and one point inside it, entering at known frames, with a
 * short low-likelihood gap inside (filled) and a long one (left missing), and a bypassed start. Every figure below is
 * worked out in the comments from the summary's definitions (engine/location/summary.ts); the series export, the
 * jumps, the figure and the project summary's columns read the run like a tracked one; the figures are drawn over the
 * video's first frame (a real, generated two-tone arena), or on white — said in the notes — when it cannot be decoded.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, queueCopyOfRun, type TestUser } from '../../../test/factories.js';
import {
  createProjectWithSubject,
  type ProjectWithSubject,
  uploadVideo,
  waitForVideo,
} from '../../../test/factories-videos.js';
import { TWO_TONE_ARENA, twoToneArenaVideo } from '../../../test/fixtures/location-videos.js';
import { httpRequests } from '../../../test/http-requests.js';
import { readPng } from '../../../test/png-read.js';
import { byId, readSvg } from '../../../test/svg-read.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { analyses, videos } from '../../db/schema.js';
import { analysisKeys } from '../../lib/storage-keys.js';
import { dlcCsv, makeTruth, type PoseTruth } from '../pose/pose-files.test-support.js';
import { poseLocationJob } from './location.pose.js';

const FPS = 30;
const FRAMES = 300;
const OUTSIDE: [number, number] = [100, 100];
const INSIDE: [number, number] = [440, 240];
/** The object zone: a square around INSIDE, far from OUTSIDE. */
const OBJECT = [
  [400, 200],
  [480, 200],
  [480, 280],
  [400, 280],
];
const inRange = (f: number, start: number, end: number) => f >= start && f < end;
/** Inside at frames 60–89, 150–164 and 200–219; elsewhere outside. */
const inside = (f: number) => inRange(f, 60, 90) || inRange(f, 150, 165) || inRange(f, 200, 220);
/** Below the cutoff: 155–157 (3 frames, filled: gap ≤ 5) and 205–214 (10 frames, left missing). */
const low = (f: number) => inRange(f, 155, 158) || inRange(f, 205, 215);

const truth: PoseTruth = {
  frames: FRAMES,
  individuals: ['single'],
  parts: { single: ['nose', 'tail_base'] },
  point(f, _individual, part) {
    if (part === 'tail_base') return [50, 400, 0.95];
    const [x, y] = inside(f) ? INSIDE : OUTSIDE;
    return [x, y, low(f) ? 0.1 : 0.9];
  },
};

/**
 * By hand. Frames 0–14 are bypassed ([0, 0.5] s): no position, and the first analysed frame is 15. Frames 205–214
 * have none (10 missing > max_gap_frames 5); 155–157 are filled between two inside points, so inside.
 * - frames_tracked = 300 − 15 − 10 = 275; frames inside = 30 + 15 + 10 (200–204, 215–219) = 55.
 * - time_s = 55 / 30; percent = 55 / 275 × 100 = 20; latency = (60 − 15) / 30 = 1.5 s.
 * - entries: 60, 150, 200 — at 215 the previous tracked frame (204) was inside, so no new entry: 3.
 * - steps between consecutive frames both with a position: the six crossings 59→60, 89→90, 149→150, 164→165,
 *   199→200, 219→220, each |INSIDE − OUTSIDE| = √(340² + 140²); none inside the zone (it never moves there).
 * - bins of 5 s: frames 0–149 (tracked 135, inside 30, 1 entry, latency (60 − 15) / 30) and 150–299 (tracked 140,
 *   inside 25, 2 entries, latency 0: its first analysed frame, 150, is inside).
 */
const CROSSING = Math.sqrt(340 ** 2 + 140 ** 2);

type ZoneFigures = {
  name: string;
  time_s: number;
  percent: number | null;
  entries: number;
  latency_s: number | null;
  distance_px: number;
};
type Run = {
  analysis_uuid: string;
  kind: string;
  status: string;
  error: string | null;
  parameters: Record<string, unknown>;
  summary: {
    samples: number;
    location?: {
      frames: number;
      frames_tracked: number;
      tracked_s: number;
      distance_px: number;
      distance: number | null;
      unit: string | null;
      zones: ZoneFigures[];
      bins: { start_s: number; end_s: number; frames_tracked: number; zones: ZoneFigures[] }[];
      jumps?: { threshold_px: number; basis: string; count: number };
      notes: string[];
      pose?: Record<string, unknown>;
    };
  } | null;
};

describe('location from a pose body part', { timeout: 180_000 }, () => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let viewer: TestUser;
  let project: ProjectWithSubject;
  let videoUrl: string;
  let analysisUrl: string;
  let poseUuid: string;
  let run: Run;

  const http = httpRequests(() => t.url);
  const request = http.request;
  const importPose = (url: string, file: Buffer, name: string) => http.importPose(owner, url, file, name);
  const waitForRun = (uuid: string, url = analysisUrl) => http.waitForRun<Run>(viewer, `${url}${uuid}/`);

  async function createVideo() {
    const uuid = randomUUID();
    await t.ctx.db.insert(videos).values({
      videoUuid: uuid,
      projectUuid: project.projectUuid,
      subjectUuid: project.subjectUuid,
      name: 'Novel object M7',
      originalFilename: 'object.mp4',
      // No file behind it: positions from a pose set read the set only (the figures' picture cannot be decoded).
      originalKey: `projects/${project.projectUuid}/videos/${uuid}/original.mp4`,
      // A container the tracker could decode: the preview is refused for the source, not the file.
      container: 'mov,mp4,m4a,3gp,3g2,mj2',
      status: 'ready',
      fps: FPS,
      frameCount: FRAMES,
      durationS: FRAMES / FPS,
      width: 640,
      height: 480,
    });
    return `${project.videosUrl}${uuid}/`;
  }

  async function track(parameters: Record<string, unknown>, url = analysisUrl): Promise<Run> {
    const response = await request(member, 'POST', url, { kind: 'location_tracking', parameters });
    expect(response.status, response.text).toBe(201);
    const done = await waitForRun(response.json().analysis_uuid, url);
    expect(done.status, done.error ?? '').toBe('succeeded');
    return done;
  }

  async function refused(parameters: Record<string, unknown>, url = analysisUrl) {
    const response = await request(member, 'POST', url, { kind: 'location_tracking', parameters });
    expect(response.status, response.text).toBe(400);
    return response.json().errors as Record<string, string[]>;
  }

  const runCount = async () =>
    (await request(owner, 'GET', `/api/projects/${project.projectUuid}/analysis/`)).json().count as number;

  beforeAll(async () => {
    t = await createTestApp({ workers: true, listen: true });
    owner = await createUser(t.ctx);
    member = await createUser(t.ctx);
    viewer = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
    await addMember(t.ctx, project.projectUuid, member.id, 'member');
    await addMember(t.ctx, project.projectUuid, viewer.id, 'viewer');
    // The video itself (a still two-tone arena, 300 frames): its first frame is the figures' picture.
    const uploaded = await uploadVideo(t.app, owner, project.videosUrl, twoToneArenaVideo());
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    videoUrl = `${project.videosUrl}${uploaded.json().video_uuid}/`;
    const ready = await waitForVideo(t.app, owner, videoUrl, undefined, 60_000);
    expect(ready).toMatchObject({ status: 'ready', frame_count: FRAMES, width: 640, height: 480 });
    analysisUrl = `${videoUrl}analysis/`;
    poseUuid = await importPose(videoUrl, dlcCsv(truth), 'object DLC');
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('gives the tracker’s zone figures from the nose: time, %, entries, latency, bins, distance — by hand', async () => {
    run = await track({
      source: { pose_uuid: poseUuid, part: 'nose' },
      // The video tracker's settings are not used, and not kept.
      algorithm: 'eztrack',
      exclusions: [{ points: OBJECT }],
      zones: [{ name: 'object', points: OBJECT }],
      scale: { px_distance: 100, true_distance: 2, unit: 'cm' },
      bypass_ranges: [[0, 0.5]],
      bin_s: 5,
    });
    expect(run.kind).toBe('location_tracking');
    expect(run.parameters).toEqual({
      source: { pose_uuid: poseUuid, individual: 'single', part: 'nose', likelihood_cutoff: 0.6, max_gap_frames: 5 },
      zones: [{ name: 'object', points: OBJECT }],
      scale: { px_distance: 100, true_distance: 2, unit: 'cm' },
      bypass_ranges: [[0, 0.5]],
      bin_s: 5,
      jump_px: null,
    });
    const location = run.summary!.location!;
    expect(location.frames).toBe(300);
    expect(location.frames_tracked).toBe(275);
    expect(location.tracked_s).toBeCloseTo(275 / 30, 12);
    expect(location.distance_px).toBeCloseTo(6 * CROSSING, 9);
    expect(location.distance).toBeCloseTo(6 * CROSSING * 0.02, 9);
    expect(location.unit).toBe('cm');
    const [zone] = location.zones;
    expect(zone!.name).toBe('object');
    expect(zone!.time_s).toBeCloseTo(55 / 30, 12);
    expect(zone!.percent).toBeCloseTo(20, 12);
    expect(zone!.entries).toBe(3);
    expect(zone!.latency_s).toBeCloseTo(1.5, 12);
    expect(zone!.distance_px).toBe(0);
    expect(location.bins.map((bin) => [bin.start_s, bin.end_s, bin.frames_tracked])).toEqual([
      [0, 5, 135],
      [5, 10, 140],
    ]);
    expect(location.bins.map((bin) => [bin.zones[0]!.entries, bin.zones[0]!.latency_s])).toEqual([
      [1, 1.5],
      [2, 0],
    ]);
    expect(location.bins[0]!.zones[0]!.time_s).toBeCloseTo(1, 12);
    expect(location.bins[1]!.zones[0]!.time_s).toBeCloseTo(25 / 30, 12);
    // Every crossing is longer than a fifth of the 480 px side: six jumps to check.
    expect(location.jumps).toEqual({ threshold_px: 96, basis: 'frame', count: 6 });
    expect(location.notes).toEqual([]);
    // 13 points below the cutoff (and none absent); the 3 of the short gap filled.
    expect(location.pose).toEqual({
      pose_name: 'object DLC',
      individual: 'single',
      part: 'nose',
      missing_points: 13,
      interpolated_points: 3,
    });
  });

  it('exports the positions as a tracked run’s, lists the jumps, draws the figure, fills the project summary', async () => {
    const csv = await request(viewer, 'GET', `${analysisUrl}${run.analysis_uuid}/export/?table=series`);
    expect(csv.status).toBe(200);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('frame,time_s,x,y,distance_px,distance_cm,object');
    expect(lines).toHaveLength(FRAMES + 1);
    const row = (f: number) => lines[f + 1]!.split(',');
    expect(row(10)).toEqual(['10', '0.333333', '', '', '', '', '']);
    expect(row(59).slice(2)).toEqual(['100', '100', '0', '0', '0']);
    expect(row(60)[6]).toBe('1');
    expect(Number(row(60)[4])).toBeCloseTo(CROSSING, 6);
    // Filled from the points either side (both INSIDE), so inside; the long gap has no position.
    expect(row(156).slice(2)).toEqual(['440', '240', '0', '0', '1']);
    expect(row(210).slice(2)).toEqual(['', '', '', '', '']);

    const jumps = (await request(viewer, 'GET', `${analysisUrl}${run.analysis_uuid}/jumps/`)).json();
    expect(jumps.results.map((jump: { frame: number }) => jump.frame)).toEqual([60, 90, 150, 165, 200, 220]);

    // The figures sit on the video's picture (its first frame, kept with the run), not on white.
    const figure = await request(viewer, 'GET', `${analysisUrl}${run.analysis_uuid}/figure/?name=track&format=svg`);
    expect(figure.status).toBe(200);
    const picture = byId(readSvg(figure.text), 'reference')!;
    expect(picture.name).toBe('image');
    const embedded = readPng(Buffer.from(picture.attributes.href!.replace('data:image/png;base64,', ''), 'base64'));
    expect([embedded.width, embedded.height, embedded.channels]).toEqual([640, 480, 1]);
    const [stillRow] = await t.ctx.db.select().from(analyses).where(eq(analyses.analysisUuid, run.analysis_uuid));
    const chunks: Buffer[] = [];
    for await (const chunk of await t.ctx.storage.read(analysisKeys(stillRow!).reference)) chunks.push(chunk as Buffer);
    const stored = Buffer.concat(chunks);
    const kept = new Float32Array(stored.buffer, stored.byteOffset, stored.length / 4);
    expect(Array.from(embedded.pixels)).toEqual(Array.from(kept, (value) => Math.round(value)));
    // Dark on the left, light on the right, as the arena was filmed (x264 moves a grey level by a step or two).
    const near = (value: number, want: number) =>
      expect(Math.abs(value - want), `${value} vs ${want}`).toBeLessThanOrEqual(3);
    near(embedded.pixels[240 * 640 + 40]!, TWO_TONE_ARENA.dark);
    near(embedded.pixels[400 * 640 + 600]!, TWO_TONE_ARENA.light);
    const raster = await request(viewer, 'GET', `${analysisUrl}${run.analysis_uuid}/figure/?name=heatmap&format=png`);
    expect(raster.status).toBe(200);
    const png = readPng(raster.bytes);
    const rgb = (x: number, y: number) => Array.from(png.pixels.subarray(3 * (y * 640 + x), 3 * (y * 640 + x) + 3));
    for (const channel of rgb(40, 240)) near(channel, TWO_TONE_ARENA.dark);
    for (const channel of rgb(600, 400)) near(channel, TWO_TONE_ARENA.light);

    const summary = await request(viewer, 'GET', `/api/projects/${project.projectUuid}/analysis/export/?format=csv`);
    const [header, ...rows] = summary.text.trim().split('\r\n');
    const columns = header!.split(',');
    const cells = rows.find((line) => line.includes(run.analysis_uuid))!.split(',');
    const cell = (name: string) => cells[columns.indexOf(name)];
    expect(cell('zone_object_time_s')).toBe('1.833333');
    expect(cell('zone_object_percent')).toBe('20');
    expect(cell('zone_object_entries')).toBe('3');
    expect(cell('zone_object_latency_s')).toBe('1.5');
    expect(Number(cell('distance_cm'))).toBeCloseTo(6 * CROSSING * 0.02, 6);
  });

  it('takes the video’s newest pose set when none is named, so a protocol can hold the rule', async () => {
    const protocol = await request(owner, 'POST', `/api/projects/${project.projectUuid}/protocols/`, {
      name: 'Nose in object zone',
      kind: 'location_tracking',
      parameters: { source: { part: 'nose', likelihood_cutoff: 0.5 }, zones: [{ name: 'object', points: OBJECT }] },
    });
    expect(protocol.status, protocol.text).toBe(201);
    // A later import is the newest: the same file again, under another name.
    const newest = await importPose(videoUrl, dlcCsv(truth), 'object DLC again');
    const response = await request(member, 'POST', analysisUrl, { protocol_uuid: protocol.json().protocol_uuid });
    expect(response.status, response.text).toBe(201);
    const made = await waitForRun(response.json().analysis_uuid);
    expect(made.status, made.error ?? '').toBe('succeeded');
    expect(made.parameters.source).toEqual({
      pose_uuid: newest,
      individual: 'single',
      part: 'nose',
      likelihood_cutoff: 0.5,
      max_gap_frames: 5,
    });
    // No bypass now: the first analysed frame is 0, and frames 0–14 are tracked outside.
    expect(made.summary!.location!.zones[0]!.latency_s).toBe(2);
    expect(made.summary!.location!.frames_tracked).toBe(290);
  });

  it('refuses what does not fit the video’s pose sets by field, creating nothing; no preview', async () => {
    const before = await runCount();
    const zones = [{ name: 'object', points: OBJECT }];
    expect(await refused({ source: { pose_uuid: randomUUID(), part: 'nose' }, zones })).toEqual({
      'parameters.source.pose_uuid': ['No pose set of this video has that id.'],
    });
    expect(await refused({ source: { pose_uuid: poseUuid, part: 'snout' }, zones })).toEqual({
      'parameters.source.part': ['single has no body part "snout"; its body parts: nose, tail_base.'],
    });
    expect(await refused({ source: { pose_uuid: poseUuid }, zones })).toEqual({
      'parameters.source.part': ['Name the body part whose position is used (part).'],
    });
    expect(await refused({ source: { pose_uuid: poseUuid, part: 'nose', likelihood_cutoff: 2 } })).toEqual({
      'parameters.source.likelihood_cutoff': ['Must be between 0 and 1.'],
    });
    expect(await refused({ source: { part: 'nose', colour: 'red' } })).toEqual({
      'parameters.source': ['Unknown parameter: colour.'],
    });
    // Zones are still checked against the picture.
    const outside = await refused({
      source: { pose_uuid: poseUuid, part: 'nose' },
      zones: [
        {
          name: 'far',
          points: [
            [0, 0],
            [700, 0],
            [0, 10],
          ],
        },
      ],
    });
    expect(outside['parameters.zones']![0]).toMatch(/lies outside the 640×480 picture/);

    // Several individuals: one must be named.
    const pairVideo = await createVideo();
    const pair = makeTruth(FRAMES, { mouse1: ['nose'], mouse2: ['nose'] });
    const pairUuid = await importPose(pairVideo, dlcCsv(pair, { multi: true }), 'pair');
    expect(await refused({ source: { pose_uuid: pairUuid, part: 'nose' } }, `${pairVideo}analysis/`)).toEqual({
      'parameters.source.individual': ['The set has several individuals: name one of mouse1, mouse2.'],
    });
    const second = await track(
      { source: { pose_uuid: pairUuid, individual: 'mouse2', part: 'nose' } },
      `${pairVideo}analysis/`,
    );
    expect(second.summary!.location!.pose).toMatchObject({ individual: 'mouse2', part: 'nose' });
    // That video has no file to decode (a row made here): the run says its figures are on white, and they are.
    expect(second.summary!.location!.notes).toEqual([
      "The video's first frame could not be decoded, so this run's figures are drawn on white; its positions and zone figures do not depend on it.",
    ]);
    const white = await request(
      viewer,
      'GET',
      `${pairVideo}analysis/${second.analysis_uuid}/figure/?name=track&format=svg`,
    );
    expect(byId(readSvg(white.text), 'reference')).toMatchObject({ name: 'rect', attributes: { fill: '#ffffff' } });

    // A video without pose sets, and no set named.
    const bare = await createVideo();
    expect(await refused({ source: { part: 'nose' } }, `${bare}analysis/`)).toEqual({
      'parameters.source.pose_uuid': ['This video has no pose set: import one first.'],
    });

    const preview = await request(member, 'POST', `${analysisUrl}create-preview/`, {
      kind: 'location_tracking',
      parameters: { source: { pose_uuid: poseUuid, part: 'nose' } },
    });
    expect(preview.status, preview.text).toBe(400);
    expect(preview.json().errors['parameters.source'][0]).toMatch(/^A preview shows the video tracker at work/);
    // Viewers read, they do not run.
    expect(
      (
        await request(viewer, 'POST', analysisUrl, {
          kind: 'location_tracking',
          parameters: { source: { part: 'nose' } },
        })
      ).status,
    ).toBe(403);
    expect(await runCount()).toBe(before + 1);
  });

  it('keeps its positions when the set goes; a run whose set is gone before its job fails, saying why', async () => {
    const doomed = await importPose(videoUrl, dlcCsv(truth), 'doomed');
    const kept = await track({
      source: { pose_uuid: doomed, part: 'nose' },
      zones: [{ name: 'object', points: OBJECT }],
    });
    expect((await request(owner, 'DELETE', `${videoUrl}pose/${doomed}/`)).status).toBe(204);
    const csv = await request(viewer, 'GET', `${analysisUrl}${kept.analysis_uuid}/export/?table=series`);
    expect(csv.text.trim().split('\r\n')).toHaveLength(FRAMES + 1);
    // The same run queued again now that the set is gone (as if the deletion came between creation and its job).
    const failed = await waitForRun(await queueCopyOfRun(t.ctx, kept.analysis_uuid, poseLocationJob));
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe('The pose set these positions come from was deleted.');
  });
});
