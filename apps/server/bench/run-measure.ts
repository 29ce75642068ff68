// What the analysis rows of `npm run bench` measure of one run through the API: wall time, the server's CPU and
// memory, and its ffmpeg children's peak memory (shared by analysis-bench.ts and location-bench.ts); and the wait for
// a quiet machine that timed rows start with.
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import type { BenchHarness } from './harness.js';

export const VIDEO = { width: 640, height: 480, fps: 30, seconds: 600 } as const;
export const FRAMES = VIDEO.fps * VIDEO.seconds;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
export const rate = (framesPerSecond: number) => `${Math.round(framesPerSecond)} frames/s`;

/** Waits (at most a minute) for the 1-minute load average to fall below 1.5; answers the load it measured at. */
export async function quietMachine(h: BenchHarness): Promise<number> {
  const started = performance.now();
  while (os.loadavg()[0]! >= 1.5 && performance.now() - started < 60_000) {
    h.log(`load average ${os.loadavg()[0]!.toFixed(2)}: waiting for the machine to quieten...`);
    await sleep(10_000);
  }
  return os.loadavg()[0]!;
}

/** Summed RSS (MB) of the ffmpeg processes whose parent is `pid` (worker threads spawn them from the server). */
function ffmpegChildrenRssMb(pid: number): number {
  let kb = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name is in parentheses and may hold spaces; the parent pid is the second field after it.
      const close = stat.lastIndexOf(')');
      const name = stat.slice(stat.indexOf('(') + 1, close);
      const parent = Number(stat.slice(close + 2).split(' ')[1]);
      if (parent !== pid || name !== 'ffmpeg') continue;
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      kb += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
    } catch {
      // The process ended between listing and reading.
    }
  }
  return kb / 1024;
}

/** Samples the children's summed RSS every 100 ms until stopped; answers the peak. */
function sampleChildren(pid: number): { stop(): number } {
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, ffmpegChildrenRssMb(pid));
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

/**
 * CPU seconds used so far by process `pid`, all its threads (user + system; /proc counts in ticks of 1/100 s), and
 * with `children` also those of its children that have ended and been waited for (ffmpeg decodes: the server spawns
 * one per piece, so a run's are all counted once it has finished).
 */
export function cpuSeconds(pid: number, children = false): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const own = Number(fields[11]) + Number(fields[12]);
  return (children ? own + Number(fields[13]) + Number(fields[14]) : own) / 100;
}

export interface RunMeasure {
  wallSeconds: number;
  apiSeconds: number;
  serverPeakMb: number;
  /** CPU seconds of the server process (worker threads included) during the run. */
  serverCpuSeconds: number;
  ffmpegPeakMb: number;
}

/**
 * How often the bench asks for the run: as often as the web app's run page does (`RUN_POLL_MS`). Each GET is work
 * for the server the run shares the cores with — on the embedded database (PGlite, inside the server process) a GET
 * cost ~30 ms of CPU, and polling every 200 ms (every 50 ms from 90 % on) took 1.8 s of server CPU from a 9 s run
 * (docs/benchmarks.md, 2026-11-29).
 */
const POLL_MS = 1000;

/**
 * One run (movement detection unless `kind` says otherwise): POST, then a GET every second until it has succeeded.
 * Its wall time ends at the run's `finished_at` (the server's clock, on this machine), not at the poll that saw it,
 * so the poll's interval adds nothing to the figure.
 */
export async function measureRun(
  h: BenchHarness,
  server: { pid: number },
  analysisUrl: string,
  parameters: Record<string, unknown>,
  kind = 'movement_detection',
): Promise<RunMeasure> {
  const access = await h.login();
  h.resetPeakRss(server.pid);
  const children = sampleChildren(server.pid);
  const cpuAtStart = cpuSeconds(server.pid);
  try {
    const started = performance.now();
    const startedAt = Date.now();
    const created = await h.api('POST', analysisUrl, access, { kind, parameters });
    for (;;) {
      await sleep(POLL_MS);
      const run = await h.api('GET', `${analysisUrl}${created.analysis_uuid}/`, access);
      if (run.status === 'succeeded') {
        const wallSeconds = (Date.parse(run.finished_at) - startedAt) / 1000;
        if (run.summary?.samples !== FRAMES) throw new Error(`the run counted ${run.summary?.samples} frames`);
        return {
          wallSeconds,
          apiSeconds: (Date.parse(run.finished_at) - Date.parse(run.created_at)) / 1000,
          serverPeakMb: h.peakRssMb(server.pid),
          serverCpuSeconds: cpuSeconds(server.pid) - cpuAtStart,
          ffmpegPeakMb: children.stop(),
        };
      }
      if (run.status !== 'queued' && run.status !== 'running')
        throw new Error(`the run ended ${run.status}: ${run.error}`);
      if (performance.now() - started > 300_000) throw new Error('the run did not finish within 5 minutes');
    }
  } finally {
    children.stop();
  }
}

/**
 * A target row's figure: `rounds` pairs of (ffmpeg's own gray decode of the file, then one run), taken one right
 * after the other, so each run is compared with a reference measured under the same conditions. On a shared or
 * throttled machine ffmpeg's own rate swings by a fifth between minutes (1,435–1,938 frames/s in three runs of a
 * day), which moved a ratio taken against one reference measured at the start by as much. The row gives the median
 * pair's ratio and every pair's.
 */
export async function measurePairs(
  rounds: number,
  referenceSeconds: () => Promise<number>,
  run: () => Promise<RunMeasure>,
): Promise<PairedMeasure> {
  const pairs: { referenceSeconds: number; run: RunMeasure; ratio: number }[] = [];
  for (let round = 0; round < rounds; round++) {
    const reference = await referenceSeconds();
    const measured = await run();
    pairs.push({ referenceSeconds: reference, run: measured, ratio: reference / measured.wallSeconds });
  }
  const middle = [...pairs].sort((a, b) => a.ratio - b.ratio)[Math.floor(pairs.length / 2)]!;
  return { ...middle, ratios: pairs.map((pair) => pair.ratio) };
}

export interface PairedMeasure {
  /** The median pair: its reference decode's wall seconds, its run, and their ratio. */
  referenceSeconds: number;
  run: RunMeasure;
  ratio: number;
  /** Every pair's ratio, in the order measured. */
  ratios: number[];
}

/** A target row measured in pairs (`measurePairs`): the median pair's rate, ratio and CPU, then every pair's ratio. */
export function pairedMeasureRows(label: string, target: string, paired: PairedMeasure): [string, string][] {
  const { run, ratio, ratios, referenceSeconds } = paired;
  const wallRate = FRAMES / run.wallSeconds;
  return [
    [
      `${label}: frames/s (wall time from the POST to the run's finished_at, polled every 1 s as the web app does), against ffmpeg's gray decode of the file timed just before the run; the median of ${ratios.length} such pairs${target}`,
      `${rate(wallRate)} = ${ratio.toFixed(2)} × ffmpeg gray (${rate(FRAMES / referenceSeconds)} in its pair); every pair: ${ratios.map((r) => `${r.toFixed(2)} ×`).join(', ')} (${run.wallSeconds.toFixed(1)} s; created→finished per the API ${run.apiSeconds.toFixed(1)} s; server CPU ${run.serverCpuSeconds.toFixed(1)} s = ${((run.serverCpuSeconds * 1000) / FRAMES).toFixed(2)} ms a frame)`,
    ],
    memoryRow(label, run),
  ];
}

/** A run's rows: its rate against ffmpeg's own decode, and its peak memory. */
export function runMeasureRows(
  label: string,
  target: string,
  run: RunMeasure,
  grayRate: number,
  lumaRate: number,
): [string, string][] {
  const wallRate = FRAMES / run.wallSeconds;
  return [
    [
      `${label}: frames/s (wall time from the POST to the run's finished_at, polled every 1 s as the web app does)${target}`,
      `${rate(wallRate)} = ${(wallRate / grayRate).toFixed(2)} × ffmpeg gray, ${(wallRate / lumaRate).toFixed(2)} × Y plane (${run.wallSeconds.toFixed(1)} s; created→finished per the API ${run.apiSeconds.toFixed(1)} s; server CPU ${run.serverCpuSeconds.toFixed(1)} s = ${((run.serverCpuSeconds * 1000) / FRAMES).toFixed(2)} ms a frame)`,
    ],
    memoryRow(label, run),
  ];
}

function memoryRow(label: string, run: RunMeasure): [string, string] {
  return [
    `${label}: peak RSS of the server (worker threads included) / summed ffmpeg children (100 ms samples)`,
    `${run.serverPeakMb.toFixed(0)} MB / ${run.ffmpegPeakMb.toFixed(0)} MB`,
  ];
}
