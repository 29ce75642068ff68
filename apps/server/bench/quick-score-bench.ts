// The Quick Score rows of `npm run bench` (issue 10): on a 1-hour video with 10,000 events, the time from a press of
// → to the next event's clip starting (its first frame composited), measured inside headless Chromium on the built
// app. bench.ts passes its helpers in (importing bench.ts would run its main).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { uploadReadyVideo } from './bench-uploads.js';
import type { BenchHarness } from './harness.js';

const CLIP = { width: 640, height: 480, fps: 30, seconds: 60 } as const;
const LOOPS = 60;
const FRAMES = CLIP.fps * CLIP.seconds * LOOPS;
const EVENTS = 10_000;
/** The measure the shared player records from a clip's request to its first frame on screen. */
const CLIP_START_MEASURE = 'player-clip-start';
const PRESSES = 60;
const MB = 1024 * 1024;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One minute of a textured scene with a gliding square (a keyframe a second, as the playable copies have), repeated
 * 60 times by stream copy: a 1-hour, 108,000-frame video in the time one minute takes to encode. Cached.
 */
function makeHourVideo(cacheDir: string): string {
  mkdirSync(cacheDir, { recursive: true });
  const hour = path.join(cacheDir, `quick-score-${CLIP.width}x${CLIP.height}-1h.mp4`);
  if (existsSync(hour)) return hour;
  const minute = path.join(cacheDir, `quick-score-${CLIP.width}x${CLIP.height}-60s.mp4`);
  const { width, height, fps, seconds } = CLIP;
  if (!existsSync(minute)) {
    const partial = `${minute}.partial.mp4`;
    execFileSync('ffmpeg', [
      ...['-hide_banner', '-v', 'error', '-y'],
      ...['-f', 'lavfi', '-i', `nullsrc=s=${width}x${height}:r=${fps}:d=${seconds}`],
      ...['-f', 'lavfi', '-i', `color=c=0x101010:s=40x40:r=${fps}:d=${seconds}`],
      '-filter_complex',
      [
        `[0]trim=end_frame=1,geq=lum='128+50*sin(X/6)*cos(Y/9)+30*sin((X+Y)/23)':cb=128:cr=128,format=yuv420p,loop=loop=${fps * seconds - 1}:size=1:start=0,setpts=N/${fps}/TB[bg]`,
        `[bg][1]overlay=x='300+250*sin(t*0.7)':y='220+180*sin(t*1.3)':eval=frame:shortest=1`,
      ].join(';'),
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-g', String(fps), '-pix_fmt', 'yuv420p'],
      ...['-movflags', '+faststart', partial],
    ]);
    renameSync(partial, minute);
  }
  const partial = `${hour}.partial.mp4`;
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-v', 'error', '-y', '-stream_loop', String(LOOPS - 1), '-i', minute],
    ...['-c', 'copy', '-movflags', '+faststart', partial],
  ]);
  renameSync(partial, hour);
  return hour;
}

/** A series of one value per frame with 10,000 spikes about 0.36 s apart: event detection finds each one. */
function spikySeriesCsv(): { csv: string; onsets: number[] } {
  const step = (FRAMES - 60) / EVENTS;
  const onsets = Array.from({ length: EVENTS }, (_, k) => 30 + Math.round(k * step));
  const values = new Array<number>(FRAMES).fill(0);
  for (const onset of onsets) values[onset] = 100;
  return { csv: `value\n${values.join('\n')}\n`, onsets };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/** What the bench reads in the page (the server's TypeScript has no DOM types). */
type PageGlobal = {
  performance: { getEntriesByName(name: string): { duration: number }[] };
  document: { querySelector(selector: string): { textContent: string | null } | null };
};

/** The CLIP_START_MEASURE durations recorded so far. */
const clipStarts = (page: Page) =>
  page.evaluate(
    (name) => (globalThis as unknown as PageGlobal).performance.getEntriesByName(name).map((m) => m.duration),
    CLIP_START_MEASURE,
  );

/** Presses → `presses` times, each after `dwellMs` of the previous clip playing; answers the measured latencies. */
async function pressNext(page: Page, presses: number, dwellMs: number): Promise<number[]> {
  const before = (await clipStarts(page)).length;
  for (let i = 0; i < presses; i++) {
    const count = before + i;
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(
      ([name, n]) => (globalThis as unknown as PageGlobal).performance.getEntriesByName(name as string).length > n,
      [CLIP_START_MEASURE, count] as const,
      { polling: 10, timeout: 10_000 },
    );
    if (dwellMs > 0) await sleep(dwellMs);
  }
  return (await clipStarts(page)).slice(before);
}

/**
 * Measures on `dataDir` (a stopped server's directory with the bench user and its project's subjects) and answers the
 * table rows.
 */
export async function quickScorePhase(
  h: BenchHarness,
  dataDir: string,
  subjectsUrl: string,
  credentials: { email: string; password: string },
): Promise<[string, string][]> {
  const rows: [string, string][] = [];
  h.log('quick score: preparing the 1-hour video...');
  const file = makeHourVideo(h.cacheDir);
  const server = await h.startServer(dataDir);
  try {
    h.log('quick score: uploading it...');
    const { video, videoUrl } = await uploadReadyVideo(h, subjectsUrl, file);

    h.log('quick score: a run with 10,000 events (an imported series)...');
    const { csv, onsets } = spikySeriesCsv();
    const form = new FormData();
    form.append('timeseries', new Blob([csv], { type: 'text/csv' }), 'spikes.csv');
    form.append('parameters', JSON.stringify({ event_threshold: 50, refractory_s: 0.2 }));
    const imported = await fetch(`${new URL(videoUrl, h.baseUrl)}analysis/import_timeseries/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await h.login()}` },
      body: form,
    });
    const run = (await imported.json()) as { analysis_uuid: string; event_count: number };
    if (imported.status !== 201) throw new Error(`import answered ${imported.status}: ${JSON.stringify(run)}`);
    if (run.event_count !== EVENTS || onsets.length !== EVENTS) {
      throw new Error(`the run has ${run.event_count} events, not ${EVENTS}`);
    }
    rows.push([
      'Quick Score bench material: 640x480, 30 fps, 1 hour = 108,000 frames (a keyframe a second), 10,000 events',
      `${(statSync(file).size / MB).toFixed(0)} MB video; events 0.36 s apart`,
    ]);

    const session = await h.api('POST', '/api/auth/login/', undefined, credentials);
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'],
    });
    try {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: h.baseUrl });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto('/auth/login');
      await page.evaluate(
        ({ tokens, project }) => {
          localStorage.setItem('accessToken', tokens.access);
          localStorage.setItem('refreshToken', tokens.refresh);
          localStorage.setItem('activeProjectUuid', project);
        },
        { tokens: session, project: video.project_uuid },
      );
      const opened = performance.now();
      await page.goto(
        `/projects/${video.project_uuid}/quick-score?subject=${video.subject_uuid}&video=${video.video_uuid}&run=${run.analysis_uuid}`,
      );
      await page.waitForFunction(
        () =>
          (globalThis as unknown as PageGlobal).document.querySelector('[data-testid="event-position"]')
            ?.textContent === 'Event 1 of 10,000',
        undefined,
        { polling: 20, timeout: 60_000 },
      );
      // The first clip has played.
      await page.waitForFunction(
        () => {
          const video = (globalThis as unknown as PageGlobal).document.querySelector('[data-testid="video-element"]');
          return ((video as unknown as { played?: { length: number } } | null)?.played?.length ?? 0) > 0;
        },
        undefined,
        { polling: 20, timeout: 30_000 },
      );
      rows.push([
        'Quick Score: open the run (10,000 events) to its first clip playing, headless Chromium',
        `${((performance.now() - opened) / 1000).toFixed(1)} s`,
      ]);
      await sleep(1500);

      h.log('quick score: → presses at a reviewer’s pace...');
      const paced = await pressNext(page, PRESSES, 600);
      rows.push([
        `Quick Score (1-hour video, 10,000 events): → to the next clip's first frame on screen, p50 / p95 / max of ${PRESSES} presses 0.6 s apart, headless Chromium, no GPU (target p95 ≤ 100 ms)`,
        `${percentile(paced, 50).toFixed(0)} ms / ${percentile(paced, 95).toFixed(0)} ms / ${Math.max(...paced).toFixed(0)} ms`,
      ]);
      h.log('quick score: → presses as fast as clips start...');
      const rushed = await pressNext(page, PRESSES, 0);
      rows.push([
        `Quick Score (same): → pressed again as soon as each clip starts (the preload may not be done), p50 / p95 of ${PRESSES}`,
        `${percentile(rushed, 50).toFixed(0)} ms / ${percentile(rushed, 95).toFixed(0)} ms`,
      ]);
      h.log('quick score: ← presses (no preload)...');
      const back: number[] = [];
      for (let i = 0; i < 20; i++) {
        const before = (await clipStarts(page)).length;
        await page.keyboard.press('ArrowLeft');
        await page.waitForFunction(
          ([name, n]) => (globalThis as unknown as PageGlobal).performance.getEntriesByName(name as string).length > n,
          [CLIP_START_MEASURE, before] as const,
          { polling: 10, timeout: 10_000 },
        );
        back.push((await clipStarts(page)).at(-1)!);
        await sleep(600);
      }
      rows.push([
        'Quick Score (same): ← to the previous clip (a seek, nothing preloaded), p50 / p95 of 20 presses 0.6 s apart',
        `${percentile(back, 50).toFixed(0)} ms / ${percentile(back, 95).toFixed(0)} ms`,
      ]);
      if (errors.length > 0) throw new Error(`Quick Score page errors: ${errors.join('; ')}`);
      await context.close();
    } finally {
      await browser.close();
    }
  } finally {
    await server.stop();
  }
  return rows;
}
