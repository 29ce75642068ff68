/**
 * Batches over HTTP (issue 23, ADR 035): each way of choosing videos, per-video adjustments (a parameter and a
 * geometry move), a broken video among good ones, retry, stop, the trash, and bad requests that create nothing.
 * Tiny generated videos (5 s), one app with two analysis workers.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.js';
import { createProjectWithSubject, uploadVideo, waitForVideo } from '../../../test/factories-videos.js';
import { analysisFixtures, JUMPS_FIXTURE } from '../../../test/fixtures/videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { analyses, batches, batchRuns, videos } from '../../db/schema.js';
import { videoKeys } from '../../lib/storage-keys.js';
import { movementParameters } from '../analysis/analysis.schemas.js';

const J = JUMPS_FIXTURE;
const ROI = { start_s: 0, x: 20, y: 40, width: 160, height: 180 };

type Method = 'GET' | 'POST' | 'DELETE';
interface BatchRun {
  video_uuid: string;
  subject_name: string;
  group: string;
  analysis_uuid: string;
  attempt: number;
  status: string;
  progress: number;
  error: string | null;
  overrides: { parameters?: Record<string, unknown>; geometry?: Record<string, unknown> } | null;
}
interface Batch {
  batch_uuid: string;
  protocol_version: number;
  status: string;
  counts: Record<string, number>;
  progress: number;
  eta_s: number | null;
  runs: BatchRun[];
}

describe('batches', () => {
  let t: TestApp;
  let owner: TestUser;
  let projectUuid: string;
  let batchesUrl: string;
  let protocolUuid: string;
  /** Subject name → its video's uuid. */
  const video: Record<string, string> = {};
  const subject: Record<string, string> = {};
  let otherProjectVideo: string;

  const call = (method: Method, url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: owner.headers, ...(payload ? { payload: payload as object } : {}) });
  const ok = async <T>(method: Method, url: string, payload?: unknown, status = 200): Promise<T> => {
    const response = await call(method, url, payload);
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(status);
    return response.json() as T;
  };
  const rowCounts = async () => ({
    batches: (await t.ctx.db.select({ n: count() }).from(batches))[0]!.n,
    links: (await t.ctx.db.select({ n: count() }).from(batchRuns))[0]!.n,
    runs: (await t.ctx.db.select({ n: count() }).from(analyses))[0]!.n,
  });

  async function waitForBatch(batchUuid: string): Promise<Batch> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const batch = await ok<Batch>('GET', `${batchesUrl}${batchUuid}/`);
      if (batch.status === 'finished' || Date.now() > deadline) return batch;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** A subject with a group and one uploaded, processed video of the jumps scene. */
  async function subjectWithVideo(name: string, group: string) {
    const created = await ok<{ subject_uuid: string }>(
      'POST',
      `/api/projects/${projectUuid}/subjects/`,
      { name, group },
      201,
    );
    subject[name] = created.subject_uuid;
    const videosUrl = `/api/projects/${projectUuid}/subjects/${created.subject_uuid}/videos/`;
    const uploaded = await uploadVideo(t.app, owner, videosUrl, analysisFixtures().jumpsMp4, {
      filename: `${name}-day1.mp4`,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const uuid = uploaded.json().video_uuid as string;
    expect((await waitForVideo(t.app, owner, `${videosUrl}${uuid}/`)).status).toBe('ready');
    video[name] = uuid;
  }

  /** Damages the stored original of a video (its middle bytes): its runs fail with ffmpeg's decode error. */
  async function breakVideo(uuid: string, broken = true) {
    const [row] = await t.ctx.db.select().from(videos).where(eq(videos.videoUuid, uuid));
    const bytes = readFileSync(analysisFixtures().jumpsMp4);
    if (broken) {
      for (let i = Math.floor(bytes.length * 0.3); i < bytes.length * 0.5; i++) bytes[i] = (bytes[i]! * 7 + 13) & 255;
    }
    await t.ctx.storage.write(row!.originalKey!, bytes);
  }

  beforeAll(async () => {
    t = await createTestApp({ workers: true, config: { analysisWorkers: 2 } });
    owner = await createUser(t.ctx);
    const project = await createProjectWithSubject(t.ctx, owner);
    projectUuid = project.projectUuid;
    batchesUrl = `/api/projects/${projectUuid}/batches/`;
    await subjectWithVideo('A1', 'control');
    await subjectWithVideo('B1', 'treated');
    await subjectWithVideo('B2', 'treated');
    await subjectWithVideo('C1', 'control');
    const protocol = await ok<{ protocol_uuid: string }>(
      'POST',
      `/api/projects/${projectUuid}/protocols/`,
      { name: 'Jumps', kind: 'movement_detection', parameters: { rois: [ROI], threshold: 25 } },
      201,
    );
    protocolUuid = protocol.protocol_uuid;
    // A video of another project (a row is enough: it must be refused before anything reads it).
    const other = await createProjectWithSubject(t.ctx, owner);
    otherProjectVideo = randomUUID();
    await t.ctx.db.insert(videos).values({
      videoUuid: otherProjectVideo,
      projectUuid: other.projectUuid,
      subjectUuid: other.subjectUuid,
      name: 'elsewhere',
      originalFilename: 'elsewhere.mp4',
      status: 'ready',
      originalKey: videoKeys({ projectUuid: other.projectUuid, videoUuid: otherProjectVideo }, '.mp4').original,
    });
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('refuses bad requests with errors by field, and creates nothing', async () => {
    const before = await rowCounts();
    const refused = async (body: object) => {
      const response = await call('POST', batchesUrl, body);
      expect(response.statusCode, response.body).toBe(400);
      return response.json().errors as Record<string, string[]>;
    };
    expect(Object.keys(await refused({ protocol_uuid: randomUUID() }))).toEqual(['protocol_uuid']);
    expect(Object.keys(await refused({ protocol_uuid: protocolUuid, protocol_version: 7 }))).toEqual([
      'protocol_version',
    ]);
    expect(
      Object.keys(await refused({ protocol_uuid: protocolUuid, group: 'control', subject_uuids: [subject.A1] })),
    ).toEqual(['subject_uuids', 'group']);
    expect(await refused({ protocol_uuid: protocolUuid, group: 'sham' })).toEqual({
      group: ['No subject of the group "sham" has a ready video.'],
    });
    expect(
      (await refused({ protocol_uuid: protocolUuid, video_uuids: [video.A1, otherProjectVideo] })).video_uuids,
    ).toEqual([`No video of this project has the id(s) ${otherProjectVideo}.`]);
    expect(await refused({ protocol_uuid: protocolUuid, subject_uuids: ['nope'] })).toEqual({
      subject_uuids: ['No subject of this project has the id(s) nope.'],
    });
    expect(
      await refused({
        protocol_uuid: protocolUuid,
        group: 'treated',
        overrides: { [video.A1!]: { parameters: { threshold: 30 } } },
      }),
    ).toEqual({ [`overrides.${video.A1}`]: ['This video is not in the batch.'] });
    // Per video: a bad override and geometry pushed out of the picture, both reported, each naming its video.
    const errors = await refused({
      protocol_uuid: protocolUuid,
      group: 'treated',
      overrides: {
        [video.B1!]: { parameters: { threshold: 999 } },
        [video.B2!]: { geometry: { dx: 200 } },
      },
    });
    expect(errors).toEqual({
      [`videos.${video.B1}.parameters.threshold`]: ['B1 / B1-day1: Must be between 0 and 255.'],
      [`videos.${video.B2}.parameters.rois`]: ['B2 / B2-day1: ROI 1 lies outside the 320×240 picture.'],
    });
    expect(await rowCounts()).toEqual(before);
  });

  it('applies a protocol to a group, to chosen subjects, to a list and to every ready video', async () => {
    const byGroup = await ok<Batch>('POST', batchesUrl, { protocol_uuid: protocolUuid, group: 'treated' }, 201);
    expect(byGroup.runs.map((run) => run.subject_name)).toEqual(['B1', 'B2']);
    expect(byGroup.runs.every((run) => run.group === 'treated' && run.attempt === 1)).toBe(true);
    const bySubjects = await ok<Batch>(
      'POST',
      batchesUrl,
      { protocol_uuid: protocolUuid, subject_uuids: [subject.C1, subject.A1] },
      201,
    );
    expect(bySubjects.runs.map((run) => run.subject_name)).toEqual(['A1', 'C1']);
    const byList = await ok<Batch>('POST', batchesUrl, { protocol_uuid: protocolUuid, video_uuids: [video.B2] }, 201);
    expect(byList.runs.map((run) => run.video_uuid)).toEqual([video.B2]);
    const all = await ok<Batch>('POST', batchesUrl, { protocol_uuid: protocolUuid }, 201);
    expect(all.runs.map((run) => run.subject_name)).toEqual(['A1', 'B1', 'B2', 'C1']);
    expect(all.counts.videos).toBe(4);

    for (const batch of [byGroup, bySubjects, byList, all]) {
      const done = await waitForBatch(batch.batch_uuid);
      expect(done).toMatchObject({ status: 'finished', progress: 1, eta_s: null });
      expect(done.counts.succeeded).toBe(done.runs.length);
      // Each run is an ordinary run made from the protocol: it records the protocol and version.
      const [run] = await t.ctx.db
        .select()
        .from(analyses)
        .where(eq(analyses.analysisUuid, done.runs[0]!.analysis_uuid));
      expect(run).toMatchObject({ protocolUuid, protocolVersion: 1, status: 'succeeded' });
      expect((run!.summary as { events: number }).events).toBe(J.jumpFrames.length);
    }
    const page = await ok<{ count: number; results: Batch[] }>('GET', `${batchesUrl}?page_size=2`);
    expect(page.count).toBe(4);
    expect(page.results.map((batch) => batch.batch_uuid)).toEqual([all.batch_uuid, byList.batch_uuid]);
    expect(page.results[0]).not.toHaveProperty('runs');
  }, 180_000);

  it('adjusts single videos: a parameter override, and the geometry moved and scaled', async () => {
    const geometry = { dx: 10, dy: -5, scale: 0.5, origin: [0, 0] };
    const body = {
      protocol_uuid: protocolUuid,
      video_uuids: [video.A1, video.B1],
      overrides: { [video.A1!]: { parameters: { threshold: 40 } }, [video.B1!]: { geometry } },
    };
    // Checked first: the parameters each run would use, and nothing made.
    const before = await rowCounts();
    const checked = await ok<{ runs: { video_uuid: string; parameters: Record<string, unknown> }[] }>(
      'POST',
      `${batchesUrl}check/`,
      body,
    );
    expect(await rowCounts()).toEqual(before);
    const batch = await ok<Batch>('POST', batchesUrl, body, 201);
    const runOf = async (name: string) => {
      const uuid = batch.runs.find((run) => run.video_uuid === video[name])!.analysis_uuid;
      return (await t.ctx.db.select().from(analyses).where(eq(analyses.analysisUuid, uuid)))[0]!;
    };
    expect((await runOf('A1')).parameters).toEqual(movementParameters.parse({ rois: [ROI], threshold: 40 }));
    // (20, 40)–(180, 220) → 0.5·p + (10, −5): (20, 15)–(100, 105).
    expect((await runOf('B1')).parameters).toEqual(
      movementParameters.parse({ rois: [{ start_s: 0, x: 20, y: 15, width: 80, height: 90 }], threshold: 25 }),
    );
    for (const run of checked.runs) {
      const name = run.video_uuid === video.A1 ? 'A1' : 'B1';
      expect(run.parameters).toEqual((await runOf(name)).parameters);
    }
    expect(batch.runs.map((run) => run.overrides)).toEqual([
      { parameters: { threshold: 40 } },
      { geometry: { dx: 10, dy: -5, scale: 0.5, origin: [0, 0] } },
    ]);
    expect((await waitForBatch(batch.batch_uuid)).counts.succeeded).toBe(2);
  }, 120_000);

  it('finishes the good videos when one fails, says why, and retries only the failed one', async () => {
    await breakVideo(video.C1!);
    const batch = await ok<Batch>('POST', batchesUrl, { protocol_uuid: protocolUuid, group: 'control' }, 201);
    const done = await waitForBatch(batch.batch_uuid);
    expect(done.counts).toMatchObject({ videos: 2, succeeded: 1, failed: 1 });
    const failed = done.runs.find((run) => run.video_uuid === video.C1)!;
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/^ffmpeg reported a decode error/);
    expect(done.runs.find((run) => run.video_uuid === video.A1)!.status).toBe('succeeded');

    await breakVideo(video.C1!, false);
    const retried = await ok<Batch>('POST', `${batchesUrl}${batch.batch_uuid}/retry/`);
    const again = retried.runs.find((run) => run.video_uuid === video.C1)!;
    expect(again).toMatchObject({ attempt: 2 });
    expect(again.analysis_uuid).not.toBe(failed.analysis_uuid);
    // The good video's run is kept as it was.
    expect(retried.runs.find((run) => run.video_uuid === video.A1)).toMatchObject({ attempt: 1, status: 'succeeded' });
    const after = await waitForBatch(batch.batch_uuid);
    expect(after.counts).toMatchObject({ videos: 2, succeeded: 2, failed: 0 });
    // The failed run stays as history.
    const [old] = await t.ctx.db.select().from(analyses).where(eq(analyses.analysisUuid, failed.analysis_uuid));
    expect(old!.status).toBe('failed');
    expect((await call('POST', `${batchesUrl}${batch.batch_uuid}/retry/`)).statusCode).toBe(409);

    // A run deleted from the batch takes its video out of it (to the trash); restoring brings it back.
    const runUrl = `/api/projects/${projectUuid}/subjects/${subject.A1}/videos/${video.A1}/analysis/`;
    const a1 = after.runs.find((run) => run.video_uuid === video.A1)!;
    expect((await call('DELETE', `${runUrl}${a1.analysis_uuid}/`)).statusCode).toBe(204);
    expect((await ok<Batch>('GET', `${batchesUrl}${batch.batch_uuid}/`)).runs.map((run) => run.video_uuid)).toEqual([
      video.C1,
    ]);
    await ok('POST', `/api/projects/${projectUuid}/trash/${a1.analysis_uuid}/restore/`);
    expect((await ok<Batch>('GET', `${batchesUrl}${batch.batch_uuid}/`)).runs.map((run) => run.analysis_uuid)).toEqual([
      a1.analysis_uuid,
      again.analysis_uuid,
    ]);
  }, 180_000);

  it('stops what has not finished, and retry starts the stopped videos again', async () => {
    const slow = 'Long';
    const created = await ok<{ subject_uuid: string }>(
      'POST',
      `/api/projects/${projectUuid}/subjects/`,
      { name: slow, group: 'slow' },
      201,
    );
    // A long video as a row over its stored file (probed facts), so the run is still going when it is stopped.
    const uuid = randomUUID();
    const originalKey = videoKeys({ projectUuid, videoUuid: uuid }, '.mp4').original;
    await t.ctx.storage.write(originalKey, readFileSync(analysisFixtures().longMp4));
    const facts = await t.ctx.media.probe(analysisFixtures().longMp4);
    await t.ctx.db.insert(videos).values({
      videoUuid: uuid,
      projectUuid,
      subjectUuid: created.subject_uuid,
      name: 'long.mp4',
      originalFilename: 'long.mp4',
      status: 'ready',
      originalKey,
      container: facts.container,
      fps: facts.fps,
      frameCount: facts.frameCount,
      durationS: facts.durationS,
      width: facts.width,
      height: facts.height,
      pixelFormat: facts.pixelFormat,
      fullRange: facts.fullRange,
      startTime: facts.startTime,
    });
    const batch = await ok<Batch>('POST', batchesUrl, { protocol_uuid: protocolUuid, group: 'slow' }, 201);
    const stopped = await ok<Batch>('POST', `${batchesUrl}${batch.batch_uuid}/stop/`);
    expect(stopped).toMatchObject({ status: 'finished', counts: { revoked: 1 } });
    expect((await call('POST', `${batchesUrl}${batch.batch_uuid}/stop/`)).statusCode).toBe(409);
    const retried = await ok<Batch>('POST', `${batchesUrl}${batch.batch_uuid}/retry/`);
    expect(retried.runs[0]).toMatchObject({ attempt: 2 });
    expect(['queued', 'running']).toContain(retried.runs[0]!.status);
    expect(retried.status).toBe('running');
    await ok<Batch>('POST', `${batchesUrl}${batch.batch_uuid}/stop/`);
  }, 60_000);

  it('detects events with an event-detection protocol on each video’s newest series', async () => {
    const detection = await ok<{ protocol_uuid: string }>(
      'POST',
      `/api/projects/${projectUuid}/protocols/`,
      { name: 'Detect again', kind: 'event_detection', parameters: { refractory_s: 1 } },
      201,
    );
    const batch = await ok<Batch>(
      'POST',
      batchesUrl,
      { protocol_uuid: detection.protocol_uuid, group: 'treated' },
      201,
    );
    const done = await waitForBatch(batch.batch_uuid);
    expect(done.counts).toMatchObject({ videos: 2, succeeded: 2 });
    for (const run of done.runs) {
      const [row] = await t.ctx.db.select().from(analyses).where(eq(analyses.analysisUuid, run.analysis_uuid));
      expect(row).toMatchObject({ kind: 'event_detection', protocolUuid: detection.protocol_uuid });
      const [source] = await t.ctx.db
        .select()
        .from(analyses)
        .where(eq(analyses.analysisUuid, row!.sourceAnalysisUuid!));
      expect(source).toMatchObject({ videoUuid: run.video_uuid, status: 'succeeded', kind: 'movement_detection' });
    }
    // A video with no finished series to detect on is named, and nothing is made.
    const refused = await call('POST', batchesUrl, { protocol_uuid: detection.protocol_uuid, group: 'slow' });
    expect(refused.statusCode).toBe(400);
    expect(Object.keys(refused.json().errors)[0]).toMatch(/^videos\.[0-9a-f-]+\.source_analysis_uuid$/);
  }, 120_000);

  it('hides batches from outsiders and keeps viewers to reading', async () => {
    const outsider = await createUser(t.ctx);
    const [any] = await t.ctx.db.select().from(batches).limit(1);
    const read = await t.app.inject({
      method: 'GET',
      url: `${batchesUrl}${any!.batchUuid}/`,
      headers: outsider.headers,
    });
    expect(read.statusCode).toBe(404);
    expect((await call('GET', `${batchesUrl}${randomUUID()}/`)).statusCode).toBe(404);
  });
});
