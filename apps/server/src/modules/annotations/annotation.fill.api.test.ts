/**
 * An Annotator track filled from a rule on a pose-derived series (ADR 037), over real HTTP on data checked by hand:
 * the distance from the nose to an object (both body parts of a DeepLabCut file) is set frame by frame, so the bouts
 * of "nose within 20 px of the object" are known. Then the track is corrected by hand and exported like any track.
 * And the issue's own rule, "nose within 2 cm of the object", from a multi-animal file whose object is a unique body
 * part: a distance between parts of two individuals, in cm through a scale.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, type TestUser } from '../../../test/factories.js';
import { createProjectWithSubject, type ProjectWithSubject } from '../../../test/factories-videos.js';
import { httpRequests } from '../../../test/http-requests.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { videos } from '../../db/schema.js';
import { dlcCsv, type PoseTruth } from '../pose/pose-files.test-support.js';

const FPS = 10;
const FRAMES = 100;
const OBJECT: [number, number] = [300, 300];
const inRange = (f: number, start: number, end: number) => f >= start && f < end;

/**
 * The nose's distance from the object, frame by frame: 10 at frames 10–14, 15 at 16–19, exactly 20 at 40, 5 at 60–61,
 * 12 at 70–79 (frame 74 below the likelihood cutoff, and no gap filled: no value there); 50 elsewhere.
 */
const distance = (f: number) =>
  inRange(f, 10, 15)
    ? 10
    : inRange(f, 16, 20)
      ? 15
      : f === 40
        ? 20
        : inRange(f, 60, 62)
          ? 5
          : inRange(f, 70, 80)
            ? 12
            : 50;

const truth: PoseTruth = {
  frames: FRAMES,
  individuals: ['single'],
  parts: { single: ['nose', 'object'] },
  point(f, _individual, part) {
    if (part === 'object') return [...OBJECT, 0.99];
    return [OBJECT[0] + distance(f), OBJECT[1], f === 74 ? 0.1 : 0.9];
  },
};

/** Frame runs [first, end) as bouts in seconds, as the rule makes them (first / fps, end / fps). */
const bouts = (runs: [number, number][]) => runs.map(([a, b]) => [a / FPS, b / FPS]);
/** distance < 20: frames 10–14, 16–19, 60–61, 70–73, 75–79. */
const BELOW_20 = bouts([
  [10, 15],
  [16, 20],
  [60, 62],
  [70, 74],
  [75, 80],
]);

/**
 * "Nose within 2 cm of the object" from a multi-animal DeepLabCut file (ADR 037): two mice and the object, a unique
 * body part under DeepLabCut's `single`. 25 px are 1 cm. mouse1's nose is 30 px (1.2 cm) from the object at frames
 * 20–34 (frame 27 below the likelihood cutoff: no value, no gap filled), 49 px (1.96 cm) at 50–54, 51 px (2.04 cm) at
 * 60–64, 100 px (4 cm) elsewhere; mouse2's nose sits 10 px from the object throughout, so a measure that took the
 * wrong individual would find one bout over the whole video.
 */
const multi: PoseTruth = {
  frames: FRAMES,
  individuals: ['mouse1', 'mouse2', 'single'],
  parts: { mouse1: ['nose'], mouse2: ['nose'], single: ['object'] },
  point(f, individual) {
    if (individual === 'single') return [...OBJECT, 0.99];
    if (individual === 'mouse2') return [OBJECT[0], OBJECT[1] + 10, 0.95];
    const away = inRange(f, 20, 35) ? 30 : inRange(f, 50, 55) ? 49 : inRange(f, 60, 65) ? 51 : 100;
    return [OBJECT[0] + away, OBJECT[1], f === 27 ? 0.1 : 0.9];
  },
};
/** Within 2 cm (< 2): frames 20–26, 28–34, 50–54. */
const WITHIN_2_CM = bouts([
  [20, 27],
  [28, 35],
  [50, 55],
]);

type Fill = {
  track: { annotation_config_uuid: string; name: string; color: string; range_count: number; version: number };
  ranges: [number, number][];
  version: number;
  bouts: number;
};

describe('a track filled from a rule on a pose-derived series', { timeout: 180_000 }, () => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let viewer: TestUser;
  let project: ProjectWithSubject;
  let videoUrl: string;
  let annotationsUrl: string;
  let distanceRun: string;
  let multiVideoUrl: string;
  let noseToObjectRun: string;
  let filled: Fill;

  const { request, waitForRun: waitFor } = httpRequests(() => t.url);

  const fill = (body: Record<string, unknown>, user = member) =>
    request(user, 'POST', `${annotationsUrl}fill-from-series/`, { source_analysis_uuid: distanceRun, ...body });

  async function refused(body: Record<string, unknown>) {
    const response = await fill(body);
    expect(response.status, response.text).toBe(400);
    return response.json().errors as Record<string, string[]>;
  }

  const tracks = async () => (await request(viewer, 'GET', `${annotationsUrl}config/`)).json() as Fill['track'][];
  const rangesOf = async (uuid: string) => (await request(viewer, 'GET', `${annotationsUrl}${uuid}/`)).json();

  // biome-ignore lint/suspicious/noExplicitAny: the run's answer, read by field
  const waitForRun = (uuid: string, url = videoUrl) => waitFor<any>(viewer, `${url}analysis/${uuid}/`);

  beforeAll(async () => {
    t = await createTestApp({ workers: true, listen: true });
    owner = await createUser(t.ctx);
    member = await createUser(t.ctx);
    viewer = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
    await addMember(t.ctx, project.projectUuid, member.id, 'member');
    await addMember(t.ctx, project.projectUuid, viewer.id, 'viewer');
    const videoUuid = randomUUID();
    await t.ctx.db.insert(videos).values({
      videoUuid,
      projectUuid: project.projectUuid,
      subjectUuid: project.subjectUuid,
      name: 'Object M7',
      originalFilename: 'object.mp4',
      originalKey: `projects/${project.projectUuid}/videos/${videoUuid}/original.mp4`,
      status: 'ready',
      fps: FPS,
      frameCount: FRAMES,
      durationS: FRAMES / FPS,
      width: 640,
      height: 480,
    });
    videoUrl = `${project.videosUrl}${videoUuid}/`;
    annotationsUrl = `${videoUrl}annotations/`;
    const body = new FormData();
    body.append('file', new Blob([dlcCsv(truth)]), 'object.csv');
    const imported = await request(owner, 'POST', `${videoUrl}pose/`, body);
    expect(imported.status, imported.text).toBe(201);
    const created = await request(member, 'POST', `${videoUrl}analysis/`, {
      kind: 'pose_series',
      parameters: {
        pose_uuid: imported.json().pose_uuid,
        measure: 'distance',
        parts: ['nose', 'object'],
        max_gap_frames: 0,
      },
    });
    expect(created.status, created.text).toBe(201);
    distanceRun = created.json().analysis_uuid;
    expect((await waitForRun(distanceRun)).status).toBe('succeeded');

    // The multi-animal file, on a video of its own; the distance from mouse1's nose to the object, in cm.
    const multiUuid = randomUUID();
    await t.ctx.db.insert(videos).values({
      videoUuid: multiUuid,
      projectUuid: project.projectUuid,
      subjectUuid: project.subjectUuid,
      name: 'Object M8',
      originalFilename: 'object-pair.mp4',
      originalKey: `projects/${project.projectUuid}/videos/${multiUuid}/original.mp4`,
      status: 'ready',
      fps: FPS,
      frameCount: FRAMES,
      durationS: FRAMES / FPS,
      width: 640,
      height: 480,
    });
    multiVideoUrl = `${project.videosUrl}${multiUuid}/`;
    const multiBody = new FormData();
    multiBody.append('file', new Blob([dlcCsv(multi, { multi: true })]), 'object-pair.csv');
    const multiImport = await request(owner, 'POST', `${multiVideoUrl}pose/`, multiBody);
    expect(multiImport.status, multiImport.text).toBe(201);
    const noseToObject = await request(member, 'POST', `${multiVideoUrl}analysis/`, {
      kind: 'pose_series',
      parameters: {
        pose_uuid: multiImport.json().pose_uuid,
        measure: 'distance',
        parts: [
          { individual: 'mouse1', part: 'nose' },
          { individual: 'single', part: 'object' },
        ],
        max_gap_frames: 0,
        scale: { px_distance: 25, true_distance: 1, unit: 'cm' },
      },
    });
    expect(noseToObject.status, noseToObject.text).toBe(201);
    noseToObjectRun = noseToObject.json().analysis_uuid;
    const done = await waitForRun(noseToObjectRun, multiVideoUrl);
    expect(done.status, done.error).toBe('succeeded');
    expect(done.summary.pose_series.unit).toBe('cm');
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('makes a new track of the bouts where the distance is below 20, frame-exact', async () => {
    const response = await fill({ comparison: 'lt', threshold: 20, name: 'Nose at object', color: '#16A34A' });
    expect(response.status, response.text).toBe(201);
    filled = response.json();
    expect(filled.ranges).toEqual(BELOW_20);
    expect(filled.bouts).toBe(5);
    expect(filled.track).toMatchObject({ name: 'Nose at object', color: '#16a34a', range_count: 5 });
    expect(await rangesOf(filled.track.annotation_config_uuid)).toEqual({
      annotation_config_uuid: filled.track.annotation_config_uuid,
      ranges: BELOW_20,
      version: filled.version,
    });
  });

  it('"nose within 2 cm of the object": a mouse’s nose to a multi-animal file’s unique object, with a scale', async () => {
    const response = await request(member, 'POST', `${multiVideoUrl}annotations/fill-from-series/`, {
      source_analysis_uuid: noseToObjectRun,
      comparison: 'lt',
      threshold: 2,
      name: 'Nose within 2 cm of the object',
    });
    expect(response.status, response.text).toBe(201);
    const answer = response.json() as Fill;
    expect(answer.ranges).toEqual(WITHIN_2_CM);
    expect(answer.track).toMatchObject({ name: 'Nose within 2 cm of the object', range_count: 3 });
    // At least 1 s: the two halves of the first visit, broken by the unseen frame, count once when merged.
    const longer = await request(member, 'POST', `${multiVideoUrl}annotations/fill-from-series/`, {
      source_analysis_uuid: noseToObjectRun,
      annotation_config_uuid: answer.track.annotation_config_uuid,
      version: answer.version,
      comparison: 'lt',
      threshold: 2,
      merge_gap_s: 0.15,
      min_duration_s: 1,
    });
    expect(longer.status, longer.text).toBe(200);
    expect(longer.json().ranges).toEqual(bouts([[20, 35]]));
  });

  it('≤ takes the frame at the threshold; merging closes short gaps before short bouts are left out', async () => {
    const uuid = filled.track.annotation_config_uuid;
    let version = filled.version;
    const refill = async (rule: Record<string, unknown>) => {
      const response = await fill({ annotation_config_uuid: uuid, version, ...rule });
      expect(response.status, response.text).toBe(200);
      const answer = response.json() as Fill;
      expect(answer.version).toBe(version + 1);
      version = answer.version;
      return answer.ranges;
    };
    expect(await refill({ comparison: 'le', threshold: 20 })).toEqual(
      bouts([
        [10, 15],
        [16, 20],
        [40, 41],
        [60, 62],
        [70, 74],
        [75, 80],
      ]),
    );
    // The one-frame gaps (0.1 s) close under 0.15 s, not under 0.1 s.
    expect(await refill({ comparison: 'lt', threshold: 20, merge_gap_s: 0.1 })).toEqual(BELOW_20);
    expect(await refill({ comparison: 'lt', threshold: 20, merge_gap_s: 0.15 })).toEqual(
      bouts([
        [10, 20],
        [60, 62],
        [70, 80],
      ]),
    );
    // 0.2 s (frames 60–61) is too short for 0.3 s; merged first, the others are long enough.
    expect(await refill({ comparison: 'lt', threshold: 20, merge_gap_s: 0.15, min_duration_s: 0.3 })).toEqual(
      bouts([
        [10, 20],
        [70, 80],
      ]),
    );
    // Exactly 0.4 s stays at 0.4 s.
    expect(await refill({ comparison: 'lt', threshold: 20, min_duration_s: 0.4 })).toEqual(
      bouts([
        [10, 15],
        [16, 20],
        [70, 74],
        [75, 80],
      ]),
    );
    expect(await refill({ comparison: 'gt', threshold: 40 })).toEqual(
      bouts([
        [0, 10],
        [15, 16],
        [20, 40],
        [41, 60],
        [62, 70],
        [80, 100],
      ]),
    );
    filled = { ...filled, version };
  });

  it('merges into the bouts already there, then is corrected by hand and exported like any track', async () => {
    const uuid = filled.track.annotation_config_uuid;
    const reset = await fill({ annotation_config_uuid: uuid, version: filled.version, comparison: 'lt', threshold: 1 });
    expect(reset.json().ranges).toEqual([]);
    // A hand-scored bout overlapping the first rule bout, and one apart.
    const hand = await request(member, 'PUT', `${annotationsUrl}${uuid}/`, {
      version: reset.json().version,
      ranges: [
        [0.5, 1.2],
        [3, 3.5],
      ],
    });
    expect(hand.status, hand.text).toBe(200);
    const merged = await fill({
      annotation_config_uuid: uuid,
      version: hand.json().version,
      mode: 'merge',
      comparison: 'lt',
      threshold: 20,
    });
    expect(merged.status, merged.text).toBe(200);
    expect(merged.json().ranges).toEqual([[0.5, 1.5], ...BELOW_20.slice(1, 2), [3, 3.5], ...BELOW_20.slice(2)]);

    // By hand: the first bout shortened, a missed one added — a bout like any other.
    const corrected = await request(member, 'PATCH', `${annotationsUrl}${uuid}/`, {
      version: merged.json().version,
      remove: [[0.5, 1.5]],
      add: [
        [1, 1.5],
        [9, 9.5],
      ],
    });
    expect(corrected.status, corrected.text).toBe(200);
    const csv = await request(viewer, 'GET', `${annotationsUrl}${uuid}/export/?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.text.trim().split(/\r?\n/)).toEqual([
      'start,end',
      '1,1.5',
      '1.6,2',
      '3,3.5',
      '6,6.2',
      '7,7.4',
      '7.5,8',
      '9,9.5',
    ]);
    filled = { ...filled, version: corrected.json().version };
  });

  it('refuses a stale version with the current bouts (409), and bad input by field, changing nothing', async () => {
    const uuid = filled.track.annotation_config_uuid;
    const before = await rangesOf(uuid);
    const count = (await tracks()).length;
    const stale = await fill({
      annotation_config_uuid: uuid,
      version: filled.version - 1,
      comparison: 'lt',
      threshold: 20,
    });
    expect(stale.status).toBe(409);
    expect(stale.json()).toMatchObject({ version: before.version, ranges: before.ranges });

    expect(await refused({ comparison: 'lt', threshold: 20 })).toEqual({
      annotation_config_uuid: [
        'Give either annotation_config_uuid (a track of the video) or name (a new track), not both.',
      ],
    });
    expect(
      await refused({ comparison: 'lt', threshold: 20, name: 'x', annotation_config_uuid: uuid, version: 1 }),
    ).toHaveProperty('annotation_config_uuid');
    expect(await refused({ comparison: 'lt', threshold: 20, annotation_config_uuid: uuid })).toEqual({
      version: ['version is required: the version of the ranges you saw.'],
    });
    expect(
      await refused({ comparison: 'lt', threshold: 20, annotation_config_uuid: randomUUID(), version: 0 }),
    ).toEqual({
      annotation_config_uuid: ['No track of this video has that id.'],
    });
    expect(await refused({ comparison: 'below', threshold: 20, name: 'x' })).toEqual({
      comparison: ['comparison must be one of: lt, le, gt, ge.'],
    });
    expect(await refused({ comparison: 'lt', threshold: '20', name: 'x' })).toEqual({
      threshold: ['threshold must be a number.'],
    });
    expect(await refused({ comparison: 'lt', threshold: 20, min_duration_s: -1, name: 'x' })).toEqual({
      min_duration_s: ['Must be 0 or more.'],
    });
    expect(await refused({ comparison: 'lt', threshold: 20, name: 'Nose at object' })).toEqual({
      name: ['This video already has a track named "Nose at object".'],
    });
    expect(await refused({ comparison: 'lt', threshold: 20, name: 'x', source_analysis_uuid: randomUUID() })).toEqual({
      source_analysis_uuid: ['No run of this video has that id.'],
    });
    // A location run's series is positions.
    const located = await request(member, 'POST', `${videoUrl}analysis/`, {
      kind: 'location_tracking',
      parameters: { source: { part: 'nose' } },
    });
    expect(located.status, located.text).toBe(201);
    await waitForRun(located.json().analysis_uuid);
    expect(
      (
        await refused({
          comparison: 'lt',
          threshold: 20,
          name: 'x',
          source_analysis_uuid: located.json().analysis_uuid,
        })
      ).source_analysis_uuid![0],
    ).toMatch(/^That run holds positions/);

    expect((await fill({ comparison: 'lt', threshold: 20, name: 'viewer' }, viewer)).status).toBe(403);
    expect(await rangesOf(uuid)).toEqual(before);
    expect((await tracks()).length).toBe(count);
  });
});
