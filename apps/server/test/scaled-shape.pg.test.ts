import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { asc, eq, sql } from 'drizzle-orm';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { type AppContext, closeContext, createContext } from '../src/context.js';
import { openDatabase } from '../src/db/client.js';
import { analyses, analysisSegments, videos } from '../src/db/schema.js';
import { createLogger } from '../src/logger.js';
import { jobDefinitions } from '../src/modules/job-registry.js';
import { LOST_RUN_MESSAGE } from '../src/modules/job-watchdog.js';
import { createUser, type TestUser } from './factories.js';
import { createProjectWithSubject, type ProjectWithSubject } from './factories-videos.js';
import {
  AppProcess,
  buildLikeStart,
  comparable,
  eventTimes,
  pollUntil,
  type RunResult,
  scaledFixtures,
  singlePassRun,
  waitForHealth,
} from './scaled-shape.js';
import { createPostgresDatabase } from './test-app.js';

/**
 * The scaled shape as the README starts it: PostgreSQL, an S3-compatible store (s3rver), one `RUN_WORKERS=false
 * npm start` and two `npm run worker`, each in its own DATA_DIR like separate machines. Runs only when
 * TEST_DATABASE_URL is set (vitest.config.ts leaves *.pg.test.ts out otherwise).
 */
const PORTS = { web: 9501, s3: 9510 };
const WATCHDOG_SECONDS = 2;
const ROI = { start_s: 0, x: 0, y: 0, width: 160, height: 120 };

// biome-ignore lint/suspicious/noExplicitAny: the test reads the API's JSON answers field by field
type Json = any;

describe('the scaled shape: a web process and two workers on PostgreSQL and S3', () => {
  const webUrl = `http://127.0.0.1:${PORTS.web}`;
  const dirs: string[] = [];
  const started: AppProcess[] = [];
  let database: { url: string; drop(): Promise<void> };
  let s3: S3rver;
  let env: NodeJS.ProcessEnv;
  let webDir: string;
  let web: AppProcess;
  let workers: AppProcess[];
  let ctx: AppContext;
  let owner: TestUser;
  let project: ProjectWithSubject;
  let fixtures: ReturnType<typeof scaledFixtures>;
  let longVideo: string;
  let reference: ReturnType<typeof comparable>;

  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  const startWeb = () => {
    const process = new AppProcess('web', 'start', { ...env, RUN_WORKERS: 'false', DATA_DIR: webDir });
    started.push(process);
    return process;
  };
  const startWorker = (name: string) => {
    const process = new AppProcess(name, 'worker', { ...env, DATA_DIR: tempDir(`vat-${name}-`) });
    started.push(process);
    return process;
  };

  async function api(method: string, url: string, body?: unknown) {
    const response = await fetch(`${webUrl}${url}`, {
      method,
      headers: { ...owner.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as Json };
  }
  const videoUrl = (uuid: string) => `${project.videosUrl}${uuid}/`;
  const waitVideo = (uuid: string, timeoutMs: number) =>
    pollUntil(
      async () => (await api('GET', videoUrl(uuid))).json,
      (v) => v.status === 'ready' || v.status === 'failed',
      timeoutMs,
      200,
    );
  async function uploadOverHttp(file: string): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([readFileSync(file)]), path.basename(file));
    const response = await fetch(`${webUrl}${project.videosUrl}`, {
      method: 'POST',
      headers: owner.headers,
      body: form,
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as Json).video_uuid;
  }
  async function createRun(video: string): Promise<string> {
    const { status, json } = await api('POST', `${videoUrl(video)}analysis/`, {
      kind: 'movement_detection',
      parameters: { rois: [ROI] },
    });
    expect(status).toBe(201);
    return json.analysis_uuid;
  }
  const waitRun = (video: string, run: string, timeoutMs: number) =>
    pollUntil(
      async () => (await api('GET', `${videoUrl(video)}analysis/${run}/`)).json,
      (r) => r.status !== 'queued' && r.status !== 'running',
      timeoutMs,
      100,
    );
  async function readResult(video: string, run: string): Promise<RunResult> {
    const base = `${webUrl}${videoUrl(video)}analysis/`;
    const series = await fetch(`${base}${run}/series/?part=values`, { headers: owner.headers });
    const events = await fetch(`${base}retrieve-events/?analysis_uuid=${run}`, { headers: owner.headers });
    return {
      run: (await api('GET', `${videoUrl(video)}analysis/${run}/`)).json,
      series: Buffer.from(await series.arrayBuffer()),
      events: eventTimes(((await events.json()) as Json).events),
    };
  }
  /** When a surviving worker handed the job back (the time of its log line). */
  async function handedBack(jobId: string): Promise<number> {
    const line = await Promise.any(
      workers
        .filter((w) => w.child.exitCode === null && w.child.signalCode === null)
        .map((w) =>
          w.waitFor((l) => l.msg?.startsWith('worker of a running job is gone') === true && l.jobId === jobId, 15_000),
        ),
    );
    return Number(line.time);
  }
  const segmentsOf = (run: string) =>
    ctx.db
      .select()
      .from(analysisSegments)
      .where(eq(analysisSegments.analysisUuid, run))
      .orderBy(asc(analysisSegments.index));

  beforeAll(async () => {
    fixtures = scaledFixtures();
    buildLikeStart();
    database = await createPostgresDatabase(process.env.TEST_DATABASE_URL!);
    s3 = new S3rver({
      port: PORTS.s3,
      address: '127.0.0.1',
      directory: tempDir('vat-s3rver-'),
      silent: true,
      configureBuckets: [{ name: 'lab-videos', configs: [] }],
    });
    await s3.run();
    const { TEST_DATABASE_URL: _, ...inherited } = process.env;
    env = {
      ...inherited,
      DATABASE_URL: database.url,
      S3_BUCKET: 'lab-videos',
      S3_ENDPOINT: `http://127.0.0.1:${PORTS.s3}`,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      JWT_SECRET: 'scaled-shape-test-secret-long-enough-for-hs256',
      HOST: '127.0.0.1',
      PORT: String(PORTS.web),
      PUBLIC_URL: webUrl,
      LOG_LEVEL: 'info',
      ANALYSIS_WORKERS: '1',
      ANALYSIS_SEGMENT_SECONDS: '60',
      JOB_WATCHDOG_SECONDS: String(WATCHDOG_SECONDS),
    };
    webDir = tempDir('vat-web-');
    web = startWeb();
    await waitForHealth(webUrl, 90_000);
    workers = [startWorker('worker-a'), startWorker('worker-b')];
    await Promise.all(workers.map((w) => w.workerId()));
    // The test's own view of the database and the bucket (no HTTP, no workers).
    const config = loadConfig(env, { dataDir: tempDir('vat-test-') });
    const handle = await openDatabase({ databaseUrl: database.url });
    ctx = await createContext(config, createLogger('silent'), { database: handle, jobDefinitions });
    owner = await createUser(ctx);
    project = await createProjectWithSubject(ctx, owner);
  }, 300_000);

  afterAll(async () => {
    for (const process of started) process.killHard();
    await Promise.all(started.map((p) => p.exited));
    if (ctx) await closeContext(ctx);
    await s3?.close();
    await database?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('spreads a movement-detection run over both workers, value for value what one pass computes', async () => {
    longVideo = await uploadOverHttp(fixtures.longMp4);
    expect(await waitVideo(longVideo, 60_000)).toMatchObject({ status: 'ready', frame_count: 15_000 });
    const startedAt = Date.now();
    const runUuid = await createRun(longVideo);
    const run = await waitRun(longVideo, runUuid, 120_000);
    expect(run.error).toBeNull();
    expect(run.status).toBe('succeeded');
    const runMs = Date.now() - startedAt;
    const segments = await segmentsOf(runUuid);
    expect(segments).toHaveLength(10);
    const ids = await Promise.all(workers.map((w) => w.workerId()));
    // Each segment names the worker that computed it: both did.
    expect(new Set(segments.map((s) => s.worker))).toEqual(new Set(ids));
    const scaled = comparable(await readResult(longVideo, runUuid));
    expect(scaled.summary).toMatchObject({ samples: 15_000 });
    expect((scaled.events as unknown[]).length).toBeGreaterThan(0);

    // The same video and parameters in one process, one segment, local storage.
    const single = await singlePassRun(fixtures.longMp4, { rois: [ROI] });
    expect(single.segments).toBe(1);
    reference = comparable(single.result);
    expect(scaled).toEqual(reference);
    console.log(
      `[scaled] 10-minute run over two workers: ${(runMs / 1000).toFixed(1)} s; segments per worker: ${ids
        .map((id) => segments.filter((s) => s.worker === id).length)
        .join(' + ')}`,
    );
  });

  it('finishes a run within 15 s of a SIGKILL of a worker in the middle of a segment, value for value', async () => {
    const [victim, survivor] = workers as [AppProcess, AppProcess];
    const victimId = await victim.workerId();
    const survivorId = await survivor.workerId();
    const runUuid = await createRun(longVideo);
    // A segment the victim is decoding in the second half of the run: taken, not stored, and its ffmpeg running in
    // the victim's process group. (Progress comes every 0.5 s; on a fast machine a segment is done before that.)
    const [segment] = await pollUntil(
      async () => {
        const rows = await segmentsOf(runUuid);
        const done = rows.filter((s) => s.done).length;
        const working = rows.filter((s) => done >= 5 && s.worker === victimId && s.frameCount === null);
        if (working.length === 0) return [];
        return victim.groupCommands().some((c) => /ffmpeg/.test(c)) ? working : [];
      },
      (rows) => rows.length > 0,
      40_000,
      10,
    );
    victim.killHard();
    const killedAt = Date.now();
    await victim.exited;
    await pollUntil(
      async () => (await segmentsOf(runUuid)).find((s) => s.index === segment!.index),
      (s) => s?.worker === survivorId,
      15_000,
      50,
    );
    const takeoverMs = Date.now() - killedAt;
    const handBackMs = (await handedBack(segment!.jobId!)) - killedAt;
    const run = await waitRun(longVideo, runUuid, 30_000);
    const recoveryMs = Date.now() - killedAt;
    expect(run.error).toBeNull();
    expect(run.status).toBe('succeeded');
    expect(recoveryMs).toBeLessThan(15_000);
    expect(handBackMs).toBeLessThan(6_000);
    expect(comparable(await readResult(longVideo, runUuid))).toEqual(reference);
    expect((await segmentsOf(runUuid)).find((s) => s.index === segment!.index)?.worker).toBe(survivorId);
    console.log(
      `[scaled] worker SIGKILLed in segment ${segment!.index} (${segment!.framesDone} of ${segment!.endFrame - segment!.startFrame} frames): handed back after ${(handBackMs / 1000).toFixed(1)} s, taken over after ${(takeoverMs / 1000).toFixed(1)} s, run succeeded ${(recoveryMs / 1000).toFixed(1)} s after the kill`,
    );
    workers = [survivor, startWorker('worker-c')];
    await workers[1]!.workerId();
  });

  it('retries a playback copy whose worker was SIGKILLed while copying, and the video becomes ready', async () => {
    const from = workers.map((w) => w.lines.length);
    // A copy is made in `videos.playback-piece` jobs (one piece for a minute of video) after the video is ready.
    const isPieceJobStart = (l: { msg?: string; job?: string }) =>
      l.msg === 'job started' && l.job === 'videos.playback-piece';
    const video = await uploadOverHttp(fixtures.mjpegAvi);
    const copier = await Promise.any(workers.map((w, i) => w.waitFor(isPieceJobStart, 60_000, from[i]).then(() => w)));
    // ffmpeg is encoding the piece.
    await pollUntil(
      async () => copier.groupCommands().some((c) => /ffmpeg/.test(c) && /libx264/.test(c)),
      (copying) => copying,
      30_000,
      50,
    );
    copier.killHard();
    const killedAt = Date.now();
    await copier.exited;
    const other = workers.find((w) => w !== copier)!;
    const retried = await other.waitFor(isPieceJobStart, 30_000, from[workers.indexOf(other)]);
    const takeoverMs = Date.now() - killedAt;
    const handBackMs = (await handedBack(retried.jobId!)) - killedAt;
    expect(handBackMs).toBeLessThan(6_000);
    const ready = await pollUntil(
      async () => (await api('GET', videoUrl(video))).json,
      (v) => v.playback_copy.state === 'ready' || v.playback_copy.state === 'failed',
      90_000,
      200,
    );
    const readyMs = Date.now() - killedAt;
    expect(ready).toMatchObject({ status: 'ready', error: null, playback: 'copy' });
    expect(ready.playback_copy).toEqual({ state: 'ready', progress: 1, error: null });
    const head = await fetch(ready.stream_url.startsWith('http') ? ready.stream_url : `${webUrl}${ready.stream_url}`, {
      headers: { range: 'bytes=0-11' },
    });
    expect(head.status).toBe(206);
    expect(
      Buffer.from(await head.arrayBuffer())
        .subarray(4, 8)
        .toString(),
    ).toBe('ftyp');
    console.log(
      `[scaled] worker SIGKILLed while copying: handed back after ${(handBackMs / 1000).toFixed(1)} s, job taken over after ${(takeoverMs / 1000).toFixed(1)} s, copy ready ${(readyMs / 1000).toFixed(1)} s after the kill`,
    );
    workers = [other, startWorker('worker-d')];
    await workers[1]!.workerId();
  });

  it('resumes a tus upload after the web process is SIGKILLed mid-PATCH and started again; the file is identical', async () => {
    const source = readFileSync(fixtures.longMp4);
    const b64 = (value: string) => Buffer.from(value).toString('base64');
    const tusHeaders = { ...owner.headers, 'tus-resumable': '1.0.0' };
    const created = await fetch(`${webUrl}/api/uploads/`, {
      method: 'POST',
      headers: {
        ...tusHeaders,
        'upload-length': String(source.length),
        'upload-metadata': `project_uuid ${b64(project.projectUuid)},subject_uuid ${b64(project.subjectUuid)},filename ${b64('resumed.mp4')}`,
      },
    });
    expect(created.status).toBe(201);
    const uploadId = new URL(created.headers.get('location')!, webUrl).pathname.split('/').filter(Boolean).pop()!;
    const uploadUrl = `${webUrl}/api/uploads/${uploadId}`;

    // A PATCH of every byte that sends only the first half, then the server dies under it.
    const half = Math.floor(source.length / 2);
    const request = http.request(uploadUrl, {
      method: 'PATCH',
      headers: {
        ...tusHeaders,
        'content-type': 'application/offset+octet-stream',
        'upload-offset': '0',
        'content-length': String(source.length),
      },
    });
    request.on('error', () => {});
    request.write(source.subarray(0, half));
    const partFile = path.join(webDir, 'tmp', 'tus', uploadId);
    await pollUntil(
      async () => {
        try {
          return statSync(partFile).size;
        } catch {
          return 0;
        }
      },
      (size) => size >= half,
      30_000,
      20,
    );
    web.killHard();
    const killedAt = Date.now();
    await web.exited;
    web = startWeb();
    await waitForHealth(webUrl, 90_000);
    const restartMs = Date.now() - killedAt;

    const head = await fetch(uploadUrl, { method: 'HEAD', headers: tusHeaders });
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThanOrEqual(half);
    expect(offset).toBeLessThan(source.length);
    const rest = await fetch(uploadUrl, {
      method: 'PATCH',
      headers: { ...tusHeaders, 'content-type': 'application/offset+octet-stream', 'upload-offset': String(offset) },
      body: source.subarray(offset),
    });
    expect(rest.status).toBe(204);
    expect(await waitVideo(uploadId, 60_000)).toMatchObject({ status: 'ready' });
    const [row] = await ctx.db.select().from(videos).where(eq(videos.videoUuid, uploadId));
    const stored: Buffer[] = [];
    for await (const chunk of await ctx.storage.read(row!.originalKey!)) stored.push(chunk as Buffer);
    const hash = (data: Buffer) => createHash('sha256').update(data).digest('hex');
    expect(hash(Buffer.concat(stored))).toBe(hash(source));
    // Nothing of the upload is left in the web process's folder.
    expect(readdirSync(path.join(webDir, 'tmp', 'tus')).filter((f) => f.startsWith(uploadId))).toEqual([]);
    console.log(
      `[scaled] web SIGKILLed at byte ${offset} of ${source.length} of a tus upload: back in ${(restartMs / 1000).toFixed(1)} s, resumed, stored file identical`,
    );
  });

  it('fails, with a message, a run whose jobs are gone, within twice the watchdog interval', async () => {
    // A run whose waiting segment jobs are deleted from the queue (as an operator's clean-up or an expiry would):
    // the segments already running finish, the others never will.
    const runUuid = await createRun(longVideo);
    await pollUntil(
      async () => (await segmentsOf(runUuid)).filter((s) => s.worker !== null).length,
      (taken) => taken > 0,
      30_000,
      20,
    );
    await ctx.db.execute(
      sql`delete from pgboss.job where data->>'analysisUuid' = ${runUuid} and state in ('created', 'retry')`,
    );
    const liveJobs = async () => {
      const result = (await ctx.db.execute(
        sql`select count(*)::int as n from pgboss.job where data->>'analysisUuid' = ${runUuid} and state in ('created', 'retry', 'active')`,
      )) as unknown as { rows: { n: number }[] };
      return result.rows[0]!.n;
    };
    await pollUntil(liveJobs, (n) => n === 0, 30_000, 50);
    const goneAt = Date.now();
    const failed = await pollUntil(
      async () => (await api('GET', `${videoUrl(longVideo)}analysis/${runUuid}/`)).json,
      (r) => r.status !== 'running' && r.status !== 'queued',
      30_000,
      100,
    );
    const elapsedMs = Date.now() - goneAt;
    expect(failed).toMatchObject({ status: 'failed', error: LOST_RUN_MESSAGE });
    expect(elapsedMs).toBeLessThan((2 * WATCHDOG_SECONDS + 2) * 1000);
    // Nothing else is left half-done.
    const open = await ctx.db.select().from(analyses);
    expect(open.filter((r) => r.status === 'queued' || r.status === 'running')).toEqual([]);
    const stuck = await ctx.db.select().from(videos).where(eq(videos.status, 'processing'));
    expect(stuck).toEqual([]);
    console.log(
      `[scaled] run whose waiting jobs were deleted failed by the watchdog ${(elapsedMs / 1000).toFixed(1)} s after its last job ended`,
    );
  });
});
