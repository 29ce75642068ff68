/**
 * The fast reference and its check (ADR 029), through the whole app: the default tracker's reference is made from the
 * video's keyframes in one decode pass, and the run's pieces hash their own clean decode of those frames; when the
 * hashes agree the fast reference stands, and when they do not (here: the cached hashes altered, as a decoder that
 * gave other pictures would leave them) the run makes the reference again from proven clean starts, tracks every
 * piece again, and leaves the proven reference in the video's cache. Either way the split run equals one pass.
 */
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.js';
import {
  createProjectWithSubject,
  type ProjectWithSubject,
  uploadVideo,
  waitForVideo,
} from '../../../test/factories-videos.js';
import { LOCATION_FIXTURE, locationVideo } from '../../../test/fixtures/location-videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { analysisSegments } from '../../db/schema.js';
import { analysisKeys, locationReferenceKeys } from '../../lib/storage-keys.js';
import type { PieceStates } from './engine/location/reconcile.js';
import { referenceFrameIndices } from './engine/location/reference.js';
import { type ReferenceFrames, readBytes, referenceId } from './location.reference.js';
import type { LocationParameters } from './location.schemas.js';

const F = LOCATION_FIXTURE;

type Run = {
  analysis_uuid: string;
  status: string;
  error: string | null;
  parameters: Record<string, unknown>;
};

describe('the fast location reference and its check (ADR 029)', () => {
  let t: TestApp;
  let owner: TestUser;
  let project: ProjectWithSubject;
  let videoUuid: string;
  let analysisUrl: string;

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: owner.headers });

  beforeAll(async () => {
    // One-second pieces: the 4-second video is tracked in several pieces side by side.
    t = await createTestApp({ workers: true, config: { analysisWorkers: 2, analysisSegmentSeconds: 1 } });
    owner = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
    const uploaded = await uploadVideo(t.app, owner, project.videosUrl, locationVideo());
    expect(uploaded.statusCode).toBe(201);
    videoUuid = uploaded.json().video_uuid as string;
    const videoUrl = `${project.videosUrl}${videoUuid}/`;
    expect((await waitForVideo(t.app, owner, videoUrl)).status).toBe('ready');
    analysisUrl = `${videoUrl}analysis/`;
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  /** A run of `parameters`, with these settings for its planning (restored after). */
  async function runWith(parameters: Record<string, unknown>, settings: Partial<TestApp['ctx']['config']> = {}) {
    const saved = { ...t.ctx.config };
    Object.assign(t.ctx.config, settings);
    try {
      const created = await t.app.inject({
        method: 'POST',
        url: analysisUrl,
        headers: owner.headers,
        payload: { kind: 'location_tracking', parameters },
      });
      expect(created.statusCode).toBe(201);
      const uuid = created.json().analysis_uuid as string;
      const deadline = Date.now() + 120_000;
      for (;;) {
        const run = (await get(`${analysisUrl}${uuid}/`)).json() as Run;
        if (!['queued', 'running'].includes(run.status) || Date.now() > deadline) {
          expect(run.error).toBeNull();
          expect(run.status).toBe('succeeded');
          return run;
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } finally {
      Object.assign(t.ctx.config, saved);
    }
  }

  const positionsCsv = async (run: Run) => {
    const response = await get(`${analysisUrl}${run.analysis_uuid}/export/?table=series&format=csv`);
    expect(response.statusCode).toBe(200);
    return response.body;
  };

  const readJson = async <T>(key: string) => JSON.parse((await readBytes(t.ctx, key)).toString('utf8')) as T;

  const runKeys = (run: Run) =>
    analysisKeys({ projectUuid: project.projectUuid, videoUuid, analysisUuid: run.analysis_uuid });

  const cacheKeys = (run: Run) =>
    locationReferenceKeys(
      { projectUuid: project.projectUuid, videoUuid },
      referenceId(run.parameters as unknown as LocationParameters),
    );

  async function pieceStates(run: Run) {
    const pieces = await t.ctx.db
      .select()
      .from(analysisSegments)
      .where(eq(analysisSegments.analysisUuid, run.analysis_uuid))
      .orderBy(asc(analysisSegments.index));
    return pieces.map((piece) => piece.handoff as PieceStates);
  }

  // The fixture has a keyframe every 30 frames (0, 30, 60, 90): a four-frame default reference is all of them.
  const parameters = { reference_frames: 4 };

  it("makes the default tracker's reference from the keyframes; the pieces' own decode agrees and the run equals one pass", async () => {
    const split = await runWith(parameters);
    const frames = await readJson<ReferenceFrames>(runKeys(split).referenceFrames);
    expect(frames.frames).toEqual([0, 30, 60, 90]);
    expect(frames.hashes).toHaveLength(4);
    // Every frame was decoded by a piece, with the same picture.
    const checked = new Map((await pieceStates(split)).flatMap((state) => state.checked ?? []));
    expect([...checked.keys()].sort((a, b) => a - b)).toEqual(frames.frames);
    frames.frames.forEach((frame, i) => {
      expect(checked.get(frame)).toBe(frames.hashes![i]);
    });
    // The video's cache keeps the fast reference (nothing was made again).
    expect((await readJson<ReferenceFrames>(cacheKeys(split).frames)).hashes).toEqual(frames.hashes);
    // On the box: the keyframes' median is the empty arena.
    const rows = (await positionsCsv(split)).trim().split('\r\n').slice(1);
    rows.forEach((row, n) => {
      const [, , x, y] = row.split(',').map(Number);
      expect(Math.abs(x! - F.centre(n).x), `frame ${n} x`).toBeLessThanOrEqual(1.5);
      expect(Math.abs(y! - F.centre(n).y), `frame ${n} y`).toBeLessThanOrEqual(1.5);
    });
    const single = await runWith(parameters, { analysisSegmentSeconds: 600 });
    expect(await positionsCsv(single)).toBe(await positionsCsv(split));
  }, 240_000);

  it('when the pictures differ, makes the reference from proven clean starts and tracks every piece again', async () => {
    const first = await runWith(parameters);
    const keys = cacheKeys(first);
    const cached = await readJson<ReferenceFrames>(keys.frames);
    expect(cached.hashes).not.toBeNull();
    // As a decoder that gave other pictures than a clean decode would have left it.
    const altered: ReferenceFrames = { frames: cached.frames, hashes: cached.hashes!.map((hash) => `x${hash}`) };
    await t.ctx.storage.write(keys.frames, Buffer.from(JSON.stringify(altered)));

    const checked = await runWith(parameters);
    // The run's reference is now the proven one: the spread frames of the definition, nothing left to check.
    const runFrames = await readJson<ReferenceFrames>(runKeys(checked).referenceFrames);
    expect(runFrames).toEqual({ frames: referenceFrameIndices(F.frames, 4), hashes: null });
    // (On this arena the median of these frames is the same empty arena as the keyframes' median.)
    const provenPicture = await readBytes(t.ctx, runKeys(checked).reference);
    // …and the video's cache holds it for every later preview and run.
    expect(await readJson<ReferenceFrames>(keys.frames)).toEqual(runFrames);
    expect((await readBytes(t.ctx, keys.picture)).equals(provenPicture)).toBe(true);
    // Tracked again from the start with it: a single pass on the proven reference gives the same positions.
    const single = await runWith(parameters, { analysisSegmentSeconds: 600 });
    expect((await readBytes(t.ctx, runKeys(single).reference)).equals(provenPicture)).toBe(true);
    expect(await positionsCsv(checked)).toBe(await positionsCsv(single));
  }, 300_000);
});
