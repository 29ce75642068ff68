import { execFileSync } from 'node:child_process';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.js';
import { createProjectWithSubject, uploadVideo, waitForVideo } from '../../../test/factories-videos.js';
import { analysisFixtures, JUMPS_FIXTURE } from '../../../test/fixtures/videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { analysisEvents, analysisSegments, videos } from '../../db/schema.js';
import { abortAllLocalRuns } from './analysis.media-input.js';
import { analysisSegmentJob } from './analysis.runs.js';
import { runningAnalysisWorkers } from './engine/worker-client.js';

/** ffmpeg processes started by this test process (the analysis threads spawn them). */
function ffmpegChildren(): number {
  try {
    return execFileSync('ps', ['-o', 'comm=', '--ppid', String(process.pid)], { encoding: 'utf8' })
      .split('\n')
      .filter((name) => name.trim().startsWith('ffmpeg')).length;
  } catch {
    return 0; // ps exits 1 when there are no children at all.
  }
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('revoking analysis runs', () => {
  let owner: TestUser;

  // One server with two workers and the 320 s video for both: a run that is revoked, then one whose worker shuts down.
  describe('a running run', () => {
    let t: TestApp;
    let analysisUrl: string;

    beforeAll(async () => {
      t = await createTestApp({ workers: true, config: { analysisWorkers: 2, analysisSegmentSeconds: 600 } });
      owner = await createUser(t.ctx);
      const project = await createProjectWithSubject(t.ctx, owner);
      const uploaded = await uploadVideo(t.app, owner, project.videosUrl, analysisFixtures().longMp4);
      const videoUrl = `${project.videosUrl}${uploaded.json().video_uuid}/`;
      expect((await waitForVideo(t.app, owner, videoUrl, undefined, 60_000)).status).toBe('ready');
      analysisUrl = `${videoUrl}analysis/`;
    }, 90_000);
    afterAll(async () => {
      await t?.close();
    });

    it('really stops: its ffmpeg processes and worker threads end within 2 s, and it stays revoked', async () => {
      const created = await t.app.inject({
        method: 'POST',
        url: analysisUrl,
        headers: owner.headers,
        payload: { kind: 'movement_detection', parameters: { opening: 25, closing: 25, small_object_removal: 50 } },
      });
      expect(created.statusCode).toBe(201);
      const uuid = created.json().analysis_uuid;
      const read = async () =>
        (await t.app.inject({ method: 'GET', url: `${analysisUrl}${uuid}/`, headers: owner.headers })).json();
      const running = await until(read, (run) => run.status === 'running' && run.progress > 0, 30_000);
      expect(running.status).toBe('running');
      expect(running.progress).toBeGreaterThan(0);
      expect(running.progress).toBeLessThan(1);
      expect(ffmpegChildren()).toBeGreaterThan(0);
      expect(runningAnalysisWorkers()).toBeGreaterThan(0);

      const revokedAt = Date.now();
      const revoked = await t.app.inject({
        method: 'POST',
        url: `${analysisUrl}${uuid}/revoke/`,
        headers: owner.headers,
      });
      expect(revoked.statusCode).toBe(200);
      expect(revoked.json().status).toBe('revoked');
      await until(
        async () => ffmpegChildren() + runningAnalysisWorkers(),
        (n) => n === 0,
        2_000,
      );
      expect(ffmpegChildren()).toBe(0);
      expect(runningAnalysisWorkers()).toBe(0);
      expect(Date.now() - revokedAt).toBeLessThan(2_000);

      await new Promise((resolve) => setTimeout(resolve, 1500));
      const after = await read();
      expect(after.status).toBe('revoked');
      expect(after.summary).toBeNull();
      expect(await t.ctx.db.select().from(analysisEvents).where(eq(analysisEvents.analysisUuid, uuid))).toHaveLength(0);
      const again = await t.app.inject({
        method: 'POST',
        url: `${analysisUrl}${uuid}/revoke/`,
        headers: owner.headers,
      });
      expect(again.statusCode).toBe(409);
      expect(again.json().errors).toBe('This run has already been revoked.');
    }, 60_000);

    it('loses nothing: its stopped segments are retried and the result equals an uninterrupted run', async () => {
      const parameters = { rois: [{ start_s: 0, ...JUMPS_FIXTURE.leftRoi }], opening: 3, small_object_removal: 20 };
      const start = async () =>
        (
          await t.app.inject({
            method: 'POST',
            url: analysisUrl,
            headers: owner.headers,
            payload: { kind: 'movement_detection', parameters },
          })
        ).json().analysis_uuid as string;
      type RunView = { status: string; progress: number; summary: { samples: number } };
      const reader = (uuid: string) => async (): Promise<RunView> =>
        (await t.app.inject({ method: 'GET', url: `${analysisUrl}${uuid}/`, headers: owner.headers })).json();
      const finished = (run: RunView) => run.status === 'succeeded' || run.status === 'failed';
      const seriesOf = async (uuid: string) =>
        (
          await t.app.inject({
            method: 'GET',
            url: `${analysisUrl}${uuid}/series/?part=values`,
            headers: owner.headers,
          })
        ).rawPayload;

      const baselineUuid = await start();
      const baseline = await until(reader(baselineUuid), finished, 90_000);
      expect(baseline.status).toBe('succeeded');

      const uuid = await start();
      const read = reader(uuid);
      const running = await until(read, (run) => run.status === 'running' && run.progress > 0, 30_000);
      expect(running.progress).toBeLessThan(1);
      // What closeContext does on SIGTERM before stopping the job queue.
      abortAllLocalRuns();
      const done = await until(read, finished, 90_000);
      expect(done.status).toBe('succeeded');
      // Everything but the measured speed.
      expect({ ...done.summary, frames_per_second: 0 }).toEqual({ ...baseline.summary, frames_per_second: 0 });
      expect(done.summary.samples).toBe(9600);
      const series = await seriesOf(uuid);
      expect(series.length).toBe(9600 * 8);
      expect(series.equals(await seriesOf(baselineUuid))).toBe(true);
      // The stop really hit running work: at least one segment job needed a second attempt.
      const segments = await t.ctx.db.select().from(analysisSegments).where(eq(analysisSegments.analysisUuid, uuid));
      const attempts = await Promise.all(
        segments.map(
          async (segment) => (await t.ctx.jobs.getJob(analysisSegmentJob.name, segment.jobId!))?.retryCount ?? 0,
        ),
      );
      expect(Math.max(...attempts)).toBeGreaterThan(0);
    }, 180_000);
  });

  describe('a queued run', () => {
    let t: TestApp;

    beforeAll(async () => {
      // No workers here: a run stays queued until someone takes its jobs.
      t = await createTestApp({ workers: false });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('never starts: its queued segment jobs are cancelled', async () => {
      const user = await createUser(t.ctx);
      const project = await createProjectWithSubject(t.ctx, user);
      const uploaded = await uploadVideo(t.app, user, project.videosUrl, analysisFixtures().jumpsMp4);
      const videoUuid = uploaded.json().video_uuid;
      // Without workers the upload stays "processing"; the analysis only needs the original and its probe.
      await t.ctx.db.update(videos).set({ status: 'ready' }).where(eq(videos.videoUuid, videoUuid));
      const analysisUrl = `${project.videosUrl}${videoUuid}/analysis/`;
      const created = await t.app.inject({
        method: 'POST',
        url: analysisUrl,
        headers: user.headers,
        payload: { kind: 'movement_detection', parameters: {} },
      });
      expect(created.json().status).toBe('queued');
      const uuid = created.json().analysis_uuid;
      const revoked = await t.app.inject({
        method: 'POST',
        url: `${analysisUrl}${uuid}/revoke/`,
        headers: user.headers,
      });
      expect(revoked.json()).toMatchObject({ status: 'revoked', started_at: null });
      const segments = await t.ctx.db.select().from(analysisSegments).where(eq(analysisSegments.analysisUuid, uuid));
      expect(segments.length).toBeGreaterThan(0);
      for (const segment of segments) {
        const job = await t.ctx.jobs.getJob(analysisSegmentJob.name, segment.jobId!);
        expect(job?.state).toBe('cancelled');
      }
    });
  });
});
