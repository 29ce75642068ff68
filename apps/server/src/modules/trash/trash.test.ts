import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, type TestUser } from '../../../test/factories.js';
import { uploadVideo, waitForVideo } from '../../../test/factories-videos.js';
import { type VideoFixtures, videoFixtures } from '../../../test/fixtures/videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { projects, trashItems } from '../../db/schema.js';
import { projectStoragePrefix, videoStoragePrefix } from '../../lib/storage-keys.js';
import { jobDefinitions } from '../job-registry.js';
import { trashPurgeJob } from './trash.purge.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Issue 19.3: deletions go to the trash, come back whole, and are purged with their files after TRASH_DAYS. */
describe('trash', () => {
  let t: TestApp;
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let viewer: TestUser;
  let outsider: TestUser;
  let fixtures: VideoFixtures;

  const call = (user: TestUser, method: Method, url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: user.headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const ok = async (user: TestUser, method: Method, url: string, payload?: unknown, status = 200) => {
    const response = await call(user, method, url, payload);
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(status);
    return response.statusCode === 204 ? null : response.json();
  };
  const filesDir = () => path.join(t.dataDir, 'files');
  const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
  const filesUnder = (dir: string): string[] =>
    existsSync(dir)
      ? readdirSync(dir, { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
          .sort()
      : [];

  /** A project of `owner` (admin, member, viewer invited) with a name. */
  async function newProject(name = `Lab ${randomUUID().slice(0, 6)}`) {
    const project = await ok(owner, 'POST', '/api/projects/', { name }, 201);
    const p = project.project_uuid as string;
    await addMember(t.ctx, p, admin.id, 'admin');
    await addMember(t.ctx, p, member.id, 'member');
    await addMember(t.ctx, p, viewer.id, 'viewer');
    return { uuid: p, name, base: `/api/projects/${p}/` };
  }

  /**
   * A subject with a ready video (real upload and processing), an imported run whose events were reviewed and
   * changed, a review position, and an annotation track with bouts.
   */
  async function subjectWithWork(projectBase: string, name = `M${randomUUID().slice(0, 6)}`) {
    const subject = await ok(member, 'POST', `${projectBase}subjects/`, { name }, 201);
    const videosUrl = `${projectBase}subjects/${subject.subject_uuid}/videos/`;
    const uploaded = await uploadVideo(t.app, member, videosUrl, fixtures.h264Mp4);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const videoUrl = `${videosUrl}${uploaded.json().video_uuid}/`;
    const video = await waitForVideo(t.app, member, videoUrl);
    expect(video.status).toBe('ready');
    const analysisUrl = `${videoUrl}analysis/`;
    const boundary = `----ts${randomUUID().replace(/-/g, '')}`;
    const imported = await t.app.inject({
      method: 'POST',
      url: `${analysisUrl}import_timeseries/`,
      headers: { ...member.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: [
        `--${boundary}\r\nContent-Disposition: form-data; name="parameters"\r\n\r\n${JSON.stringify({ event_threshold: 10 })}\r\n`,
        `--${boundary}\r\nContent-Disposition: form-data; name="timeseries"; filename="emg.csv"\r\nContent-Type: text/csv\r\n\r\n`,
        'time,value\n0,1\n0.25,1\n0.5,40\n0.75,1\n1,1\n1.25,50\n1.5,1\n',
        `\r\n--${boundary}--\r\n`,
      ].join(''),
    });
    expect(imported.statusCode, imported.body).toBe(201);
    const run = imported.json().analysis_uuid as string;
    const reviewed = await ok(member, 'POST', `${analysisUrl}update-events/`, {
      analysis_uuid: run,
      version: 0,
      changes: [
        { action: 'flag', id: 1 },
        { action: 'label', id: 2, label: 'left paw' },
        { action: 'add', time: 1.1 },
      ],
    });
    expect(reviewed.version).toBe(1);
    await ok(member, 'PUT', `${analysisUrl}${run}/review-position/`, { event_id: 2 });
    const annotations = `${videoUrl}annotations/`;
    const track = await ok(
      member,
      'POST',
      `${annotations}config/`,
      { name: 'groom', color: '#aa3300', hotkey: 'g' },
      201,
    );
    await ok(member, 'PUT', `${annotations}${track.annotation_config_uuid}/`, { ranges: [[0.5, 1.25]], version: 0 });
    return {
      subjectUuid: subject.subject_uuid as string,
      subjectUrl: `${projectBase}subjects/${subject.subject_uuid}/`,
      videoUuid: uploaded.json().video_uuid as string,
      videoUrl,
      analysisUrl,
      run,
      annotations,
      track: track.annotation_config_uuid as string,
    };
  }

  /** Everything the API shows of a subject's work, to compare before the deletion and after the restore. */
  async function snapshot(projectBase: string, work: Awaited<ReturnType<typeof subjectWithWork>>) {
    const project = await ok(viewer, 'GET', projectBase);
    const subject = await ok(viewer, 'GET', work.subjectUrl);
    const video = await ok(viewer, 'GET', work.videoUrl);
    const events = await ok(viewer, 'GET', `${work.analysisUrl}retrieve-events/?analysis_uuid=${work.run}`);
    const run = await ok(viewer, 'GET', `${work.analysisUrl}${work.run}/`);
    const position = await ok(member, 'GET', `${work.analysisUrl}${work.run}/review-position/`);
    const ranges = await ok(viewer, 'GET', `${work.annotations}${work.track}/`);
    const tracks = await ok(viewer, 'GET', `${work.annotations}config/`);
    return {
      counts: project.counts,
      storage: project.storage_bytes,
      subject,
      video: { ...video, stream_url: undefined, thumbnail_url: undefined },
      events,
      run,
      position,
      ranges,
      tracks,
    };
  }

  const trashOf = async (projectBase: string, user: TestUser = member) =>
    (await ok(user, 'GET', `${projectBase}trash/`)).results as Record<string, unknown>[];
  const originalOf = (projectUuid: string, videoUuid: string) => {
    const dir = path.join(filesDir(), videoStoragePrefix({ projectUuid, videoUuid }));
    const name = readdirSync(dir).find((file) => file.startsWith('original'));
    return path.join(dir, name!);
  };

  beforeAll(async () => {
    fixtures = videoFixtures();
    t = await createTestApp({ workers: true });
    owner = await createUser(t.ctx, { firstName: 'Olga', lastName: 'Owner' });
    admin = await createUser(t.ctx);
    member = await createUser(t.ctx, { firstName: 'Mo', lastName: 'Member' });
    viewer = await createUser(t.ctx);
    outsider = await createUser(t.ctx);
  });
  afterAll(() => t?.close());

  it('keeps a deleted subject with its video, run, events and track, hides it everywhere, and restores it whole', async () => {
    const project = await newProject();
    const work = await subjectWithWork(project.base);
    const before = await snapshot(project.base, work);
    expect(before.counts).toEqual({ subjects: 1, videos: 1, analyses: 1 });
    const original = originalOf(project.uuid, work.videoUuid);
    const originalHash = sha256(original);
    const videoFiles = filesUnder(
      path.join(filesDir(), videoStoragePrefix({ projectUuid: project.uuid, videoUuid: work.videoUuid })),
    );
    expect(videoFiles.length).toBeGreaterThan(2);

    const thumbnail = new URL((await ok(viewer, 'GET', work.videoUrl)).thumbnail_url as string);
    const file = () => t.app.inject({ method: 'GET', url: thumbnail.pathname });
    expect((await file()).statusCode).toBe(200);

    await ok(member, 'DELETE', work.subjectUrl, undefined, 204);

    // Gone from lookups, lists, counts, the project summary and signed file URLs.
    for (const url of [
      work.subjectUrl,
      work.videoUrl,
      `${work.analysisUrl}${work.run}/`,
      `${work.annotations}config/`,
    ]) {
      expect((await call(viewer, 'GET', url)).statusCode, url).toBe(404);
    }
    const emptied = await ok(viewer, 'GET', project.base);
    expect(emptied.counts).toEqual({ subjects: 0, videos: 0, analyses: 0 });
    expect(emptied.storage_bytes).toBe(0);
    expect((await ok(viewer, 'GET', `${project.base}subjects/`)).count).toBe(0);
    expect((await ok(viewer, 'GET', `${project.base}videos/`)).count).toBe(0);
    expect((await ok(viewer, 'GET', `${project.base}analysis/`)).count).toBe(0);
    const summary = await call(viewer, 'GET', `${project.base}analysis/export/?format=csv`);
    expect(summary.body).not.toContain(work.videoUuid);
    // The files stay until the purge.
    expect(sha256(original)).toBe(originalHash);
    expect((await file()).statusCode).toBe(404);

    const [item] = await trashOf(project.base);
    expect(item).toMatchObject({
      item_uuid: work.subjectUuid,
      kind: 'subject',
      name: before.subject.name,
      deleted_by: { id: member.id, email: member.email, display_name: 'Mo Member' },
      subject_uuid: work.subjectUuid,
      video_uuid: null,
      contains: { videos: 1, analyses: 1, events: 3, annotation_tracks: 1 },
    });
    const days = (Date.parse(item!.purge_at as string) - Date.parse(item!.deleted_at as string)) / 86_400_000;
    expect(days).toBeCloseTo(30, 5);

    const restored = await ok(member, 'POST', `${project.base}trash/${work.subjectUuid}/restore/`);
    expect(restored).toMatchObject({ item_uuid: work.subjectUuid, kind: 'subject' });
    expect(await trashOf(project.base)).toEqual([]);
    expect(await snapshot(project.base, work)).toEqual(before);
    expect(sha256(originalOf(project.uuid, work.videoUuid))).toBe(originalHash);
    expect((await ok(viewer, 'GET', `${project.base}subjects/`)).count).toBe(1);
    expect((await file()).statusCode).toBe(200);
    const stream = await call(viewer, 'GET', `${work.videoUrl}stream/`);
    expect(stream.statusCode).toBe(200);
    expect(createHash('sha256').update(stream.rawPayload).digest('hex')).toBe(originalHash);
  });

  it('restores what one deletion took, not what was deleted separately before; a child waits for its parent', async () => {
    const project = await newProject();
    const work = await subjectWithWork(project.base);
    await ok(member, 'DELETE', `${work.annotations}config/${work.track}/`, undefined, 204);
    await ok(member, 'DELETE', `${work.analysisUrl}${work.run}/`, undefined, 204);
    await ok(member, 'DELETE', work.subjectUrl, undefined, 204);
    const kinds = (await trashOf(project.base)).map((item) => item.kind);
    expect(kinds).toEqual(['subject', 'analysis', 'annotation_track']);

    // The run's video is inside the subject's item: restore that first.
    const early = await call(member, 'POST', `${project.base}trash/${work.run}/restore/`);
    expect(early.statusCode).toBe(409);
    expect(early.json().errors).toMatch(/^Its video is in the trash: restore the subject ".+" first\.$/);

    await ok(member, 'POST', `${project.base}trash/${work.subjectUuid}/restore/`);
    expect((await ok(viewer, 'GET', `${project.base}analysis/`)).count).toBe(0);
    expect(await ok(viewer, 'GET', `${work.annotations}config/`)).toEqual([]);
    expect((await ok(viewer, 'GET', project.base)).counts).toEqual({ subjects: 1, videos: 1, analyses: 0 });

    await ok(member, 'POST', `${project.base}trash/${work.run}/restore/`);
    await ok(member, 'POST', `${project.base}trash/${work.track}/restore/`);
    expect((await ok(viewer, 'GET', `${project.base}analysis/`)).count).toBe(1);
    expect((await ok(viewer, 'GET', `${work.annotations}${work.track}/`)).ranges).toEqual([[0.5, 1.25]]);
    expect((await ok(viewer, 'GET', project.base)).counts).toEqual({ subjects: 1, videos: 1, analyses: 1 });
  });

  it('deletes and restores a video, a run and a track on their own', async () => {
    const project = await newProject();
    const work = await subjectWithWork(project.base);
    const events = await ok(viewer, 'GET', `${work.analysisUrl}retrieve-events/?analysis_uuid=${work.run}`);

    await ok(member, 'DELETE', `${work.analysisUrl}${work.run}/`, undefined, 204);
    expect((await call(viewer, 'GET', `${work.analysisUrl}${work.run}/`)).statusCode).toBe(404);
    expect((await ok(viewer, 'GET', project.base)).counts.analyses).toBe(0);
    await ok(member, 'POST', `${project.base}trash/${work.run}/restore/`);
    expect(await ok(viewer, 'GET', `${work.analysisUrl}retrieve-events/?analysis_uuid=${work.run}`)).toEqual(events);

    await ok(member, 'DELETE', `${work.annotations}config/${work.track}/`, undefined, 204);
    // Meanwhile someone made a track of the same name: the restore says so.
    const clash = await ok(member, 'POST', `${work.annotations}config/`, { name: 'Groom', color: '#000000' }, 201);
    const refused = await call(member, 'POST', `${project.base}trash/${work.track}/restore/`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ errors: 'The video already has a track named "Groom": rename it, then restore.' });
    await ok(member, 'DELETE', `${work.annotations}config/${clash.annotation_config_uuid}/`, undefined, 204);
    await ok(member, 'POST', `${project.base}trash/${work.track}/restore/`);
    expect((await ok(viewer, 'GET', `${work.annotations}${work.track}/`)).ranges).toEqual([[0.5, 1.25]]);

    const subject = await ok(viewer, 'GET', work.subjectUrl);
    await ok(member, 'DELETE', work.videoUrl, undefined, 204);
    expect((await ok(viewer, 'GET', work.subjectUrl)).video_count).toBe(0);
    expect((await ok(viewer, 'GET', project.base)).counts).toEqual({ subjects: 1, videos: 0, analyses: 0 });
    const [item] = await trashOf(project.base);
    expect(item).toMatchObject({ kind: 'video', subject_uuid: work.subjectUuid, video_uuid: work.videoUuid });
    await ok(member, 'POST', `${project.base}trash/${work.videoUuid}/restore/`);
    expect(await ok(viewer, 'GET', work.subjectUrl)).toEqual(subject);
    expect((await ok(viewer, 'GET', project.base)).counts).toEqual({ subjects: 1, videos: 1, analyses: 1 });
    expect((await ok(viewer, 'GET', `${work.annotations}config/`)).length).toBe(1);
  });

  it('refuses to restore a subject whose name is taken, or an item whose subject is in the trash', async () => {
    const project = await newProject();
    const first = await ok(member, 'POST', `${project.base}subjects/`, { name: 'M1' }, 201);
    await ok(member, 'DELETE', `${project.base}subjects/${first.subject_uuid}/`, undefined, 204);
    await ok(member, 'POST', `${project.base}subjects/`, { name: 'm1' }, 201);
    const refused = await call(member, 'POST', `${project.base}trash/${first.subject_uuid}/restore/`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      errors: 'A subject named "m1" already exists in this project: rename it, then restore.',
    });
    expect((await ok(viewer, 'GET', `${project.base}subjects/`)).count).toBe(1);
    expect((await call(member, 'POST', `${project.base}trash/${randomUUID()}/restore/`)).statusCode).toBe(404);
  });

  it('bulk deletes need an admin; each subject becomes its own trash item', async () => {
    const project = await newProject();
    const a = await ok(member, 'POST', `${project.base}subjects/`, { name: 'A' }, 201);
    const b = await ok(member, 'POST', `${project.base}subjects/`, { name: 'B' }, 201);
    const body = { subject_uuids: [a.subject_uuid, b.subject_uuid] };
    const refused = await call(member, 'POST', `${project.base}subjects/bulk-delete/`, body);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ errors: 'Only project owners and admins can do this.' });
    expect((await ok(viewer, 'GET', `${project.base}subjects/`)).count).toBe(2);
    await ok(admin, 'POST', `${project.base}subjects/bulk-delete/`, body, 204);
    expect((await ok(viewer, 'GET', project.base)).counts.subjects).toBe(0);
    expect((await trashOf(project.base)).map((item) => item.name).sort()).toEqual(['A', 'B']);
    const videos = `${project.base}subjects/${randomUUID()}/videos/batch_destroy/`;
    expect((await call(member, 'POST', videos, { video_uuids: [] })).statusCode).toBe(403);
  });

  it('deletes a project only with its name typed; the owner finds it under ?deleted=true and restores it', async () => {
    const project = await newProject('Whisker study');
    await subjectWithWork(project.base);
    for (const url of [
      project.base,
      `${project.base}?confirm_name=Whisker`,
      `${project.base}?confirm_name=whisker%20study`,
    ]) {
      const refused = await call(owner, 'DELETE', url);
      expect(refused.statusCode, url).toBe(400);
      expect(Object.keys(refused.json().errors)).toEqual(['confirm_name']);
    }
    expect((await ok(owner, 'GET', project.base)).trash).toBeNull();
    expect((await call(admin, 'DELETE', `${project.base}?confirm_name=Whisker%20study`)).statusCode).toBe(403);

    await ok(owner, 'DELETE', `${project.base}?confirm_name=Whisker%20study`, undefined, 204);
    for (const user of [owner, member]) {
      expect((await call(user, 'GET', project.base)).statusCode).toBe(404);
      expect((await call(user, 'GET', `${project.base}subjects/`)).statusCode).toBe(404);
      const listed = await ok(user, 'GET', '/api/projects/');
      expect(listed.results.map((p: { project_uuid: string }) => p.project_uuid)).not.toContain(project.uuid);
    }
    const deleted = await ok(owner, 'GET', '/api/projects/?deleted=true');
    expect(deleted.count).toBe(1);
    expect(deleted.results[0]).toMatchObject({ project_uuid: project.uuid, name: 'Whisker study' });
    expect(deleted.results[0].trash.purge_at).toEqual(expect.any(String));
    expect((await ok(member, 'GET', '/api/projects/?deleted=true')).count).toBe(0);
    expect((await call(member, 'POST', `${project.base}restore/`)).statusCode).toBe(404);

    // The name is free while the project is in the trash; restoring then says it is taken.
    const again = await ok(owner, 'POST', '/api/projects/', { name: 'Whisker study' }, 201);
    const clash = await call(owner, 'POST', `${project.base}restore/`);
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({
      errors: 'You already have a project named "Whisker study": rename that one, then restore.',
    });
    await ok(owner, 'PATCH', `/api/projects/${again.project_uuid}/`, { name: 'Whisker study 2' });
    const restored = await ok(owner, 'POST', `${project.base}restore/`);
    expect(restored).toMatchObject({ project_uuid: project.uuid, trash: null, counts: { subjects: 1, videos: 1 } });
    expect((await ok(member, 'GET', project.base)).counts.analyses).toBe(1);
    expect((await call(owner, 'POST', `${project.base}restore/`)).json()).toEqual({
      errors: 'This project is not in the trash.',
    });
  });

  it('purges items and projects past purge_at with their files, and nothing before', async () => {
    expect(jobDefinitions).toContain(trashPurgeJob);
    const project = await newProject();
    const due = await subjectWithWork(project.base);
    const kept = await subjectWithWork(project.base);
    await ok(member, 'DELETE', due.subjectUrl, undefined, 204);
    await ok(member, 'DELETE', kept.subjectUrl, undefined, 204);
    const dir = (videoUuid: string) =>
      path.join(filesDir(), videoStoragePrefix({ projectUuid: project.uuid, videoUuid }));

    await trashPurgeJob.handle(t.ctx, {}, { id: 'test', isFinalAttempt: false });
    expect((await trashOf(project.base)).length).toBe(2);
    expect(filesUnder(dir(due.videoUuid)).length).toBeGreaterThan(0);

    await t.ctx.db
      .update(trashItems)
      .set({ purgeAt: new Date(Date.now() - 1000) })
      .where(eq(trashItems.itemUuid, due.subjectUuid));
    await trashPurgeJob.handle(t.ctx, {}, { id: 'test', isFinalAttempt: false });
    expect((await trashOf(project.base)).map((item) => item.item_uuid)).toEqual([kept.subjectUuid]);
    expect(filesUnder(dir(due.videoUuid))).toEqual([]);
    expect(filesUnder(dir(kept.videoUuid)).length).toBeGreaterThan(0);
    expect((await call(member, 'POST', `${project.base}trash/${due.subjectUuid}/restore/`)).statusCode).toBe(404);

    // A deleted project past its purge_at goes with every row and file.
    await ok(owner, 'DELETE', `${project.base}?confirm_name=${encodeURIComponent(project.name)}`, undefined, 204);
    await trashPurgeJob.handle(t.ctx, {}, { id: 'test', isFinalAttempt: false });
    expect(await t.ctx.db.select().from(projects).where(eq(projects.projectUuid, project.uuid))).toHaveLength(1);
    await t.ctx.db
      .update(projects)
      .set({ purgeAt: new Date(Date.now() - 1000) })
      .where(eq(projects.projectUuid, project.uuid));
    await trashPurgeJob.handle(t.ctx, {}, { id: 'test', isFinalAttempt: false });
    expect(await t.ctx.db.select().from(projects).where(eq(projects.projectUuid, project.uuid))).toEqual([]);
    expect(await t.ctx.db.select().from(trashItems).where(eq(trashItems.projectUuid, project.uuid))).toEqual([]);
    expect(filesUnder(path.join(filesDir(), projectStoragePrefix(project.uuid)))).toEqual([]);
  });

  it('empties the trash for owners and admins only; outsiders get 404 and viewers 403', async () => {
    const project = await newProject();
    const work = await subjectWithWork(project.base);
    await ok(member, 'DELETE', work.subjectUrl, undefined, 204);
    const videoDir = path.join(
      filesDir(),
      videoStoragePrefix({ projectUuid: project.uuid, videoUuid: work.videoUuid }),
    );

    for (const [method, url] of [
      ['GET', `${project.base}trash/`],
      ['POST', `${project.base}trash/${work.subjectUuid}/restore/`],
      ['DELETE', `${project.base}trash/`],
      ['POST', `${project.base}restore/`],
    ] as const) {
      const response = await call(outsider, method, url);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toEqual({ errors: 'Not found.' });
    }
    expect((await call(viewer, 'GET', `${project.base}trash/`)).statusCode).toBe(403);
    expect((await call(viewer, 'POST', `${project.base}trash/${work.subjectUuid}/restore/`)).statusCode).toBe(403);
    expect((await call(member, 'DELETE', `${project.base}trash/`)).statusCode).toBe(403);
    expect(filesUnder(videoDir).length).toBeGreaterThan(0);

    expect(await ok(admin, 'DELETE', `${project.base}trash/`)).toEqual({ purged: 1 });
    expect(await trashOf(project.base)).toEqual([]);
    expect(filesUnder(videoDir)).toEqual([]);
  });

  it('refuses deleting and restoring in a locked project', async () => {
    const project = await newProject();
    const subject = await ok(member, 'POST', `${project.base}subjects/`, { name: 'Locked' }, 201);
    const other = await ok(member, 'POST', `${project.base}subjects/`, { name: 'Trashed' }, 201);
    await ok(member, 'DELETE', `${project.base}subjects/${other.subject_uuid}/`, undefined, 204);
    await t.ctx.db.update(projects).set({ status: 'locked' }).where(eq(projects.projectUuid, project.uuid));
    const locked = 'This project is locked: renew its subscription to make changes.';
    for (const [method, url] of [
      ['DELETE', `${project.base}subjects/${subject.subject_uuid}/`],
      ['POST', `${project.base}trash/${other.subject_uuid}/restore/`],
      ['DELETE', `${project.base}?confirm_name=${encodeURIComponent(project.name)}`],
    ] as const) {
      const response = await call(owner, method, url);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json()).toEqual({ errors: locked });
    }
    expect((await ok(viewer, 'GET', `${project.base}subjects/`)).count).toBe(1);
    expect((await trashOf(project.base)).length).toBe(1);
  });
});
