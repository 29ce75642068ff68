// The analysis rows of `npm run bench` (issue 4): ffmpeg's own gray decode rate on a 10-minute 640x480 video,
// movement detection end to end through the API and the job system with one and two workers, location tracking
// (issue 22) with both algorithms, memory, and preview latency.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { IntensityCounter, type IntensityParameters } from '../src/modules/analysis/engine/intensity.js';
import { uploadReadyVideo } from './bench-uploads.js';
import type { BenchHarness } from './harness.js';
import { locationRows } from './location-bench.js';
import {
  FRAMES,
  measurePairs,
  measureRun,
  median,
  pairedMeasureRows,
  quietMachine,
  type RunMeasure,
  rate,
  runMeasureRows,
  VIDEO,
} from './run-measure.js';

export { FRAMES, VIDEO };

const QUARTER_ROI = { start_s: 0, x: 160, y: 120, width: 320, height: 240 };
const MB = 1024 * 1024;

/**
 * A static textured scene with a dark square gliding over it, 18,000 frames (10 min of 640x480 at 30 fps): H.264 MP4
 * for the analysis rows, MJPEG AVI (every frame a JPEG) for the playback-copy rows. The texture is computed once on one
 * frame (geq is slow) and looped, so generating takes well under a minute; cached in the bench directory.
 */
export function makeGlidingSquareVideo(cacheDir: string, codec: 'h264' | 'mjpeg' = 'h264'): string {
  mkdirSync(cacheDir, { recursive: true });
  const extension = codec === 'h264' ? 'mp4' : 'avi';
  const name = codec === 'h264' ? 'analysis' : 'copy-mjpeg';
  const file = path.join(cacheDir, `${name}-${VIDEO.width}x${VIDEO.height}-${VIDEO.seconds}s.${extension}`);
  if (existsSync(file)) return file;
  const { width, height, fps, seconds } = VIDEO;
  const partial = `${file}.partial.${extension}`;
  const encode =
    codec === 'h264'
      ? [
          ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-g', '250', '-pix_fmt', 'yuv420p'],
          ...['-movflags', '+faststart'],
        ]
      : ['-c:v', 'mjpeg', '-q:v', '6', '-pix_fmt', 'yuvj420p', '-f', 'avi'];
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-v', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `nullsrc=s=${width}x${height}:r=${fps}:d=${seconds}`],
    ...['-f', 'lavfi', '-i', `color=c=0x101010:s=40x40:r=${fps}:d=${seconds}`],
    '-filter_complex',
    [
      `[0]trim=end_frame=1,geq=lum='128+50*sin(X/6)*cos(Y/9)+30*sin((X+Y)/23)':cb=128:cr=128,format=yuv420p,loop=loop=${FRAMES - 1}:size=1:start=0,setpts=N/${fps}/TB[bg]`,
      `[bg][1]overlay=x='300+250*sin(t*0.7)':y='220+180*sin(t*1.3)':eval=frame:shortest=1`,
    ].join(';'),
    ...encode,
    partial,
  ]);
  renameSync(partial, file);
  return file;
}

/** Wall seconds of one ffmpeg decode with its frames thrown away (stdout to /dev/null). */
function timeDecode(args: string[]): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', args, { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve((performance.now() - started) / 1000) : reject(new Error(`ffmpeg exited with ${code}`)),
    );
  });
}

async function bestDecodeRate(args: string[]): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 2; i++) best = Math.min(best, await timeDecode(args));
  return FRAMES / best;
}

/**
 * The counting kernel alone (no decode, no pipe): the first 300 frames of the video's Y plane are decoded once into
 * memory and pushed through an IntensityCounter in a loop, as the engine does (limited-range mapping included).
 * Frames per second of this process's CPU time (so a busy machine slows the figure little), best of 3 rounds of
 * 3,000 frames.
 */
function counterRate(file: string, parameters: IntensityParameters): number {
  const { width, height } = VIDEO;
  const frameBytes = width * height;
  const frames = execFileSync(
    'ffmpeg',
    ['-hide_banner', '-v', 'error', '-i', file, '-frames:v', '300', '-vf', 'extractplanes=y', '-f', 'rawvideo', '-'],
    { maxBuffer: 300 * frameBytes + 1 },
  );
  const count = frames.length / frameBytes;
  const counter = new IntensityCounter(width, height, parameters, true);
  const whole = { x: 0, y: 0, width, height };
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    const started = process.cpuUsage();
    for (let i = 0; i < 3000; i++) {
      const at = (i % count) * frameBytes;
      counter.frame.set(frames.subarray(at, at + frameBytes));
      counter.push(counter.frame, whole);
    }
    const used = process.cpuUsage(started);
    best = Math.min(best, (used.user + used.system) / 1e6);
  }
  return 3000 / best;
}

interface VideoUrls {
  videoUrl: string;
  analysisUrl: string;
}

/**
 * Pairs behind each movement target row. With three, two disturbed pairs on one side decide the median (one run's
 * pairs went 2.55, 1.39 and 1.75 ×, and the row's median moved by 0.5 × between runs minutes apart on one machine);
 * with five it takes three, about half as likely when one pair in five is disturbed. ~40 s more a row.
 */
const TARGET_PAIRS = 5;

/** Issue 21's target row: movement detection with 2 workers, TARGET_PAIRS runs each paired with a reference decode. */
async function twoWorkerRows(
  h: BenchHarness,
  server: Awaited<ReturnType<BenchHarness['startServer']>>,
  analysisUrl: string,
  grayReferenceSeconds: () => Promise<number>,
) {
  h.log(`analysis: movement detection with 2 workers, ${TARGET_PAIRS} runs each paired with a reference decode...`);
  const twoWorkers = await measurePairs(TARGET_PAIRS, grayReferenceSeconds, () =>
    measureRun(h, server, analysisUrl, {}),
  );
  return pairedMeasureRows(
    'Movement detection end to end, ANALYSIS_WORKERS=2, whole frame',
    ' (target ≥ 1.6 × ffmpeg gray)',
    twoWorkers,
  );
}

/**
 * Measures on `dataDir` (a stopped server's directory with the bench user and its project's subjects) and
 * answers the table rows.
 */
export async function analysisPhase(
  h: BenchHarness,
  dataDir: string,
  subjectsUrl: string,
  options: { locationOnly?: boolean; movementOnly?: boolean } = {},
): Promise<[string, string][]> {
  const rows: [string, string][] = [];
  h.log('analysis: preparing the 10-minute 640x480 video...');
  const file = makeGlidingSquareVideo(h.cacheDir);
  const load = await quietMachine(h);
  rows.push([
    'Analysis video (all analysis rows): 640x480, 30 fps, 10 min = 18,000 frames, H.264 veryfast crf 23, static texture + a moving square',
    `${(statSync(file).size / MB).toFixed(1)} MB; 1-min load average at the start of the phase ${load.toFixed(2)}`,
  ]);

  h.log('analysis: ffmpeg decode rates...');
  const decodeInput = ['-hide_banner', '-nostdin', '-v', 'error', '-i', file];
  const grayArgs = [...decodeInput, '-f', 'rawvideo', '-pix_fmt', 'gray', '-'];
  const grayRate = await bestDecodeRate(grayArgs);
  // The target rows time this decode again right before each of their runs (measurePairs).
  const grayReferenceSeconds = () => timeDecode(grayArgs);
  const lumaRate = await bestDecodeRate([
    ...decodeInput,
    ...['-vf', 'extractplanes=y', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'],
  ]);
  rows.push(['ffmpeg alone: decode to gray (`-f rawvideo -pix_fmt gray`, null sink), best of 2', rate(grayRate)]);
  rows.push([
    'ffmpeg alone: decode the Y plane (`-vf extractplanes=y`, what the engine reads), best of 2',
    rate(lumaRate),
  ]);

  if (options.locationOnly) {
    const server = await h.startServer(dataDir, { ANALYSIS_WORKERS: '2' });
    try {
      h.log('analysis: uploading the video...');
      const { videoUrl } = await uploadReadyVideo(h, subjectsUrl, file, 120_000);
      rows.push(
        ...(await locationRows(
          h,
          server,
          { analysisUrl: `${videoUrl}analysis/`, dataDir },
          grayRate,
          grayReferenceSeconds,
        )),
      );
    } finally {
      await server.stop();
    }
    return rows;
  }

  if (options.movementOnly) {
    const server = await h.startServer(dataDir, { ANALYSIS_WORKERS: '2' });
    try {
      h.log('analysis: uploading the video...');
      const { videoUrl } = await uploadReadyVideo(h, subjectsUrl, file, 120_000);
      rows.push(...(await twoWorkerRows(h, server, `${videoUrl}analysis/`, grayReferenceSeconds)));
    } finally {
      await server.stop();
    }
    return rows;
  }

  h.log('analysis: the counting kernel alone...');
  const plain = { threshold: 20, opening: 0, closing: 0, small_object_removal: 0 };
  rows.push([
    'Counting kernel alone (IntensityCounter, WebAssembly SIMD, one thread, frames in memory, per CPU second): 640x480, threshold 20 / with opening 3, closing 3, small-object removal 20 px',
    `${rate(counterRate(file, plain))} / ${rate(counterRate(file, { ...plain, opening: 3, closing: 3, small_object_removal: 20 }))}`,
  ]);

  const runRows = (label: string, target: string, run: RunMeasure) =>
    rows.push(...runMeasureRows(label, target, run, grayRate, lumaRate));

  // One worker: the segments (300 s each) run one after the other.
  let urls: VideoUrls;
  let server = await h.startServer(dataDir, { ANALYSIS_WORKERS: '1' });
  try {
    h.log('analysis: uploading the video...');
    const { videoUrl } = await uploadReadyVideo(h, subjectsUrl, file, 120_000);
    urls = { videoUrl, analysisUrl: `${videoUrl}analysis/` };
    h.log(`analysis: movement detection with 1 worker, ${TARGET_PAIRS} runs each paired with a reference decode...`);
    const oneWorker = await measurePairs(TARGET_PAIRS, grayReferenceSeconds, () =>
      measureRun(h, server, urls.analysisUrl, {}),
    );
    rows.push(
      ...pairedMeasureRows(
        'Movement detection end to end, ANALYSIS_WORKERS=1, whole frame',
        ' (target ≥ 0.9 × ffmpeg gray)',
        oneWorker,
      ),
    );
  } finally {
    await server.stop();
  }

  server = await h.startServer(dataDir, { ANALYSIS_WORKERS: '2' });
  try {
    rows.push(...(await twoWorkerRows(h, server, urls.analysisUrl, grayReferenceSeconds)));
    h.log('analysis: movement detection with 2 workers and a quarter-picture ROI...');
    runRows(
      'Movement detection end to end, ANALYSIS_WORKERS=2, one ROI of a quarter of the picture (320x240, decode cropped)',
      '',
      await measureRun(h, server, urls.analysisUrl, { rois: [QUARTER_ROI] }),
    );
    h.log('analysis: movement detection with 2 workers, opening, closing and small-object removal...');
    runRows(
      'Movement detection end to end, ANALYSIS_WORKERS=2, whole frame with opening 3, closing 3, small-object removal 20 px',
      '',
      await measureRun(h, server, urls.analysisUrl, { opening: 3, closing: 3, small_object_removal: 20 }),
    );

    rows.push(
      ...(await locationRows(h, server, { analysisUrl: urls.analysisUrl, dataDir }, grayRate, grayReferenceSeconds)),
    );

    h.log('analysis: previews...');
    const walls: number[] = [];
    const elapsed: number[] = [];
    const access = await h.login();
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const preview = await h.api('POST', `${urls.analysisUrl}create-preview/`, access, {
        parameters: {},
        start_s: 60,
        length_s: 3,
      });
      walls.push(performance.now() - started);
      elapsed.push(preview.elapsed_ms);
      if (preview.values.length !== 3 * VIDEO.fps) throw new Error(`the preview had ${preview.values.length} values`);
    }
    rows.push([
      'Preview (create-preview/, 3 s of 640x480 from 60 s, 5 requests one after another): wall time p50 / max (target ≤ 2 s)',
      `${median(walls).toFixed(0)} ms / ${Math.max(...walls).toFixed(0)} ms (server's elapsed_ms ${median(elapsed).toFixed(0)} / ${Math.max(...elapsed).toFixed(0)} ms)`,
    ]);
  } finally {
    await server.stop();
  }
  return rows;
}
