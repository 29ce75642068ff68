// The agreement rows of `npm run bench` (issue 13): a calibration sweep of 100 settings over a 1-hour, 30 fps series
// through the HTTP API, answered in ≤ 200 ms of server time; a freezing sweep and an agreement of a 1-hour video beside
// it. bench.ts passes its helpers in.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { uploadReadyVideo } from './bench-uploads.js';
import type { BenchHarness } from './harness.js';

const FPS = 30;
const SECONDS = 3600;
const FRAMES = FPS * SECONDS;
const REQUESTS = 10;

/** A 1-hour, 30 fps, 160×120 H.264 video: 10 s encoded once and looped by stream copy (seconds to make). */
export function makeHourVideo(cacheDir: string): string {
  mkdirSync(cacheDir, { recursive: true });
  const file = path.join(cacheDir, 'agreement-160x120-3600s.mp4');
  if (existsSync(file)) return file;
  const chunk = path.join(cacheDir, 'agreement-160x120-10s.mp4');
  const run = (args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...args]);
  run([
    ...['-f', 'lavfi', '-i', `testsrc2=s=160x120:r=${FPS}:d=10`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '300', '-pix_fmt', 'yuv420p', chunk],
  ]);
  const partial = `${file}.partial.mp4`;
  run([
    '-stream_loop',
    String(SECONDS / 10 - 1),
    '-i',
    chunk,
    '-c',
    'copy',
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    partial,
  ]);
  renameSync(partial, file);
  return file;
}

/**
 * A motion-like series: noise 0–200 every frame, with 500 bursts (5 frames of 1,500–4,500) at irregular times; the
 * reference is the bursts' onsets with up to ±50 ms of scorer jitter. Deterministic.
 */
function syntheticSeries() {
  let seed = 12345;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const values = Float64Array.from({ length: FRAMES }, () => Math.round(random() * 200));
  const reference: number[] = [];
  const bouts: [number, number][] = [];
  for (let t = 3; reference.length < 500 && t < SECONDS - 10; t += 4 + random() * 6) {
    const frame = Math.round(t * FPS);
    for (let k = 0; k < 5; k++) values[frame + k] = 1500 + Math.round(random() * 3000);
    reference.push(Math.round((frame / FPS + (random() - 0.5) * 0.1) * 1000) / 1000);
    bouts.push([frame / FPS, (frame + 30) / FPS]);
  }
  return { values, reference, bouts };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${value.toFixed(0)} ms`;

async function importSeries(h: BenchHarness, analysisUrl: string, values: Float64Array): Promise<string> {
  const form = new FormData();
  form.set('timeseries', new Blob([`value\n${Array.from(values).join('\n')}\n`], { type: 'text/csv' }), 'series.csv');
  const response = await fetch(`${h.baseUrl}${analysisUrl}import_timeseries/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await h.login()}` },
    body: form,
  });
  const body = (await response.json()) as { analysis_uuid: string };
  if (response.status !== 201) throw new Error(`import answered ${response.status}: ${JSON.stringify(body)}`);
  return body.analysis_uuid;
}

/** `count` requests one after another: the server's own elapsed_ms and the client's wall time of each. */
async function timeRequests(
  h: BenchHarness,
  url: string,
  body: object,
  count: number,
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers of the API, read field by field
  check: (answer: any) => void,
) {
  const server: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < count; i++) {
    const access = await h.login();
    const started = performance.now();
    const answer = await h.api('POST', url, access, body);
    wall.push(performance.now() - started);
    server.push(answer.elapsed_ms);
    check(answer);
  }
  return { server, wall };
}

export async function agreementPhase(
  h: BenchHarness,
  dataDir: string,
  subjectsUrl: string,
): Promise<[string, string][]> {
  const rows: [string, string][] = [];
  h.log('agreement: preparing the 1-hour video...');
  const file = makeHourVideo(h.cacheDir);
  const server = await h.startServer(dataDir);
  try {
    h.log('agreement: uploading it...');
    const { video, videoUrl } = await uploadReadyVideo(h, subjectsUrl, file, 120_000);
    if (video.frame_count !== FRAMES) throw new Error(`the hour video has ${video.frame_count} frames`);
    const analysisUrl = `${videoUrl}analysis/`;
    const { values, reference, bouts } = syntheticSeries();
    h.log('agreement: importing the 1-hour series...');
    const run = await importSeries(h, analysisUrl, values);

    h.log('agreement: calibration sweeps...');
    const eventSweep = {
      reference: { kind: 'upload', events: reference },
      target: 'events',
      k: { from: 1, to: 10, step: 0.375 },
      refractory_s: [0.25, 0.5, 1, 2],
    };
    const events = await timeRequests(h, `${analysisUrl}${run}/calibrate/`, eventSweep, REQUESTS, (answer) => {
      if (answer.points.length !== 100) throw new Error(`the sweep had ${answer.points.length} settings`);
      if (answer.points[answer.best.index].f1 !== 1) throw new Error('the sweep missed the planted events');
    });
    const [firstServer, ...restServer] = events.server;
    const [firstWall, ...restWall] = events.wall;
    rows.push([
      `Calibration sweep (calibrate/, events): 100 settings (25 k × 4 refractory periods) over a 1-hour, 30 fps series (${FRAMES.toLocaleString('en-US')} values) against 500 reference events, ${REQUESTS} requests one after another: server time (elapsed_ms) p50 / max of requests 2–${REQUESTS} (target ≤ 200 ms); wall time p50 / max`,
      `${ms(median(restServer))} / ${ms(Math.max(...restServer))}; wall ${ms(median(restWall))} / ${ms(Math.max(...restWall))}`,
    ]);
    rows.push([
      'Calibration sweep, the first request after a server start (the agreement thread is started and warmed as the server starts): server time / wall time',
      `${ms(firstServer!)} / ${ms(firstWall!)}`,
    ]);

    const freezingSweep = {
      reference: { kind: 'upload', ranges: bouts },
      target: 'freezing',
      freeze_threshold: { from: 0, to: 400, step: 20 },
      min_freeze_s: [0.5, 1, 2, 3, 5],
      bin_s: 60,
    };
    const freezing = await timeRequests(h, `${analysisUrl}${run}/calibrate/`, freezingSweep, REQUESTS, (answer) => {
      if (answer.points.length !== 105) throw new Error(`the freezing sweep had ${answer.points.length} settings`);
    });
    rows.push([
      `Calibration sweep (calibrate/, freezing): 105 settings (21 thresholds × 5 minimum durations) over the same series against 500 reference bouts, 60 s bins, ${REQUESTS} requests: server time p50 / max`,
      `${ms(median(freezing.server))} / ${ms(Math.max(...freezing.server))}`,
    ]);

    h.log('agreement: comparisons...');
    const shifted = bouts.map(([start, end]): [number, number] => [start + 0.1, end + 0.1]);
    const comparison = {
      reference: { kind: 'upload', ranges: bouts },
      candidate: { kind: 'upload', ranges: shifted },
    };
    const agreement = await timeRequests(h, `${videoUrl}agreement/`, comparison, REQUESTS, (answer) => {
      if (answer.intervals.slices !== FRAMES || answer.events.tp !== bouts.length) {
        throw new Error('the agreement answer is not what the scorings give');
      }
    });
    rows.push([
      `Agreement (agreement/), 1-hour video: 500 bouts against 500 bouts, events and ${FRAMES.toLocaleString('en-US')} frames, ${REQUESTS} requests: server time p50 / max`,
      `${ms(median(agreement.server))} / ${ms(Math.max(...agreement.server))}`,
    ]);
  } finally {
    await server.stop();
  }
  return rows;
}
