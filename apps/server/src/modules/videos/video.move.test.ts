import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.js';
import {
  createProjectWithSubject,
  createSubjectRow,
  uploadVideo,
  waitForVideo,
} from '../../../test/factories-videos.js';
import { analysisFixtures, JUMPS_FIXTURE } from '../../../test/fixtures/videos.js';
import { startTestS3, type TestS3 } from '../../../test/s3-server.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { analyses, subjects, videos } from '../../db/schema.js';
import { legacyVideoStoragePrefix, videoStoragePrefix } from '../../lib/storage-keys.js';

/**
 * Issue 9, point 6: moving a video loses nothing. A video with a finished movement-detection run (real ffmpeg,
 * an MJPEG AVI so it has a playback copy too), Quick Score edits, a review position and an annotation track is
 * moved to another subject; the old subject is deleted; every file and row reads back as before. Run on disk and
 * on S3, and for a video stored in the layout from before migration 0010 (files under its first subject).
 */
const sha = (bytes: Buffer | Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface Prepared {
  projectUuid: string;
  subjectUuid: string;
  videoUuid: string;
  runUuid: string;
  trackUuid: string;
}

function scenario(getApp: () => TestApp) {
  let owner: TestUser;
  const t = () => getApp();
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    t().app.inject({
      method,
      url,
      headers: owner.headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const videoUrl = (p: Prepared, subjectUuid = p.subjectUuid) =>
    `/api/projects/${p.projectUuid}/subjects/${subjectUuid}/videos/${p.videoUuid}/`;

  /** GETs a URL the API handed out: its own (`/api/files/…`, `stream/`) through the app, a presigned one over HTTP. */
  async function download(url: string): Promise<Buffer> {
    if (url.startsWith(t().ctx.config.publicUrl)) {
      const response = await t().app.inject({ method: 'GET', url: url.slice(t().ctx.config.publicUrl.length) });
      expect(response.statusCode, url).toBe(200);
      return response.rawPayload;
    }
    const response = await fetch(url);
    expect(response.status, url).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  }

  async function prepare(): Promise<Prepared> {
    owner = await createUser(t().ctx);
    const project = await createProjectWithSubject(t().ctx, owner);
    const uploaded = await uploadVideo(t().app, owner, project.videosUrl, analysisFixtures().jumpsAvi);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const videoUuid = uploaded.json().video_uuid as string;
    const base = { projectUuid: project.projectUuid, subjectUuid: project.subjectUuid, videoUuid };
    const video = await waitForVideo(
      t().app,
      owner,
      videoUrl({ ...base, runUuid: '', trackUuid: '' }),
      undefined,
      60_000,
    );
    expect(video).toMatchObject({ status: 'ready', playback: 'copy' });
    const analysisUrl = `${videoUrl({ ...base, runUuid: '', trackUuid: '' })}analysis/`;
    const created = await call('POST', analysisUrl, {
      kind: 'movement_detection',
      parameters: { rois: [{ start_s: 0, ...JUMPS_FIXTURE.leftRoi }] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const runUuid = created.json().analysis_uuid as string;
    let run = created.json();
    const deadline = Date.now() + 90_000;
    while (['queued', 'running'].includes(run.status) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      run = (await call('GET', `${analysisUrl}${runUuid}/`)).json();
    }
    expect(run.error).toBeNull();
    expect(run).toMatchObject({ status: 'succeeded', summary: { samples: JUMPS_FIXTURE.frames, events: 3 } });
    // Quick Score: a label, a flag, an added event; a review position.
    const edited = await call('POST', `${analysisUrl}update-events/`, {
      analysis_uuid: runUuid,
      version: 0,
      changes: [
        { action: 'label', id: 1, label: 'rearing' },
        { action: 'flag', id: 2 },
        { action: 'add', time: 4.5, label: 'grooming' },
      ],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await call('PUT', `${analysisUrl}${runUuid}/review-position/`, { event_id: 2 })).statusCode).toBe(200);
    // The Annotator: one track with bouts.
    const annotations = `${videoUrl({ ...base, runUuid, trackUuid: '' })}annotations/`;
    const track = await call('POST', `${annotations}config/`, { name: 'Freezing', hotkey: 'f' });
    expect(track.statusCode, track.body).toBe(201);
    const trackUuid = track.json().annotation_config_uuid as string;
    const ranges = await call('PUT', `${annotations}${trackUuid}/`, {
      ranges: [
        [0.5, 1.25],
        [3, 4],
      ],
      version: 0,
    });
    expect(ranges.statusCode, ranges.body).toBe(200);
    return { ...base, runUuid, trackUuid };
  }

  /** Everything a user can read about the video, its run and its annotations, with files as hashes. */
  async function readAll(p: Prepared, subjectUuid: string) {
    const url = videoUrl(p, subjectUuid);
    const analysisUrl = `${url}analysis/`;
    const videoAnswer = await call('GET', url);
    expect(videoAnswer.statusCode, videoAnswer.body).toBe(200);
    const { thumbnail_url, stream_url, subject_uuid, updated_at, ...video } = videoAnswer.json();
    expect(subject_uuid).toBe(subjectUuid);
    const runAnswer = await call('GET', `${analysisUrl}${p.runUuid}/`);
    expect(runAnswer.statusCode, runAnswer.body).toBe(200);
    const { subject_uuid: runSubject, subject_name, ...run } = runAnswer.json();
    expect(runSubject).toBe(subjectUuid);
    const [subject] = await t().ctx.db.select().from(subjects).where(eq(subjects.subjectUuid, subjectUuid));
    expect(subject_name).toBe(subject!.name);
    const events = await call('GET', `${analysisUrl}retrieve-events/?analysis_uuid=${p.runUuid}`);
    expect(events.statusCode, events.body).toBe(200);
    const series = await call('GET', `${analysisUrl}${p.runUuid}/series/`);
    expect(series.statusCode, series.body).toBe(200);
    const timeseriesUrl = await call('GET', `${analysisUrl}retrieve-timeseries-url/?analysis_uuid=${p.runUuid}`);
    expect(timeseriesUrl.statusCode, timeseriesUrl.body).toBe(200);
    const exported = async (table: string) => {
      const response = await call('GET', `${analysisUrl}${p.runUuid}/export/?table=${table}&format=csv`);
      expect(response.statusCode, response.body).toBe(200);
      return response.body;
    };
    const stream = await call('GET', new URL(stream_url).pathname + new URL(stream_url).search);
    expect(stream.statusCode).toBe(200);
    const tracks = await call('GET', `${url}annotations/config/`);
    const ranges = await call('GET', `${url}annotations/${p.trackUuid}/`);
    const position = await call('GET', `${analysisUrl}${p.runUuid}/review-position/`);
    const listed = await call(
      'GET',
      `/api/projects/${p.projectUuid}/analysis/?subject=${subjectUuid}&video=${p.videoUuid}`,
    );
    return {
      video,
      run,
      events: events.json(),
      series: sha(series.rawPayload),
      seriesSamples: series.rawPayload.length / 8,
      timeseriesCsv: (await download(timeseriesUrl.json().url)).toString('utf8'),
      eventsCsv: await exported('events'),
      seriesCsv: await exported('series'),
      thumbnail: sha(await download(thumbnail_url)),
      stream: sha(stream.rawPayload),
      streamBytes: stream.rawPayload.length,
      tracks: tracks.json(),
      ranges: ranges.json(),
      position: (({ updated_at: _, ...rest }) => rest)(position.json()),
      listedRuns: listed.json().results.map((r: { analysis_uuid: string }) => r.analysis_uuid),
    };
  }

  /** Every key recorded on the video's and the run's rows, with the stored size. */
  async function storedFiles(p: Prepared) {
    const [video] = await t().ctx.db.select().from(videos).where(eq(videos.videoUuid, p.videoUuid));
    const [run] = await t().ctx.db.select().from(analyses).where(eq(analyses.analysisUuid, p.runUuid));
    const keys = [video?.originalKey, video?.playbackKey, video?.thumbnailKey, run?.seriesKey, run?.seriesCsvKey];
    return Promise.all(keys.map(async (key) => ({ key, stat: key ? await t().ctx.storage.stat(key) : null })));
  }

  /** What migration 0010 leaves for a video stored before it: files under the subject, that prefix recorded. */
  async function storeInLegacyLayout(p: Prepared) {
    const [video] = await t().ctx.db.select().from(videos).where(eq(videos.videoUuid, p.videoUuid));
    const [run] = await t().ctx.db.select().from(analyses).where(eq(analyses.analysisUuid, p.runUuid));
    const current = videoStoragePrefix(video!);
    const legacy = legacyVideoStoragePrefix(p.projectUuid, p.subjectUuid, p.videoUuid);
    const relocate = async (key: string | null) => {
      if (!key) return null;
      expect(key.startsWith(current)).toBe(true);
      const moved = legacy + key.slice(current.length);
      await t().ctx.storage.write(moved, await t().ctx.storage.read(key));
      await t().ctx.storage.delete(key);
      return moved;
    };
    await t()
      .ctx.db.update(videos)
      .set({
        legacyStoragePrefix: legacy,
        originalKey: await relocate(video!.originalKey),
        playbackKey: await relocate(video!.playbackKey),
        thumbnailKey: await relocate(video!.thumbnailKey),
      })
      .where(eq(videos.videoUuid, p.videoUuid));
    await t()
      .ctx.db.update(analyses)
      .set({ seriesKey: await relocate(run!.seriesKey), seriesCsvKey: await relocate(run!.seriesCsvKey) })
      .where(eq(analyses.analysisUuid, p.runUuid));
    await t().ctx.storage.deletePrefix(current);
  }

  async function moveThenDeleteOldSubject(legacy: boolean) {
    const p = await prepare();
    if (legacy) await storeInLegacyLayout(p);
    const before = await readAll(p, p.subjectUuid);
    const filesBefore = await storedFiles(p);
    expect(filesBefore.every((file) => file.stat !== null && file.stat.size > 0)).toBe(true);
    if (legacy) expect(filesBefore.every((file) => file.key!.includes(`/subjects/${p.subjectUuid}/`))).toBe(true);
    else expect(filesBefore.every((file) => !file.key!.includes('/subjects/'))).toBe(true);

    const target = await createSubjectRow(t().ctx, p.projectUuid);
    const moved = await call('PATCH', videoUrl(p), { subject_uuid: target });
    expect(moved.statusCode, moved.body).toBe(200);
    // Every row naming the subject follows; no file was copied, moved or removed.
    const [run] = await t().ctx.db.select().from(analyses).where(eq(analyses.analysisUuid, p.runUuid));
    expect(run!.subjectUuid).toBe(target);
    expect(await storedFiles(p)).toEqual(filesBefore);

    const deleted = await call('DELETE', `/api/projects/${p.projectUuid}/subjects/${p.subjectUuid}/`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await call('GET', videoUrl(p))).statusCode).toBe(404);

    const after = await readAll(p, target);
    expect(after).toEqual(before);
    expect(after.listedRuns).toEqual([p.runUuid]);
    expect(after.seriesSamples).toBe(JUMPS_FIXTURE.frames);
    expect(after.events.events).toHaveLength(4);
    expect(after.ranges.ranges).toEqual([
      [0.5, 1.25],
      [3, 4],
    ]);
    expect(await storedFiles(p)).toEqual(filesBefore);
    // Purging the old subject for good (emptying the trash) still takes nothing of the moved video.
    const trash = `/api/projects/${p.projectUuid}/trash/`;
    expect((await call('DELETE', trash)).statusCode).toBe(200);
    expect(await storedFiles(p)).toEqual(filesBefore);

    // Deleting the video and purging it removes every one of its files, wherever they live.
    expect((await call('DELETE', videoUrl(p, target))).statusCode).toBe(204);
    expect((await call('DELETE', trash)).statusCode).toBe(200);
    for (const file of filesBefore) expect(await t().ctx.storage.stat(file.key!)).toBeNull();
  }

  return {
    it: () => {
      it('moves a video with a run, Quick Score edits and tracks; the old subject’s deletion takes nothing of it', async () => {
        await moveThenDeleteOldSubject(false);
      }, 180_000);
      it('does the same for a video stored under its subject before migration 0010', async () => {
        await moveThenDeleteOldSubject(true);
      }, 180_000);
    },
  };
}

describe('moving a video (local storage)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ workers: true, config: { analysisWorkers: 2, analysisSegmentSeconds: 1 } });
  });
  afterAll(async () => {
    await t?.close();
  });
  scenario(() => t).it();
});

describe('moving a video (S3 storage)', () => {
  let s3: TestS3;
  let t: TestApp;
  beforeAll(async () => {
    s3 = await startTestS3();
    t = await createTestApp({
      workers: true,
      config: { analysisWorkers: 2, analysisSegmentSeconds: 1 },
      env: s3.env,
    });
    expect(t.ctx.storage.kind).toBe('s3');
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });
  scenario(() => t).it();
});
