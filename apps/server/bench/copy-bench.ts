// The playback-copy rows of `npm run bench` (issue 9): a 10-minute 640x480 MJPEG AVI — how long after the upload's
// last byte a run can start (the video is analysable before its copy exists), and the copy's wall time with one
// and with two workers (pieces of PLAYBACK_PIECE_SECONDS, joined). bench.ts passes its helpers in.
import { execFileSync } from 'node:child_process';
import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { FRAMES, makeGlidingSquareVideo } from './analysis-bench.js';
import type { BenchHarness } from './harness.js';

const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A multipart upload that notes when its last byte left (the request's `finish`) and when the answer came.
 * Times are performance.now() milliseconds.
 */
function upload(baseUrl: string, url: string, token: string, file: string) {
  const boundary = `copybench${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${path.basename(file)}"\r\nContent-Type: video/x-msvideo\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = statSync(file).size;
  return new Promise<{ status: number; body: string; sentAt: number; answeredAt: number }>((resolve, reject) => {
    let sentAt = 0;
    const request = http.request(`${baseUrl}${url}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + size + tail.length,
      },
    });
    request.on('error', reject);
    request.on('finish', () => {
      sentAt = performance.now();
    });
    request.on('response', (response) => {
      let body = '';
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body,
          sentAt: sentAt || performance.now(),
          answeredAt: performance.now(),
        }),
      );
    });
    request.write(head);
    const stream = createReadStream(file, { highWaterMark: 4 * MB });
    stream.on('error', reject);
    stream.pipe(request, { end: false });
    stream.on('end', () => request.end(tail));
  });
}

async function videosUrlOf(h: BenchHarness, subjectsUrl: string, access: string) {
  const subject = (await h.api('GET', `${subjectsUrl}?page_size=1`, access)).results[0];
  return `${subjectsUrl}${subject.subject_uuid}/videos/`;
}

/** Uploads the AVI and polls (200 ms) until its copy is ready: seconds from the upload's answer to then. */
async function copySeconds(h: BenchHarness, subjectsUrl: string, file: string) {
  const access = await h.login();
  const videosUrl = await videosUrlOf(h, subjectsUrl, access);
  const sent = await upload(h.baseUrl, videosUrl, access, file);
  if (sent.status !== 201) throw new Error(`upload answered ${sent.status}: ${sent.body}`);
  const videoUrl = `${videosUrl}${JSON.parse(sent.body).video_uuid}/`;
  let token = access;
  let tokenAt = performance.now();
  let makingSeenAt = 0;
  for (;;) {
    if (performance.now() - tokenAt > 120_000) {
      token = await h.login();
      tokenAt = performance.now();
    }
    const video = await h.api('GET', videoUrl, token);
    const state = video.playback_copy.state as string;
    if (state === 'making' && !makingSeenAt) makingSeenAt = performance.now();
    if (state === 'ready') {
      const now = performance.now();
      return {
        total: (now - sent.answeredAt) / 1000,
        pieces: (now - (makingSeenAt || sent.answeredAt)) / 1000,
      };
    }
    if (state === 'failed') throw new Error(`the playback copy failed: ${video.playback_copy.error}`);
    if (performance.now() - sent.answeredAt > 30 * 60_000) throw new Error('no playback copy within 30 minutes');
    await sleep(200);
  }
}

/** Uploads the AVI, asks for a run at once and polls (50 ms) until it runs; the run is then revoked. */
async function analysableSeconds(h: BenchHarness, subjectsUrl: string, file: string) {
  const access = await h.login();
  const videosUrl = await videosUrlOf(h, subjectsUrl, access);
  const sent = await upload(h.baseUrl, videosUrl, access, file);
  if (sent.status !== 201) throw new Error(`upload answered ${sent.status}: ${sent.body}`);
  const video = JSON.parse(sent.body);
  const analysisUrl = `${videosUrl}${video.video_uuid}/analysis/`;
  const run = await h.api('POST', analysisUrl, access, { kind: 'movement_detection', parameters: {} });
  const acceptedAt = performance.now();
  for (;;) {
    const state = await h.api('GET', `${analysisUrl}${run.analysis_uuid}/`, access);
    if (state.status === 'running' || state.status === 'succeeded') break;
    if (state.status === 'failed') throw new Error(`the run failed: ${state.error}`);
    if (performance.now() - acceptedAt > 120_000) throw new Error('the run did not start within 2 minutes');
    await sleep(50);
  }
  const runningAt = performance.now();
  const copyState = (await h.api('GET', `${videosUrl}${video.video_uuid}/`, access)).playback_copy.state;
  await h.api('POST', `${analysisUrl}${run.analysis_uuid}/revoke/`, access).catch(() => undefined);
  return {
    probe: (sent.answeredAt - sent.sentAt) / 1000,
    accepted: (acceptedAt - sent.sentAt) / 1000,
    running: (runningAt - sent.sentAt) / 1000,
    copyState,
  };
}

export async function copyPhase(h: BenchHarness, dataDir: string, subjectsUrl: string): Promise<[string, string][]> {
  const rows: [string, string][] = [];
  h.log('copy: preparing the 10-minute 640x480 MJPEG AVI...');
  const file = makeGlidingSquareVideo(h.cacheDir, 'mjpeg');
  rows.push([
    'Playback-copy video: MJPEG in AVI, 640x480, 30 fps, 10 min = 18,000 frames (static texture + a moving square)',
    `${(statSync(file).size / MB).toFixed(0)} MB; 1-min load average at the start ${os.loadavg()[0]!.toFixed(2)}`,
  ]);
  const times: Record<number, { total: number; pieces: number }> = {};
  // A worker here is one core: the server (and the ffmpeg it starts, which inherits the affinity) is pinned to as
  // many cores as it has workers, as a worker machine would bring its own. libx264 alone fills every core it is
  // given, so on an unpinned 2-core machine a second worker has no core to add.
  const cores = os.availableParallelism();
  for (const workers of [1, 2]) {
    const server = await h.startServer(dataDir, { ANALYSIS_WORKERS: String(workers) });
    const pinned = cores >= workers ? Array.from({ length: workers }, (_, i) => i).join(',') : null;
    if (pinned) execFileSync('taskset', ['-a', '-p', '-c', pinned, String(server.pid)], { stdio: 'ignore' });
    try {
      h.log(`copy: upload and playback copy with ${workers} worker(s)...`);
      times[workers] = await copySeconds(h, subjectsUrl, file);
      rows.push([
        `Playback copy, ${workers} worker(s) (ANALYSIS_WORKERS=${workers}, ${pinned ? `server pinned to core(s) ${pinned}` : 'not pinned'}; pieces of 300 s at keyframes, libx264 veryfast, joined with -c copy and checked): upload answered → copy ready / pieces made and joined`,
        `${times[workers]!.total.toFixed(1)} s / ${times[workers]!.pieces.toFixed(1)} s = ${Math.round(FRAMES / times[workers]!.pieces)} frames/s`,
      ]);
      if (workers === 2) {
        h.log('copy: time until a run can start...');
        const analysable = await analysableSeconds(h, subjectsUrl, file);
        rows.push([
          'MJPEG AVI above, ANALYSIS_WORKERS=2: upload’s last byte sent → upload answered (stored, probed) / run accepted (POST analysis) / run running',
          `${analysable.probe.toFixed(2)} s / ${analysable.accepted.toFixed(2)} s / ${analysable.running.toFixed(2)} s (the copy was then "${analysable.copyState}")`,
        ]);
      }
    } finally {
      await server.stop();
    }
  }
  rows.push([
    'Playback copy: 1 worker ÷ 2 workers (pieces made and joined)',
    `${(times[1]!.pieces / times[2]!.pieces).toFixed(2)} ×`,
  ]);
  return rows;
}
