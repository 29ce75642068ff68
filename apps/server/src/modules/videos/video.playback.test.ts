import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.js';
import {
  createProjectWithSubject,
  type ProjectWithSubject,
  uploadVideo,
  waitForVideo,
  waitForVideoJobs,
} from '../../../test/factories-videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { resolveMediaBinaries } from '../../adapters/media/binaries.js';
import { FfmpegMedia } from '../../adapters/media/ffmpeg-media.js';
import { ownMp4 } from '../../adapters/media/input-policy.js';
import { countFrames } from '../../adapters/media/playback-copy.js';
import { playbackPieces, videos } from '../../db/schema.js';
import { playbackPieceJob } from './video.playback.js';

type VideoAnswer = {
  video_uuid: string;
  status: string;
  playback: string;
  stream_url: string;
  playback_copy: { state: string; progress: number; error: string | null };
};

describe('playback copies in pieces, and no wait for them', () => {
  let t: TestApp;
  let owner: TestUser;
  let project: ProjectWithSubject;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'playback-api-'));
  /** MJPEG in AVI, 640×480 at 25 fps, 8 s = 200 frames: with 1-second pieces, 8 piece jobs. */
  const avi = path.join(dir, 'chamber.avi');
  const frames = 200;

  beforeAll(async () => {
    const { ffmpeg } = resolveMediaBinaries(dir);
    execFileSync(ffmpeg, [
      ...['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=s=640x480:r=25'],
      ...['-frames:v', String(frames), '-c:v', 'mjpeg', '-q:v', '8', '-pix_fmt', 'yuvj420p', avi],
    ]);
    t = await createTestApp({ workers: true, config: { analysisWorkers: 2, playbackPieceSeconds: 1 } });
    owner = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: owner.headers });

  it('accepts an analysis at once, shows the copy’s progress, then serves the joined copy with every frame', async () => {
    const uploaded = await uploadVideo(t.app, owner, project.videosUrl, avi);
    expect(uploaded.statusCode).toBe(201);
    const videoUuid: string = uploaded.json().video_uuid;
    const videoUrl = `${project.videosUrl}${videoUuid}/`;
    expect(uploaded.json().playback_copy).toEqual({ state: 'pending', progress: 0, error: null });

    // Analysable as soon as the upload answers: the run decodes the original.
    const run = await t.app.inject({
      method: 'POST',
      url: `${videoUrl}analysis/`,
      headers: owner.headers,
      payload: { kind: 'movement_detection', parameters: {} },
    });
    expect(run.statusCode).toBe(201);

    const seen: VideoAnswer['playback_copy'][] = [];
    const done = (await waitForVideo(
      t.app,
      owner,
      videoUrl,
      (v) => {
        const video = v as unknown as VideoAnswer;
        seen.push(video.playback_copy);
        return ['ready', 'failed'].includes(video.playback_copy.state);
      },
      120_000,
    )) as unknown as VideoAnswer;
    expect(done.playback_copy).toEqual({ state: 'ready', progress: 1, error: null });
    expect(done).toMatchObject({ status: 'ready', playback: 'copy' });
    // While the pieces were made, the video said so, with a progress that only grew and stayed below 1.
    const making = seen.filter((copy) => copy.state === 'making');
    expect(making.length).toBeGreaterThan(0);
    expect(making.every((copy) => copy.progress >= 0 && copy.progress < 1)).toBe(true);
    const progress = making.map((copy) => copy.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    const [row] = await t.ctx.db.select().from(videos).where(eq(videos.videoUuid, videoUuid));
    const prefix = path.join(t.dataDir, 'files', path.dirname(row!.originalKey!));
    expect(await countFrames(t.ctx.media.binaries, ownMp4(path.join(t.dataDir, 'files', row!.playbackKey!)))).toBe(
      frames,
    );
    // The pieces are gone once joined, from storage and from the database.
    expect(existsSync(path.join(prefix, 'playback-pieces'))).toBe(false);
    expect(await t.ctx.db.select().from(playbackPieces).where(eq(playbackPieces.videoUuid, videoUuid))).toEqual([]);
    const stream = await t.app.inject({
      method: 'HEAD',
      url: new URL(done.stream_url).pathname + new URL(done.stream_url).search,
    });
    expect(stream.headers['content-type']).toBe('video/mp4');
  }, 180_000);

  it('refuses an analysis only while the upload itself is unfinished', async () => {
    const [uploading] = await t.ctx.db
      .insert(videos)
      .values({
        projectUuid: project.projectUuid,
        subjectUuid: project.subjectUuid,
        name: 'Still arriving',
        originalFilename: 'arriving.avi',
        status: 'uploading',
      })
      .returning();
    const response = await t.app.inject({
      method: 'POST',
      url: `${project.videosUrl}${uploading!.videoUuid}/analysis/`,
      headers: owner.headers,
      payload: { kind: 'movement_detection', parameters: {} },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      errors: 'The video is still being uploaded: analyse it once the upload has finished.',
    });
  });

  /** A video whose copy is being made, with one piece (all its frames) not done. */
  async function videoMakingCopy(name: string) {
    const uploaded = await uploadVideo(t.app, owner, project.videosUrl, avi, { filename: `${name}.avi` });
    const videoUuid: string = uploaded.json().video_uuid;
    const videoUrl = `${project.videosUrl}${videoUuid}/`;
    // Its own copy first (the jobs would otherwise still be at work on it), then a copy to make by hand.
    const settled = await waitForVideo(t.app, owner, videoUrl, undefined, 120_000);
    expect(settled.playback_copy?.state).toBe('ready');
    await waitForVideoJobs(t.ctx, videoUuid);
    await t.ctx.db
      .update(videos)
      .set({ playbackState: 'making', playbackKey: null, playbackProgress: 0 })
      .where(eq(videos.videoUuid, videoUuid));
    await t.ctx.db.delete(playbackPieces).where(eq(playbackPieces.videoUuid, videoUuid));
    await t.ctx.db
      .insert(playbackPieces)
      .values({ videoUuid, index: 0, startFrame: 0, endFrame: frames, seekS: 0, startS: null, endS: null });
    return { videoUuid, videoUrl };
  }

  it('a copy that cannot be made leaves the video ready and analysable, with the reason on the video', async () => {
    const { videoUuid, videoUrl } = await videoMakingCopy('broken-ffmpeg');
    const broken = {
      ...t.ctx,
      media: new FfmpegMedia({ ...t.ctx.media.binaries, ffmpeg: '/nonexistent' }),
    };
    await expect(
      playbackPieceJob.handle(broken, { videoUuid, index: 0 }, { id: 'a', isFinalAttempt: false }),
    ).rejects.toThrow(/could not start/);
    expect((await get(videoUrl)).json().playback_copy.state).toBe('making');
    await expect(
      playbackPieceJob.handle(broken, { videoUuid, index: 0 }, { id: 'a', isFinalAttempt: true }),
    ).rejects.toThrow();
    const video = (await get(videoUrl)).json() as VideoAnswer;
    expect(video).toMatchObject({ status: 'ready', playback: 'original' });
    expect(video.playback_copy).toMatchObject({ state: 'failed', error: 'Making the playable copy failed.' });
    const run = await t.app.inject({
      method: 'POST',
      url: `${videoUrl}analysis/`,
      headers: owner.headers,
      payload: { kind: 'movement_detection', parameters: {} },
    });
    expect(run.statusCode).toBe(201);
  }, 180_000);

  it('a joined copy without the original’s frame count fails visibly and is not kept', async () => {
    const { videoUuid, videoUrl } = await videoMakingCopy('short-piece');
    // The piece claims one frame more than the original has: the piece check refuses it without retrying.
    await t.ctx.db
      .update(playbackPieces)
      .set({ endFrame: frames + 1 })
      .where(and(eq(playbackPieces.videoUuid, videoUuid), eq(playbackPieces.index, 0)));
    await playbackPieceJob.handle(t.ctx, { videoUuid, index: 0 }, { id: 'b', isFinalAttempt: false });
    const video = (await get(videoUrl)).json() as VideoAnswer;
    expect(video.playback_copy).toMatchObject({
      state: 'failed',
      error: `Piece 1 of the playable copy has ${frames} frames instead of ${frames + 1}.`,
    });
    expect(video.playback).toBe('original');
  }, 180_000);
});
