/**
 * The location-tracking preview and the reference choices through the API (issue 22): a preview's positions are
 * a run's (the same tracker on the same reference), the reference is cached per video and reference setting and
 * reused (by the next preview and by a run), the cache goes with the video; on a generated open field whose
 * animal sits still for 80 % of the video, the default reference needs repair and says so, while a reference from
 * an empty-arena video of the project puts the positions on the body; bad choices are 400 by field, nothing made.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addMember, createUser, type TestUser } from '../../../test/factories.js';
import {
  createProjectWithSubject,
  type ProjectWithSubject,
  uploadVideo,
  waitForVideo,
} from '../../../test/factories-videos.js';
import { LOCATION_FIXTURE, locationVideo, mouseSceneVideo } from '../../../test/fixtures/location-videos.js';
import { mouseScene } from '../../../test/fixtures/mouse-scenes.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { videos } from '../../db/schema.js';
import { analysisKeys, locationReferenceKeys } from '../../lib/storage-keys.js';
import { deleteVideo } from '../videos/video.service.js';
import type { Point } from './engine/location/tracker.js';
import { errorFigures } from './engine/location/tracking.reference.js';
import { readBytes, referenceId } from './location.reference.js';
import { locationParameters } from './location.schemas.js';

type Run = {
  analysis_uuid: string;
  status: string;
  error: string | null;
  parameters: Record<string, unknown>;
  summary: { location: { notes: string[]; frames_tracked: number } } | null;
};

type LocationPreview = {
  kind: string;
  frames: number[];
  x: (number | null)[];
  y: (number | null)[];
  image: string;
  reference: { cached: boolean; notes: string[] };
};

const ZONE = {
  name: 'Centre',
  points: [
    [80, 60],
    [240, 60],
    [240, 180],
    [80, 180],
  ],
};

/** The generated open field: a dark mouse that walks for 40 frames, then sits still for 160 (ADR 024's case). */
const STILL = mouseScene({ frames: 200, seed: 16, animal: 'dark', stillFrom: 40 });
const EMPTY_ARENA = mouseScene({ frames: 60, seed: 16, animal: 'dark' });

describe('location preview and reference choices', () => {
  let t: TestApp;
  let owner: TestUser;
  let viewer: TestUser;
  let outsider: TestUser;
  let project: ProjectWithSubject;
  let other: ProjectWithSubject;
  let box: { uuid: string; url: string };
  let still: { uuid: string; url: string };
  let empty: { uuid: string; url: string };
  let elsewhere: { uuid: string; url: string };

  const get = (user: TestUser, url: string) => t.app.inject({ method: 'GET', url, headers: user.headers });
  const post = (user: TestUser, url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers: user.headers, payload: payload as object });
  const runCount = async () => (await get(owner, `/api/projects/${project.projectUuid}/analysis/`)).json().count;
  const preview = (video: { url: string }, body: object, user = owner) =>
    post(user, `${video.url}analysis/create-preview/`, { kind: 'location_tracking', ...body });

  async function upload(target: ProjectWithSubject, file: string) {
    const uploaded = await uploadVideo(t.app, owner, target.videosUrl, file);
    expect(uploaded.statusCode).toBe(201);
    const uuid = uploaded.json().video_uuid as string;
    const url = `${target.videosUrl}${uuid}/`;
    expect((await waitForVideo(t.app, owner, url, undefined, 120_000)).status).toBe('ready');
    return { uuid, url };
  }

  async function runTo(video: { url: string }, parameters: object): Promise<Run> {
    const created = await post(owner, `${video.url}analysis/`, { kind: 'location_tracking', parameters });
    expect(created.statusCode, created.body).toBe(201);
    const uuid = created.json().analysis_uuid as string;
    const deadline = Date.now() + 180_000;
    for (;;) {
      const answer = (await get(owner, `${video.url}analysis/${uuid}/`)).json() as Run;
      if (!['queued', 'running'].includes(answer.status) || Date.now() > deadline) return answer;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  async function positions(video: { url: string }, run: Run): Promise<(Point | null)[]> {
    const response = await get(owner, `${video.url}analysis/${run.analysis_uuid}/export/?table=series&format=csv`);
    expect(response.statusCode).toBe(200);
    const [, ...lines] = response.body.trim().split('\r\n');
    return lines.map((line) => {
      const [, , x, y] = line.split(',');
      return x === '' ? null : { x: Number(x), y: Number(y) };
    });
  }

  /** The run's stored positions, exactly (the raw series: x of every frame, then y; NaN = none). */
  async function storedTrack(
    video: { url: string },
    run: Run,
  ): Promise<{ x: (number | null)[]; y: (number | null)[] }> {
    const response = await get(owner, `${video.url}analysis/${run.analysis_uuid}/series/?part=values`);
    expect(response.statusCode).toBe(200);
    const bytes = response.rawPayload;
    const both = Array.from(new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)));
    const orNull = (v: number) => (Number.isNaN(v) ? null : v);
    return { x: both.slice(0, both.length / 2).map(orNull), y: both.slice(both.length / 2).map(orNull) };
  }

  const cacheKeys = (video: { uuid: string }, parameters: object) =>
    locationReferenceKeys(
      { projectUuid: project.projectUuid, videoUuid: video.uuid },
      referenceId(locationParameters.parse(parameters)),
    );

  beforeAll(async () => {
    t = await createTestApp({ workers: true, config: { analysisWorkers: 2, analysisSegmentSeconds: 2 } });
    owner = await createUser(t.ctx);
    viewer = await createUser(t.ctx);
    outsider = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
    other = await createProjectWithSubject(t.ctx, owner);
    await addMember(t.ctx, project.projectUuid, viewer.id, 'viewer');
    box = await upload(project, locationVideo());
    still = await upload(project, mouseSceneVideo('still-mouse-v1', STILL));
    empty = await upload(project, mouseSceneVideo('empty-arena-v1', EMPTY_ARENA, { empty: true }));
    // Same size as the tracked video, but in another project of the same owner.
    elsewhere = await upload(other, mouseSceneVideo('empty-arena-v1', EMPTY_ARENA, { empty: true }));
  }, 300_000);

  afterAll(async () => {
    await t?.close();
  });

  it('previews a few seconds: the positions a run gives for the same frames, and a picture of the last one', async () => {
    const parameters = { algorithm: 'eztrack', zones: [ZONE] };
    const response = await preview(box, { parameters, start_s: 0, length_s: 2 });
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json() as LocationPreview;
    expect(answer.kind).toBe('location_tracking');
    expect(answer.frames).toEqual(Array.from({ length: 60 }, (_, i) => i));
    expect(answer.reference).toEqual({ cached: false, notes: [] });
    const png = Buffer.from(answer.image.replace('data:image/png;base64,', ''), 'base64');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([LOCATION_FIXTURE.width, LOCATION_FIXTURE.height]);
    // The run tracks the same frames with the same code from the same (cached) reference: the same numbers.
    const run = await runTo(box, parameters);
    expect(run.status).toBe('succeeded');
    const tracked = await storedTrack(box, run);
    expect(answer.x).toEqual(tracked.x.slice(0, 60));
    expect(answer.y).toEqual(tracked.y.slice(0, 60));
    // And the box's centre it is.
    answer.frames.forEach((frame, i) => {
      expect(Math.abs(answer.x[i]! - (LOCATION_FIXTURE.centre(frame).x - 0.5))).toBeLessThanOrEqual(1.5);
    });
  }, 180_000);

  it('keeps the reference under the video: a second preview with other zones and thresholds reads it, a run copies it', async () => {
    const first = { zones: [ZONE] };
    const keys = cacheKeys(box, first);
    expect(await t.ctx.storage.stat(keys.picture)).toBeNull();
    const made = await preview(box, { parameters: first, start_s: 1, length_s: 1 });
    expect(made.statusCode, made.body).toBe(200);
    expect((made.json() as LocationPreview).reference.cached).toBe(false);
    const stored = await readBytes(t.ctx, keys.picture);
    expect(stored.length).toBe(LOCATION_FIXTURE.width * LOCATION_FIXTURE.height * 4);

    // Other zones and tracker settings that do not touch the reference: the same cache entry, nothing written.
    const second = { zones: [{ ...ZONE, name: 'Middle' }], core_fraction: 0.5, reach: 2 };
    expect(cacheKeys(box, second)).toEqual(keys);
    const writes = vi.spyOn(t.ctx.storage, 'write');
    try {
      const again = await preview(box, { parameters: second, start_s: 2, length_s: 1 });
      expect(again.statusCode, again.body).toBe(200);
      expect((again.json() as LocationPreview).reference.cached).toBe(true);
      expect(writes.mock.calls.filter(([key]) => key.includes('/location-references/'))).toEqual([]);
    } finally {
      writes.mockRestore();
    }
    expect((await readBytes(t.ctx, keys.picture)).equals(stored)).toBe(true);

    // What does change the reference gets its own entry.
    expect(cacheKeys(box, { ...first, reference_frames: 20 })).not.toEqual(keys);
    expect(cacheKeys(box, { ...first, noise_k: 8 })).not.toEqual(keys);
    expect(cacheKeys(box, { ...first, reference: { frames: [0, 50, 100] } })).not.toEqual(keys);

    // A run with the same reference setting tracks on the very same picture.
    const run = await runTo(box, second);
    expect(run.status).toBe('succeeded');
    const runKeys = analysisKeys({
      projectUuid: project.projectUuid,
      videoUuid: box.uuid,
      analysisUuid: run.analysis_uuid,
    });
    expect((await readBytes(t.ctx, runKeys.reference)).equals(stored)).toBe(true);
  }, 180_000);

  it('refuses bad input by field (nothing made) and hides the preview from non-members', async () => {
    const before = await runCount();
    const cases: [object, string, RegExp][] = [
      [{ loc_thresh: 101 }, 'parameters.loc_thresh', /between 0 and 100/],
      [
        {
          zones: [
            {
              name: 'A',
              points: [
                [0, 0],
                [10, 0],
                [0, 400],
              ],
            },
          ],
        },
        'parameters.zones',
        /outside the 320×240/,
      ],
      [{ reference: { frames: [0, 120] } }, 'parameters.reference.frames', /Frame 120 is not in the video: .*0 to 119/],
      [{ reference: { frames: [3, 5, 3] } }, 'parameters.reference.frames', /Frame 3 is listed twice/],
      [{ reference: { frames: [1.5] } }, 'parameters.reference.frames', /whole number/],
      [{ reference: { frames: [] } }, 'parameters.reference.frames', /at least one frame/],
      [{ reference: {} }, 'parameters.reference', /either video_uuid .* or frames/],
      [{ reference: { frames: [1], video_uuid: still.uuid } }, 'parameters.reference', /not both/],
      [{ reference: { colour: 1 } }, 'parameters.reference', /Unknown parameter: colour/],
      [{ reference: { video_uuid: 'nope' } }, 'parameters.reference.video_uuid', /id of a video of this project/],
      [{ reference: { video_uuid: box.uuid } }, 'parameters.reference.video_uuid', /video being tracked/],
      [
        { reference: { video_uuid: still.uuid } },
        'parameters.reference.video_uuid',
        /is 640×480 and the tracked video 320×240: .*same width and height/,
      ],
      // Another project's video reads as one that does not exist.
      [{ reference: { video_uuid: elsewhere.uuid } }, 'parameters.reference.video_uuid', /^No video of this project/],
      [
        { reference: { video_uuid: '3f1c9a52-8e1b-4c55-9a0e-2b7d6f1e0c44' } },
        'parameters.reference.video_uuid',
        /^No video of this project has that id\.$/,
      ],
    ];
    const writes = vi.spyOn(t.ctx.storage, 'write');
    for (const [parameters, field, message] of cases) {
      for (const send of [
        () => preview(box, { parameters }),
        () => post(owner, `${box.url}analysis/`, { kind: 'location_tracking', parameters }),
      ]) {
        const response = await send();
        expect(response.statusCode, JSON.stringify(parameters)).toBe(400);
        const errors = response.json().errors as Record<string, string[]>;
        expect(Object.keys(errors), JSON.stringify(parameters)).toEqual([field]);
        expect(errors[field]!.join(' '), JSON.stringify(parameters)).toMatch(message);
      }
    }
    const badKind = await post(owner, `${box.url}analysis/create-preview/`, { kind: 'event_detection' });
    expect(badKind.statusCode).toBe(400);
    expect(badKind.json().errors.kind[0]).toMatch(/movement_detection, location_tracking/);
    expect(await runCount()).toBe(before);
    expect(writes.mock.calls.filter(([key]) => key.includes(box.uuid))).toEqual([]);
    writes.mockRestore();
    // A non-member learns nothing (404); a viewer may not process (403).
    expect((await preview(box, { parameters: {} }, outsider)).statusCode).toBe(404);
    expect((await preview(box, { parameters: {} }, viewer)).statusCode).toBe(403);
  }, 120_000);

  it('an animal still for 80 %: the default reference needed repair and says so; an empty-arena video gets the body', async () => {
    const byDefault = await runTo(still, {});
    expect(byDefault.status).toBe('succeeded');
    const notes = byDefault.summary!.location.notes;
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/sat still/);
    expect(notes[0]).toMatch(/empty arena/);
    expect(notes[0]).toMatch(/frames of this video you choose/);
    const defaultFigures = errorFigures(await positions(still, byDefault), STILL.body);

    const parameters = { reference: { video_uuid: empty.uuid } };
    const withArena = await runTo(still, parameters);
    expect(withArena.status, withArena.error ?? '').toBe('succeeded');
    expect(withArena.parameters.reference).toEqual({ video_uuid: empty.uuid });
    expect(withArena.summary!.location.notes).toEqual([]);
    const figures = errorFigures(await positions(still, withArena), STILL.body);
    expect(figures.missing).toBe(0);
    expect(figures.median).toBeLessThanOrEqual(6);
    expect(figures.p90).toBeLessThanOrEqual(12);
    expect(figures.max).toBeLessThanOrEqual(20);
    expect(figures.median).toBeLessThan(defaultFigures.median);
    expect(figures.max).toBeLessThan(defaultFigures.max);

    // The preview on the same setting reads the reference the run made (kept under the tracked video).
    const previewed = await preview(still, { parameters, start_s: 0, length_s: 2 });
    expect(previewed.statusCode, previewed.body).toBe(200);
    const answer = previewed.json() as LocationPreview;
    expect(answer.reference).toEqual({ cached: true, notes: [] });
    const tracked = await storedTrack(still, withArena);
    expect(answer.x).toEqual(tracked.x.slice(0, 60));
    expect(answer.y).toEqual(tracked.y.slice(0, 60));
  }, 400_000);

  it('chosen frames of the video (where the animal walks) make a reference without it', async () => {
    const frames = [0, 4, 8, 12, 16, 20, 24, 28, 32, 36];
    const run = await runTo(still, { reference: { frames: [...frames].reverse() } });
    expect(run.status, run.error ?? '').toBe('succeeded');
    // Kept in decoding order; no check on a chosen reference.
    expect(run.parameters.reference).toEqual({ frames });
    expect(run.summary!.location.notes).toEqual([]);
    const figures = errorFigures(await positions(still, run), STILL.body);
    expect(figures.missing).toBe(0);
    expect(figures.median).toBeLessThanOrEqual(6);
  }, 300_000);

  it('the cached references go with the video', async () => {
    const keys = cacheKeys(still, { reference: { video_uuid: empty.uuid } });
    expect(await t.ctx.storage.stat(keys.picture)).not.toBeNull();
    const [row] = await t.ctx.db.select().from(videos).where(eq(videos.videoUuid, still.uuid));
    await deleteVideo(t.ctx, row!);
    expect(await t.ctx.storage.stat(keys.picture)).toBeNull();
    expect(await t.ctx.storage.stat(keys.notes)).toBeNull();
  });
});
