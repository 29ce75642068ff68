/**
 * Clean starts through the whole app (issue 9): a video whose flagged keyframes are not clean starts (x264 intra
 * refresh), analysed by two workers in one-second segments, gives the series of a single pass; the proofs are kept
 * per video; a preview mid-video gives the single pass's values; and a video with damaged data fails its run with
 * the decode error ffmpeg reported instead of succeeding with wrong numbers. On a closed-GOP video the cuts move onto
 * keyframes, so those pieces decode nothing before the frame they need.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.js';
import {
  createProjectWithSubject,
  type ProjectWithSubject,
  uploadVideo,
  waitForVideo,
} from '../../../test/factories-videos.js';
import { damagedLabVideo, LAB_SHAPES, labVideo } from '../../../test/fixtures/lab-videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import type { CleanStart } from '../../adapters/media/clean-start.js';
import { analyses, analysisSegments, videoSeekIndexes } from '../../db/schema.js';
import { analyseFrameRange, type MovementParameters } from './engine/movement.js';

const shape = LAB_SHAPES.find((candidate) => candidate.name === 'intra-refresh')!;
const parameters: MovementParameters = {
  threshold: 8,
  opening: 0,
  closing: 0,
  small_object_removal: 0,
  rois: [],
  bypass_ranges: [],
};

type Run = { analysis_uuid: string; status: string; error: string | null };

describe('clean starts in runs and previews', () => {
  let t: TestApp;
  let owner: TestUser;
  let project: ProjectWithSubject;
  let single: number[];

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: owner.headers });
  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: owner.headers, payload });

  async function upload(file: string): Promise<{ videoUuid: string; analysisUrl: string }> {
    const uploaded = await uploadVideo(t.app, owner, project.videosUrl, file);
    expect(uploaded.statusCode).toBe(201);
    const videoUuid = uploaded.json().video_uuid as string;
    const videoUrl = `${project.videosUrl}${videoUuid}/`;
    expect((await waitForVideo(t.app, owner, videoUrl)).status).toBe('ready');
    return { videoUuid, analysisUrl: `${videoUrl}analysis/` };
  }

  async function run(analysisUrl: string): Promise<Run> {
    const created = await post(analysisUrl, { kind: 'movement_detection', parameters: { threshold: 8 } });
    expect(created.statusCode).toBe(201);
    const uuid = created.json().analysis_uuid as string;
    const deadline = Date.now() + 200_000;
    for (;;) {
      const current = (await get(`${analysisUrl}${uuid}/`)).json() as Run;
      if (!['queued', 'running'].includes(current.status) || Date.now() > deadline) return current;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }

  beforeAll(async () => {
    t = await createTestApp({ workers: true, config: { analysisWorkers: 2, analysisSegmentSeconds: 1 } });
    owner = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
    const file = labVideo(shape);
    const source = {
      path: file,
      demuxer: null,
      fps: shape.fps,
      width: shape.width,
      height: shape.height,
      pixelFormat: 'yuv420p',
      fullRange: false,
      startTime: 0,
    };
    const whole = await analyseFrameRange({
      ffmpeg: t.ctx.media.binaries.ffmpeg,
      source,
      parameters,
      startFrame: 0,
      endFrame: null,
    });
    single = Array.from(whole.values);
  }, 90_000);

  afterAll(async () => {
    await t?.close();
  });

  it('cuts an intra-refresh video at proven starts only, keeps the proofs, and equals a single pass', {
    timeout: 240_000,
  }, async () => {
    const { videoUuid, analysisUrl } = await upload(labVideo(shape));
    const done = await run(analysisUrl);
    expect(done).toMatchObject({ status: 'succeeded', error: null });
    const raw = await get(`${analysisUrl}${done.analysis_uuid}/series/`);
    expect(Array.from(new Float64Array(new Uint8Array(raw.rawPayload).buffer))).toEqual(single);

    const segments = await t.ctx.db
      .select()
      .from(analysisSegments)
      .where(eq(analysisSegments.analysisUuid, done.analysis_uuid));
    expect(segments.length).toBeGreaterThanOrEqual(3);
    const [row] = await t.ctx.db.select().from(analyses).where(eq(analyses.analysisUuid, done.analysis_uuid));
    const starts = (row!.source as { segmentStarts: CleanStart[] }).segmentStarts;
    expect(starts).toHaveLength(segments.length);
    expect(starts.filter((start) => start.seekS !== null).length).toBeGreaterThanOrEqual(2);
    // Each start lies before its segment's first frame: the frame before it is decoded too.
    for (const segment of segments) expect(starts[segment.index]!.frame).toBeLessThan(Math.max(1, segment.startFrame));

    // The proofs are kept with the video: the flagged keyframes were refused as starts of their own.
    const [index] = await t.ctx.db.select().from(videoSeekIndexes).where(eq(videoSeekIndexes.videoUuid, videoUuid));
    const proofs = Object.entries(index!.proofs as Record<string, CleanStart | false>);
    expect(proofs.some(([key, proof]) => proof === false && key.split(':')[0] === key.split(':')[1])).toBe(true);
    expect(proofs.some(([, proof]) => proof !== false)).toBe(true);

    // A preview mid-video decodes from a proven start and gives the single pass's values.
    const preview = await post(`${analysisUrl}create-preview/`, {
      start_s: 3.2,
      length_s: 1,
      parameters: { threshold: 8 },
    });
    expect(preview.statusCode).toBe(200);
    const body = preview.json() as { frames: number[]; values: number[] };
    expect(body.frames[0]).toBe(96);
    expect(body.values).toEqual(single.slice(96, 96 + body.values.length));
  });

  it('cuts a closed-GOP video right after keyframes, so those pieces decode nothing before the frame they need', {
    timeout: 240_000,
  }, async () => {
    // keyint 30 at 30 fps; five 30-frame pieces planned (cuts 30, 60, 90, 120): each needs the frame before it, 29,
    // 59…, which a decode from the keyframe at 0, 30… reaches only after 29 frames it drops. Each cut moves to the
    // keyframe after it + 1 instead.
    const closed = LAB_SHAPES.find((candidate) => candidate.name === 'b-pyramid')!;
    const file = labVideo(closed);
    const whole = await analyseFrameRange({
      ffmpeg: t.ctx.media.binaries.ffmpeg,
      source: {
        path: file,
        demuxer: null,
        fps: closed.fps,
        width: closed.width,
        height: closed.height,
        pixelFormat: 'yuv420p',
        fullRange: false,
        startTime: 0,
      },
      parameters,
      startFrame: 0,
      endFrame: null,
    });
    const { analysisUrl } = await upload(file);
    const done = await run(analysisUrl);
    expect(done).toMatchObject({ status: 'succeeded', error: null });
    const raw = await get(`${analysisUrl}${done.analysis_uuid}/series/`);
    expect(Array.from(new Float64Array(new Uint8Array(raw.rawPayload).buffer))).toEqual(Array.from(whole.values));

    const segments = await t.ctx.db
      .select()
      .from(analysisSegments)
      .where(eq(analysisSegments.analysisUuid, done.analysis_uuid))
      .orderBy(analysisSegments.index);
    const [row] = await t.ctx.db.select().from(analyses).where(eq(analyses.analysisUuid, done.analysis_uuid));
    const starts = (row!.source as { segmentStarts: CleanStart[] }).segmentStarts;
    expect(segments.map((segment) => segment.startFrame)).toEqual([0, 31, 61, 91, 121]);
    // Every later piece seeks to its keyframe and uses it as the frame before its first.
    expect(starts.map((start) => start.frame)).toEqual([0, 30, 60, 90, 120]);
    expect(starts.slice(1).every((start) => start.seekS !== null)).toBe(true);
  });

  it('fails the run of a video with damaged data with the decode error, never a result', {
    timeout: 240_000,
  }, async () => {
    const { analysisUrl } = await upload(damagedLabVideo());
    const done = await run(analysisUrl);
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/^ffmpeg reported a decode error in frames \d+–\d+ \(".+"\)/);
    expect(done.error).not.toContain('/');
  });
});
