import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/factories.js';
import { createProjectWithSubject } from '../../test/factories-videos.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { analyses, videos } from '../db/schema.js';
import { analysisSegmentJob } from './analysis/analysis.runs.js';
import {
  emptyWatchdogMemory,
  LOST_COPY_MESSAGE,
  LOST_RUN_MESSAGE,
  LOST_VIDEO_MESSAGE,
  type WatchdogMemory,
  watchdogSweep,
} from './job-watchdog.js';
import { processVideoJob } from './videos/video.jobs.js';
import { playbackPieceJob } from './videos/video.playback.js';

describe('job watchdog', () => {
  let t: TestApp;
  beforeAll(async () => {
    // No workers: the jobs sent here wait in the queue, as behind a busy worker.
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('fails, with a message, runs and videos whose jobs are gone — on the second look, never one with a job', async () => {
    const owner = await createUser(t.ctx);
    const project = await createProjectWithSubject(t.ctx, owner);
    const newVideo = async (stored = true, updatedAt = new Date()) => {
      const [row] = await t.ctx.db
        .insert(videos)
        .values({
          projectUuid: project.projectUuid,
          subjectUuid: project.subjectUuid,
          name: 'clip',
          originalFilename: 'clip.mp4',
          status: 'processing',
          originalKey: stored ? `projects/x/clip-${randomUUID()}.mp4` : null,
          updatedAt,
        })
        .returning();
      return row!.videoUuid;
    };
    const newRun = async (videoUuid: string) => {
      const [row] = await t.ctx.db
        .insert(analyses)
        .values({
          projectUuid: project.projectUuid,
          subjectUuid: project.subjectUuid,
          videoUuid,
          kind: 'movement_detection',
          parameters: {},
          softwareVersion: 'test',
          status: 'running',
        })
        .returning();
      return row!.analysisUuid;
    };
    const orphanVideo = await newVideo();
    // Its original is still being copied into storage: no job yet, and none expected.
    const storingVideo = await newVideo(false);
    // ...but not for seven hours: the process that stored it is gone.
    const abandonedVideo = await newVideo(false, new Date(Date.now() - 7 * 3600_000));
    const queuedVideo = await newVideo();
    await t.ctx.jobs.send(processVideoJob, { videoUuid: queuedVideo });
    const readyVideo = await newVideo();
    await t.ctx.db.update(videos).set({ status: 'ready' }).where(eq(videos.videoUuid, readyVideo));
    // Ready, its copy being made: one with a piece job waiting, one whose piece jobs are gone.
    const copyingVideo = await newVideo();
    const orphanCopyVideo = await newVideo();
    await t.ctx.db
      .update(videos)
      .set({ status: 'ready', playbackState: 'making', playbackProgress: 0.5 })
      .where(inArray(videos.videoUuid, [copyingVideo, orphanCopyVideo]));
    await t.ctx.jobs.send(playbackPieceJob, { videoUuid: copyingVideo, index: 0 });
    const orphanRun = await newRun(readyVideo);
    const queuedRun = await newRun(readyVideo);
    const queuedJob = await t.ctx.jobs.send(analysisSegmentJob, { analysisUuid: queuedRun, index: 0 });

    let memory: WatchdogMemory = emptyWatchdogMemory();
    const first = await watchdogSweep(t.ctx, memory);
    expect(first.failedRuns).toEqual([]);
    expect(first.failedVideos).toEqual([]);
    memory = first.memory;
    expect([...memory.runs]).toEqual([orphanRun]);
    expect(new Set(memory.videos)).toEqual(new Set([orphanVideo, abandonedVideo]));
    expect([...memory.copies]).toEqual([orphanCopyVideo]);

    const second = await watchdogSweep(t.ctx, memory);
    expect(second.failedRuns).toEqual([orphanRun]);
    expect(new Set(second.failedVideos)).toEqual(new Set([orphanVideo, abandonedVideo]));
    expect(second.failedCopies).toEqual([orphanCopyVideo]);
    const runRow = (uuid: string) => t.ctx.db.select().from(analyses).where(eq(analyses.analysisUuid, uuid));
    const videoRow = (uuid: string) => t.ctx.db.select().from(videos).where(eq(videos.videoUuid, uuid));
    expect((await runRow(orphanRun))[0]).toMatchObject({ status: 'failed', error: LOST_RUN_MESSAGE });
    expect((await runRow(queuedRun))[0]).toMatchObject({ status: 'running', error: null });
    expect((await videoRow(orphanVideo))[0]).toMatchObject({ status: 'failed', error: LOST_VIDEO_MESSAGE });
    expect((await videoRow(queuedVideo))[0]).toMatchObject({ status: 'processing', error: null });
    expect((await videoRow(storingVideo))[0]).toMatchObject({ status: 'processing', error: null });
    expect((await videoRow(readyVideo))[0]).toMatchObject({ status: 'ready' });
    // The video stays ready and analysable; its copy says why it stopped. The one with a job goes on.
    expect((await videoRow(orphanCopyVideo))[0]).toMatchObject({
      status: 'ready',
      playbackState: 'failed',
      playbackError: LOST_COPY_MESSAGE,
    });
    expect((await videoRow(copyingVideo))[0]).toMatchObject({ status: 'ready', playbackState: 'making' });

    // The user sees why.
    const shown = await t.app.inject({
      method: 'GET',
      url: `${project.videosUrl}${readyVideo}/analysis/${orphanRun}/`,
      headers: owner.headers,
    });
    expect(shown.json()).toMatchObject({ status: 'failed', error: LOST_RUN_MESSAGE });

    // The queued run's job is removed (cancelled here; deleted or expired alike): two looks later it fails too.
    await t.ctx.jobs.cancel(analysisSegmentJob.name, [queuedJob!]);
    const third = await watchdogSweep(t.ctx, second.memory);
    expect(third.failedRuns).toEqual([]);
    const fourth = await watchdogSweep(t.ctx, third.memory);
    expect(fourth.failedRuns).toEqual([queuedRun]);
    expect(fourth.memory.runs.size).toBe(0);
    // A fresh id never seen is not failed on its first look.
    expect(
      (await watchdogSweep(t.ctx, { runs: new Set([randomUUID()]), videos: new Set(), copies: new Set() })).failedRuns,
    ).toEqual([]);
  });
});
