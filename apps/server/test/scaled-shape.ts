import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { resolveMediaBinaries } from '../src/adapters/media/binaries.js';
import { analysisSegments } from '../src/db/schema.js';
import { createUser } from './factories.js';
import { createProjectWithSubject, uploadVideo, waitForVideo } from './factories-videos.js';
import { createTestApp } from './test-app.js';

/**
 * Helpers for the scaled-shape test (scaled-shape.pg.test.ts): the processes a user starts from the README, each in
 * its own process group so a SIGKILL takes the whole machine's share down at once (npm, the server, its ffmpeg).
 */

export const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** What `npm start` and `npm run worker` build when stale, built once before any process starts. */
export function buildLikeStart(): void {
  const result = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "const m = await import('./scripts/build-if-stale.mjs'); m.buildServerIfStale(); m.buildWebIfStale();",
    ],
    { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (result.status !== 0) throw new Error('building the server and web app failed');
}

export interface LogLine {
  msg?: string;
  pid?: number;
  hostname?: string;
  job?: string;
  jobId?: string;
  [key: string]: unknown;
}

/** One `npm start` or `npm run worker`, its JSON log lines, and how to kill it like a machine dying. */
export class AppProcess {
  readonly child: ChildProcess;
  readonly lines: LogLine[] = [];
  readonly exited: Promise<void>;
  private buffer = '';

  constructor(
    readonly name: string,
    command: 'start' | 'worker',
    env: NodeJS.ProcessEnv,
  ) {
    this.child = spawn('npm', command === 'start' ? ['start'] : ['run', 'worker'], {
      cwd: repoRoot,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
    this.child.stdout!.on('data', (chunk: Buffer) => this.take(chunk));
    // npm's own lines and build messages; kept for a failure's report.
    this.child.stderr!.on('data', (chunk: Buffer) => this.take(chunk));
  }

  private take(chunk: Buffer) {
    this.buffer += chunk.toString();
    let newline = this.buffer.indexOf('\n');
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      try {
        this.lines.push(JSON.parse(line) as LogLine);
      } catch {
        this.lines.push({ text: line });
      }
      newline = this.buffer.indexOf('\n');
    }
  }

  /** The first log line that `match` accepts, waiting up to `timeoutMs`. */
  async waitFor(match: (line: LogLine) => boolean, timeoutMs: number, from = 0): Promise<LogLine> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.lines.slice(from).find(match);
      if (found) return found;
      if (Date.now() > deadline || this.child.exitCode !== null) {
        throw new Error(`${this.name}: no matching log line; last lines:\n${this.tail()}`);
      }
      await sleep(50);
    }
  }

  /** The server's `host:pid`, as job and segment records name it (from its "ready" line). */
  async workerId(): Promise<string> {
    const ready = await this.waitFor((l) => l.msg === 'worker ready' || l.msg === 'server ready', 90_000);
    return `${ready.hostname}:${ready.pid}`;
  }

  tail(count = 15): string {
    return this.lines
      .slice(-count)
      .map((l) => JSON.stringify(l))
      .join('\n');
  }

  /** Command lines of the processes in this process group (the server's ffmpeg among them). */
  groupCommands(): string[] {
    const out = spawnSync('ps', ['-o', 'args=', '-g', String(this.child.pid)], { encoding: 'utf8' });
    return out.stdout.split('\n').filter(Boolean);
  }

  /** SIGKILL to the whole group: nothing runs on, nothing is told. */
  killHard(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      try {
        process.kill(-this.child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `read` until `done` holds (returns the value) or `timeoutMs` passes (throws with the last value). */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value: ${JSON.stringify(value)}`);
    await sleep(intervalMs);
  }
}

export async function waitForHealth(url: string, timeoutMs: number): Promise<void> {
  await pollUntil(
    () =>
      fetch(`${url}/api/health/`).then(
        (r) => r.ok,
        () => false,
      ),
    (ok) => ok,
    timeoutMs,
    200,
  );
}

/** Test videos made with ffmpeg once per machine (cached in .tmp/fixtures, like the other fixtures). */
export function scaledFixtures(): { longMp4: string; mjpegAvi: string } {
  const dir = path.resolve(import.meta.dirname, '../.tmp/fixtures/scaled-v2');
  mkdirSync(dir, { recursive: true });
  const { ffmpeg } = resolveMediaBinaries(dir);
  const make = (file: string, args: string[]) => {
    if (existsSync(file)) return;
    const partial = `${file}.${process.pid}.partial${path.extname(file)}`;
    execFileSync(ffmpeg, ['-hide_banner', '-v', 'error', '-y', ...args, partial]);
    renameSync(partial, file);
  };
  const longMp4 = path.join(dir, 'jumps-160x120-600s.mp4');
  // Ten minutes, small so that decoding is quick: a still texture (computed once, repeated) where a dark square
  // jumps between two places every 2.5 s — 239 movements to detect.
  make(longMp4, [
    ...['-f', 'lavfi', '-i', 'nullsrc=s=160x120:r=25:d=600'],
    ...['-f', 'lavfi', '-i', 'color=c=0x101010:s=20x20:r=25:d=600'],
    '-filter_complex',
    [
      "[0]trim=end_frame=1,geq=lum='128+50*sin(X/6)*cos(Y/9)+30*sin((X+Y)/23)':cb=128:cr=128,format=yuv420p,loop=loop=14999:size=1:start=0,setpts=N/25/TB[bg]",
      "[bg][1]overlay=x='if(lt(mod(t,5),2.5),20,90)':y=50:eval=frame:shortest=1",
    ].join(';'),
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '23', '-pix_fmt', 'yuv420p', '-f', 'mp4'],
  ]);
  const mjpegAvi = path.join(dir, 'testsrc2-mjpeg-320x240-60s.avi');
  // MJPEG needs a playback copy: a minute takes a worker a few seconds, long enough to kill it meanwhile.
  make(mjpegAvi, [
    ...['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25:duration=60'],
    ...['-c:v', 'mjpeg', '-q:v', '12', '-pix_fmt', 'yuvj420p', '-f', 'avi'],
  ]);
  return { longMp4, mjpegAvi };
}

export interface RunResult {
  run: Record<string, unknown> & { status: string; summary: Record<string, unknown> | null };
  series: Buffer;
  events: unknown[];
}

/** What must be equal between two runs of the same parameters on the same video (timings aside). */
export function comparable(result: RunResult) {
  const { frames_per_second: _, ...summary } = result.run.summary ?? {};
  return { summary, events: result.events, seriesHash: createHash('sha256').update(result.series).digest('hex') };
}

/** The events as compared: ids and times. */
export function eventTimes(events: { id: number; time: number; original_time: number }[]) {
  return events.map((e) => ({ id: e.id, time: e.time, original_time: e.original_time }));
}

/**
 * A movement-detection run of `file` in one process (in-process workers, local storage, its own database) with
 * segments longer than the video: one pass over every frame.
 */
export async function singlePassRun(
  file: string,
  parameters: object,
): Promise<{ result: RunResult; segments: number }> {
  const single = await createTestApp({ workers: true, config: { analysisWorkers: 1, analysisSegmentSeconds: 10_000 } });
  try {
    const owner = await createUser(single.ctx);
    const project = await createProjectWithSubject(single.ctx, owner);
    const uploaded = await uploadVideo(single.app, owner, project.videosUrl, file);
    const videoUrl = `${project.videosUrl}${uploaded.json().video_uuid}/`;
    const video = await waitForVideo(single.app, owner, videoUrl, undefined, 60_000);
    if (video.status !== 'ready') throw new Error(`single pass: the video is ${video.status}`);
    const get = (url: string) => single.app.inject({ method: 'GET', url, headers: owner.headers });
    const created = await single.app.inject({
      method: 'POST',
      url: `${videoUrl}analysis/`,
      headers: owner.headers,
      payload: { kind: 'movement_detection', parameters },
    });
    const uuid = created.json().analysis_uuid;
    const runUrl = `${videoUrl}analysis/${uuid}/`;
    const run = await pollUntil(
      async () => (await get(runUrl)).json(),
      (r) => r.status !== 'queued' && r.status !== 'running',
      120_000,
    );
    if (run.status !== 'succeeded') throw new Error(`single pass: the run ${run.status}: ${run.error}`);
    const segments = await single.ctx.db.select().from(analysisSegments).where(eq(analysisSegments.analysisUuid, uuid));
    return {
      result: {
        run,
        series: (await get(`${runUrl}series/?part=values`)).rawPayload,
        events: eventTimes((await get(`${videoUrl}analysis/retrieve-events/?analysis_uuid=${uuid}`)).json().events),
      },
      segments: segments.length,
    };
  } finally {
    await single.close();
  }
}
