// The batch rows of `npm run bench` (issue 23, ADR 035): how long a batch of 40 ten-minute videos takes to create,
// how much a second analysis worker shortens a batch's wall time, and how fast the results of a 200-run batch answer.
// Videos are seeded cheaply: two real uploads, then (server stopped) video rows cloned from them in the embedded
// database, their originals hard links to the uploaded file and their packet index (with its proofs) copied, so
// every clone is a real, analysable video. The 200 finished runs are rows with summaries and events.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, renameSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { openDatabase } from '../src/db/client.js';
import { analyses, analysisEvents, batches, batchRuns, subjects, videoSeekIndexes, videos } from '../src/db/schema.js';
import { videoKeys } from '../src/lib/storage-keys.js';
import { makeGlidingSquareVideo } from './analysis-bench.js';
import { batchPageRows } from './batch-page-bench.js';
import { uploadReadyVideo } from './bench-uploads.js';
import type { BenchHarness } from './harness.js';
import { cpuSeconds, median, sleep } from './run-measure.js';

const BATCH_VIDEOS = 40;
const RESULT_RUNS = 200;
const SHORT = { width: 640, height: 480, fps: 30, seconds: 120 } as const;

/** A two-minute 640x480 H.264 video (ffmpeg's testsrc2: motion everywhere), for the batch's wall-time rows. */
function makeShortVideo(cacheDir: string): string {
  mkdirSync(cacheDir, { recursive: true });
  const file = path.join(cacheDir, `batch-${SHORT.width}x${SHORT.height}-${SHORT.seconds}s.mp4`);
  if (existsSync(file)) return file;
  const partial = `${file}.partial.mp4`;
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-v', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `testsrc2=s=${SHORT.width}x${SHORT.height}:r=${SHORT.fps}:d=${SHORT.seconds}`],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-g', '250', '-pix_fmt', 'yuv420p'],
    partial,
  ]);
  renameSync(partial, file);
  return file;
}

interface Seeded {
  projectUuid: string;
  longVideos: string[];
  shortVideos: string[];
  resultsBatch: string;
}

/**
 * With the server stopped: `BATCH_VIDEOS` clones of each uploaded video under subjects of their own, and a batch of
 * `RESULT_RUNS` finished runs (20 events each, reviewed; a freezing summary of ten 1-minute bins).
 */
async function seedRows(
  dataDir: string,
  uploaded: { long: string; short: string },
  protocolUuid: string,
): Promise<Seeded> {
  const handle = await openDatabase({ dataDir: path.join(dataDir, 'db') });
  const db = handle.db;
  try {
    const sources = await db
      .select()
      .from(videos)
      .where(inArray(videos.videoUuid, [uploaded.long, uploaded.short]));
    const indexes = await db
      .select()
      .from(videoSeekIndexes)
      .where(inArray(videoSeekIndexes.videoUuid, [uploaded.long, uploaded.short]));
    const projectUuid = sources[0]!.projectUuid;
    const people = await db.select().from(subjects).where(eq(subjects.projectUuid, projectUuid)).limit(1000);
    let next = 1;
    const clone = async (sourceUuid: string, count: number, withFile: boolean) => {
      const source = sources.find((row) => row.videoUuid === sourceUuid)!;
      const index = indexes.find((row) => row.videoUuid === sourceUuid);
      const made: string[] = [];
      for (let i = 0; i < count; i++) {
        const subject = people[next++ % people.length]!;
        const videoUuid = randomUUID();
        const originalKey = videoKeys({ projectUuid, videoUuid }, path.extname(source.originalKey!)).original;
        if (withFile) {
          const target = path.join(dataDir, 'files', originalKey);
          mkdirSync(path.dirname(target), { recursive: true });
          linkSync(path.join(dataDir, 'files', source.originalKey!), target);
        }
        const { createdAt: _c, updatedAt: _u, ...facts } = source;
        await db.insert(videos).values({
          ...facts,
          videoUuid,
          subjectUuid: subject.subjectUuid,
          name: `clone ${i + 1}`,
          originalKey,
          thumbnailKey: null,
          playbackKey: null,
        });
        if (index) {
          await db.insert(videoSeekIndexes).values({ videoUuid, packetIndex: index.packetIndex, proofs: index.proofs });
        }
        made.push(videoUuid);
      }
      return made;
    };
    const longVideos = await clone(uploaded.long, BATCH_VIDEOS, true);
    const shortVideos = await clone(uploaded.short, BATCH_VIDEOS, true);
    const resultVideos = await clone(uploaded.short, RESULT_RUNS, false);
    const [batch] = await db
      .insert(batches)
      .values({ projectUuid, protocolUuid, protocolVersion: 1, kind: 'movement_detection', selection: {} })
      .returning();
    const rows = await db
      .select({ videoUuid: videos.videoUuid, subjectUuid: videos.subjectUuid })
      .from(videos)
      .where(inArray(videos.videoUuid, resultVideos));
    for (const [i, row] of rows.entries()) {
      const events = 10 + (i % 20);
      const [run] = await db
        .insert(analyses)
        .values({
          projectUuid,
          subjectUuid: row.subjectUuid,
          videoUuid: row.videoUuid,
          kind: 'movement_detection',
          parameters: {},
          status: 'succeeded',
          progress: 1,
          softwareVersion: 'bench',
          protocolUuid,
          protocolVersion: 1,
          source: { fps: 30, frameCount: 18_000 },
          summary: {
            events,
            duration_s: 600,
            freezing: {
              percent: 20 + (i % 7),
              freezing_frames: 3600,
              valid_frames: 18_000,
              bins: Array.from({ length: 10 }, (_, b) => ({
                start_s: b * 60,
                end_s: (b + 1) * 60,
                percent: (b * 7 + i) % 100,
              })),
            },
          },
        })
        .returning();
      await db.insert(analysisEvents).values(
        Array.from({ length: events }, (_, e) => ({
          analysisUuid: run!.analysisUuid,
          id: e + 1,
          time: e * 10 + 1,
          originalTime: e * 10 + 1,
          discarded: e % 5 === 0,
          reviewedAt: new Date(),
        })),
      );
      await db
        .insert(batchRuns)
        .values({ analysisUuid: run!.analysisUuid, batchUuid: batch!.batchUuid, videoUuid: row.videoUuid });
    }
    return { projectUuid, longVideos, shortVideos, resultsBatch: batch!.batchUuid };
  } finally {
    await handle.close();
  }
}

/**
 * Polls the batch (250 ms) until every run has finished; answers the seconds from `since`. Logs in again only when
 * the access token nears its 5 minutes (log-ins are rate-limited).
 */
async function waitForBatch(
  h: BenchHarness,
  url: string,
  since: number,
): Promise<{ seconds: number; batch: { counts: { succeeded: number; failed: number } } }> {
  let token = await h.login();
  let tokenAt = performance.now();
  for (;;) {
    if (performance.now() - tokenAt > 4 * 60_000) {
      token = await h.login();
      tokenAt = performance.now();
    }
    const batch = await h.api('GET', url, token);
    if (batch.status === 'finished') return { seconds: (performance.now() - since) / 1000, batch };
    if (performance.now() - since > 30 * 60_000) throw new Error('the batch did not finish within 30 minutes');
    await sleep(250);
  }
}

export async function batchPhase(h: BenchHarness, dataDir: string, subjectsUrl: string): Promise<[string, string][]> {
  const rows: [string, string][] = [];
  const projectUuid = subjectsUrl.split('/')[3]!;
  const batchesUrl = `/api/projects/${projectUuid}/batches/`;
  h.log('batches: preparing the videos...');
  const longFile = makeGlidingSquareVideo(h.cacheDir);
  const shortFile = makeShortVideo(h.cacheDir);
  let uploaded: { long: string; short: string };
  let protocolUuid: string;
  // Uploaded with two workers, so the clean starts a two-worker run needs are proven once, with the uploads.
  let server = await h.startServer(dataDir, { ANALYSIS_WORKERS: '2' });
  try {
    h.log('batches: uploading a 10-minute and a 2-minute video...');
    const long = await uploadReadyVideo(h, subjectsUrl, longFile, 300_000);
    const short = await uploadReadyVideo(h, subjectsUrl, shortFile, 120_000);
    uploaded = { long: long.video.video_uuid, short: short.video.video_uuid };
    const protocol = await h.api('POST', `/api/projects/${projectUuid}/protocols/`, await h.login(), {
      name: 'Bench batch',
      kind: 'movement_detection',
      parameters: { rois: [{ start_s: 0, x: 0, y: 0, width: 640, height: 480 }] },
    });
    protocolUuid = protocol.protocol_uuid;
  } finally {
    await server.stop();
  }
  h.log('batches: seeding video rows and finished runs (server stopped)...');
  const seeded = await seedRows(dataDir, uploaded, protocolUuid);

  server = await h.startServer(dataDir, { ANALYSIS_WORKERS: '2' });
  try {
    h.log(`batches: creating batches of ${BATCH_VIDEOS} ten-minute videos...`);
    const creations: number[] = [];
    for (let i = 0; i < 3; i++) {
      const token = await h.login();
      const started = performance.now();
      const batch = await h.api('POST', batchesUrl, token, {
        protocol_uuid: protocolUuid,
        video_uuids: seeded.longVideos,
      });
      creations.push(performance.now() - started);
      if (batch.runs.length !== BATCH_VIDEOS) throw new Error(`the batch has ${batch.runs.length} runs`);
      await h.api('POST', `${batchesUrl}${batch.batch_uuid}/stop/`, token);
    }
    rows.push([
      `Batch of ${BATCH_VIDEOS} ten-minute videos (640x480, 18,000 frames each): POST /batches/ wall time (every run checked, stored in one transaction and queued), median of 3 (max)`,
      `${median(creations).toFixed(0)} ms (${Math.max(...creations).toFixed(0)} ms)`,
    ]);
    h.log(`batches: results of a ${RESULT_RUNS}-run batch...`);
    const url = `${batchesUrl}${seeded.resultsBatch}/results/?page_size=1000`;
    const token = await h.login();
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) {
      const started = performance.now();
      const page = await h.api('GET', url, token);
      if (i > 0) answers.push(performance.now() - started);
      if (page.count !== RESULT_RUNS) throw new Error(`the results have ${page.count} rows`);
    }
    rows.push([
      `Results of a ${RESULT_RUNS}-run batch (JSON, wide, all rows: event counts, rates, freezing and 10 bins), median of 5 after one warm-up (max)`,
      `${median(answers).toFixed(0)} ms (${Math.max(...answers).toFixed(0)} ms)`,
    ]);
    const statistics: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      await h.api('GET', `${batchesUrl}${seeded.resultsBatch}/statistics/`, token);
      statistics.push(performance.now() - started);
    }
    rows.push([
      `Statistics of the ${RESULT_RUNS}-run batch (every measure, 2 groups), median of 3`,
      `${median(statistics).toFixed(0)} ms`,
    ]);
    h.log(`batches: the batch page of the ${RESULT_RUNS}-run batch in Chromium...`);
    rows.push(...(await batchPageRows(h, projectUuid, seeded.resultsBatch, RESULT_RUNS)));
  } finally {
    await server.stop();
  }

  const wall: Record<string, number> = {};
  const loads: Record<string, string> = {};
  // Cores kept busy on average: the server's CPU and its ended ffmpeg children's over the batch's wall time.
  const cores: Record<string, number> = {};
  for (const workers of ['1', '2']) {
    server = await h.startServer(dataDir, { ANALYSIS_WORKERS: workers });
    try {
      h.log(`batches: a batch of ${BATCH_VIDEOS} two-minute videos with ANALYSIS_WORKERS=${workers}...`);
      const token = await h.login();
      loads[workers] = os.loadavg()[0]!.toFixed(2);
      const cpuAtStart = cpuSeconds(server.pid, true);
      const started = performance.now();
      const batch = await h.api('POST', batchesUrl, token, {
        protocol_uuid: protocolUuid,
        video_uuids: seeded.shortVideos,
      });
      const done = await waitForBatch(h, `${batchesUrl}${batch.batch_uuid}/`, started);
      if (done.batch.counts.succeeded !== BATCH_VIDEOS) {
        throw new Error(`${done.batch.counts.failed} runs of the batch failed`);
      }
      wall[workers] = done.seconds;
      cores[workers] = (cpuSeconds(server.pid, true) - cpuAtStart) / done.seconds;
    } finally {
      await server.stop();
    }
  }
  rows.push([
    `Batch of ${BATCH_VIDEOS} two-minute videos (640x480, 3,600 frames each, testsrc2; each run one piece), POST to every run succeeded: ANALYSIS_WORKERS=1`,
    `${wall['1']!.toFixed(1)} s; ${cores['1']!.toFixed(2)} of ${os.cpus().length} cores busy on average (server and its ffmpeg decodes), so two workers can at best take ${(cores['1']! / os.cpus().length).toFixed(2)} × this time here (1-min load average at the start ${loads['1']})`,
  ]);
  rows.push([
    'The same batch with ANALYSIS_WORKERS=2 (two runs at once)',
    `${wall['2']!.toFixed(1)} s = ${(wall['2']! / wall['1']!).toFixed(2)} × one worker's (the issue asks ≤ 0.6); ${cores['2']!.toFixed(2)} cores busy on average (load average at the start ${loads['2']})`,
  ]);
  return rows;
}
